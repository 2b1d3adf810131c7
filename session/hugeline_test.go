package session

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// countingFile counts every byte read from the underlying file, through
// Read and ReadAt alike.
type countingFile struct {
	*virtualFile
	read int64
}

func (c *countingFile) Read(b []byte) (int, error) {
	n, err := c.virtualFile.Read(b)
	c.read += int64(n)
	return n, err
}

func (c *countingFile) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.virtualFile.ReadAt(b, off)
	c.read += int64(n)
	return n, err
}

// A line above the display limit costs one scan of its bytes and no copy
// of it, and the diagnostics say which line was skipped and how long it was.
func TestDisplayLimitSkipsHugeLineInOneScan(t *testing.T) {
	head := testHeader + "\n" + entryLine("e1", "") + "\n"
	tail := "\n" + entryLine("e2", "e1") + "\n"
	huge := int64(DisplayMaxLineBytes) + 10
	cf := &countingFile{virtualFile: &virtualFile{head: head, tail: tail, hugeLen: huge}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := Read(cf, DisplayOptions())
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	d := s.Diagnostics
	if len(s.Entries) != 2 || !reflectEqualInts(d.OversizedLines, []int{3}) {
		t.Fatalf("entries=%d oversized=%v", len(s.Entries), d.OversizedLines)
	}
	if len(d.OversizedLineBytes) != 1 || d.OversizedLineBytes[0] != huge || d.LineLimit != DisplayMaxLineBytes {
		t.Errorf("oversized sizes %v, limit %d", d.OversizedLineBytes, d.LineLimit)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d MiB to skip a %d MiB line", alloc>>20, huge>>20)
	}
	if size := cf.virtualFile.size(); cf.read > size+8<<20 {
		t.Errorf("read %d bytes of a %d-byte file: more than one scan", cf.read, size)
	}
	notes := s.LoadNotes()
	if len(notes) != 1 || !strings.Contains(notes[0], "line 3") || !strings.Contains(notes[0], "32 MiB") ||
		!strings.Contains(notes[0], "33554442 bytes") {
		t.Errorf("notes = %q", notes)
	}
}

// The sizes are known on the stream path (no seeking) too.
func TestDisplayLimitOnAStream(t *testing.T) {
	huge := `{"type":"custom","id":"big","data":"` + strings.Repeat("y", 3000) + `"}`
	file := testHeader + "\n" + huge + "\n" + entryLine("e1", "") + "\n" + huge
	s, err := Read(plainReader{strings.NewReader(file)}, Options{MaxLineBytes: 1000, ChunkBytes: 128})
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{int64(len(huge)), int64(len(huge))}
	if got := s.Diagnostics.OversizedLineBytes; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("stream sizes %v, want %v", got, want)
	}
}

// OpenForDisplay skips a line Open still reads: `session context` keeps
// matching Pi for every line Pi accepts.
func TestOpenForDisplayAndOpenDiffer(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 33 MiB file")
	}
	path := filepath.Join(t.TempDir(), "huge.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, testHeader+"\n"+entryLine("e1", "")+"\n")
	io.WriteString(f, `{"type":"custom","customType":"x","id":"big","parentId":"e1","timestamp":"2026-01-01T00:00:02.000Z","data":"`)
	chunk := strings.Repeat("z", 1<<20)
	for i := 0; i < DisplayMaxLineBytes>>20; i++ {
		io.WriteString(f, chunk)
	}
	io.WriteString(f, "\"}\n"+entryLine("e2", "big")+"\n")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	display, err := OpenForDisplay(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(display.Entries) != 2 || len(display.Diagnostics.OversizedLines) != 1 {
		t.Fatalf("display: %d entries, oversized %v", len(display.Entries), display.Diagnostics.OversizedLines)
	}
	full, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Entries) != 3 || len(full.Diagnostics.OversizedLines) != 0 {
		t.Fatalf("full: %d entries, oversized %v", len(full.Entries), full.Diagnostics.OversizedLines)
	}
	if path := full.PathTo(full.LeafIndex()); len(path) != 3 {
		t.Errorf("full path through the big entry has %d entries", len(path))
	}
}

// FuzzLineLimitPaths reads the same bytes through the seekable path (which
// measures long lines ahead and skips them unread) and the stream path
// (which buffers up to the limit) with a small limit: both must agree on
// the entries and on which lines were skipped and how long they were.
func FuzzLineLimitPaths(f *testing.F) {
	f.Add([]byte(testHeader+"\n"+entryLine("e1", "")+"\n"+strings.Repeat("x", 300)+"\n"+entryLine("e2", "e1")), 64, 16)
	f.Add([]byte(testHeader+"\n"+strings.Repeat("y", 1000)), 100, 7)
	f.Add([]byte(strings.Repeat("z", 90)+"\n"+testHeader+"\n"), 80, 33)
	f.Fuzz(func(t *testing.T, data []byte, limit, chunk int) {
		limit, chunk = 1+abs(limit)%512, 1+abs(chunk)%256
		opt := Options{MaxLineBytes: limit, ChunkBytes: chunk, Workers: 1}
		seek, errSeek := Read(strings.NewReader(string(data)), opt)
		stream, errStream := Read(plainReader{strings.NewReader(string(data))}, opt)
		if (errSeek == nil) != (errStream == nil) {
			t.Fatalf("seekable err %v, stream err %v", errSeek, errStream)
		}
		if errSeek != nil {
			return
		}
		a, b := seek.Diagnostics, stream.Diagnostics
		if !reflectEqualInts(a.OversizedLines, b.OversizedLines) || len(a.OversizedLineBytes) != len(b.OversizedLineBytes) {
			t.Fatalf("oversized: seekable %v %v, stream %v %v", a.OversizedLines, a.OversizedLineBytes, b.OversizedLines, b.OversizedLineBytes)
		}
		for k := range a.OversizedLineBytes {
			if a.OversizedLineBytes[k] != b.OversizedLineBytes[k] || a.OversizedLineBytes[k] <= int64(limit) {
				t.Fatalf("sizes: seekable %v, stream %v, limit %d", a.OversizedLineBytes, b.OversizedLineBytes, limit)
			}
		}
		if len(seek.Entries) != len(stream.Entries) || a.Lines != b.Lines || seek.Size != stream.Size || seek.Size != int64(len(data)) {
			t.Fatalf("entries %d/%d lines %d/%d size %d/%d of %d", len(seek.Entries), len(stream.Entries), a.Lines, b.Lines, seek.Size, stream.Size, len(data))
		}
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
