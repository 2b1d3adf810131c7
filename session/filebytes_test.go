package session

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// assembleFile holds path with ReadFileBytes, decodes its lines as a
// caller of Assemble does and assembles them.
func assembleFile(t *testing.T, path string, buf []byte) (*Session, FileBytes, error) {
	t.Helper()
	file, _, err := ReadFileBytes(path, 64<<20, buf)
	if err != nil {
		return nil, file, err
	}
	var header *Entry
	var entries []Entry
	data := file.Data
	for no := 1; len(data) > 0; no++ {
		line := data
		if k := bytes.IndexByte(data, '\n'); k >= 0 {
			line, data = data[:k], data[k+1:]
		} else {
			data = nil
		}
		e, err := ParseEntryLine(line, no)
		switch {
		case err != nil:
		case header == nil:
			header = e
		case e.Type == TypeSession && !e.NotObject:
		default:
			entries = append(entries, *e)
		}
	}
	if header == nil {
		return nil, file, ErrNotSession
	}
	s, err := Assemble(path, file, header, entries)
	return s, file, err
}

// TestAssembleEqualsReader: a session assembled from its decoded lines
// indexes them as the reader does — entries, ids, parents, paths, labels,
// name — whether its file was mapped or read into the caller's buffer;
// and an older format, which needs migrating, is refused.
func TestAssembleEqualsReader(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	big, _ := writeGenerated(t, t.TempDir(), 2<<20)
	files = append(files, big)
	assembled, refused := 0, 0
	for _, mapAt := range []int64{1, 1 << 40} {
		was := mapMinBytes
		mapMinBytes = mapAt
		for _, path := range files {
			want, err := OpenForDisplay(path)
			got, file, aerr := assembleFile(t, path, make([]byte, 0, 16))
			if mapAt == 1 && len(file.Data) > 0 && !file.Mapped() {
				mapsFiles(t)
				t.Fatalf("%s was not mapped", path)
			}
			if err != nil || want.Header.FileVersion < CurrentVersion {
				if aerr == nil && err != nil {
					t.Fatalf("%s: assembled, but the reader says %v", path, err)
				}
				if aerr == nil {
					t.Fatalf("%s: assembled, but its version %v needs migrating", path, want.Header.FileVersion)
				}
				refused++
				continue
			}
			if aerr != nil {
				t.Fatalf("%s: %v", path, aerr)
			}
			assembled++
			if len(got.Entries) != len(want.Entries) || !reflect.DeepEqual(got.Header, want.Header) || got.Size != want.Size ||
				!reflect.DeepEqual(got.Labels(), want.Labels()) || !reflect.DeepEqual(got.DuplicateIDs(), want.DuplicateIDs()) {
				t.Fatalf("%s: assembled %d entries %+v, read %d %+v", path, len(got.Entries), got.Header, len(want.Entries), want.Header)
			}
			gn, gok := got.Name()
			wn, wok := want.Name()
			if gn != wn || gok != wok {
				t.Fatalf("%s: name %q, read %q", path, gn, wn)
			}
			for i := range want.Entries {
				if !bytes.Equal(got.Entries[i].Raw, want.Entries[i].Raw) || got.ParentIndex(i) != want.ParentIndex(i) ||
					!reflect.DeepEqual(got.PathTo(i), want.PathTo(i)) {
					t.Fatalf("%s: entry %d differs", path, i)
				}
				if id := want.Entries[i].ID; id != "" {
					gi, _ := got.IndexOf(id)
					wi, _ := want.IndexOf(id)
					if gi != wi {
						t.Fatalf("%s: id %s at %d, read %d", path, id, gi, wi)
					}
				}
			}
		}
		mapMinBytes = was
	}
	if assembled < 4 || refused < 1 {
		t.Fatalf("%d assembled, %d refused: the comparison proves little", assembled, refused)
	}
}

// TestReadFileBytesRefusesAboveTheLimit: a file above the caller's limit
// is not read.
func TestReadFileBytesRefusesAboveTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(testHeader+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadFileBytes(path, 10, nil); !errors.Is(err, ErrFileTooLarge) {
		t.Fatalf("err %v, want ErrFileTooLarge", err)
	}
	if _, _, err := ReadFileBytes(filepath.Join(t.TempDir(), "none.jsonl"), 10, nil); err == nil || errors.Is(err, ErrFileTooLarge) {
		t.Fatalf("a missing file: err %v", err)
	}
}
