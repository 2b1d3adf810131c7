//go:build unix

package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/test/hostile"
)

// A FIFO without a writer and a symbolic link to /dev/zero are refused at
// once, without being opened (an open of the FIFO would block, a read of
// /dev/zero would never end).
func TestSpecialFilesAreRefusedWithoutBlocking(t *testing.T) {
	want := map[string]string{"fifo": "named pipe (FIFO)", "zero": "character device"}
	for _, kind := range hostile.SpecialKinds {
		path := filepath.Join(t.TempDir(), "models.json")
		hostile.MakeSpecial(t, path, kind)
		var err error
		hostile.Within(t, "Read of a "+kind, func() { _, err = Read(path, 1<<20) })
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Kind != want[kind] {
			t.Errorf("Read(%s) = %v, want a %s refusal", kind, err, want[kind])
		}
	}
}

// A path swapped for a FIFO (or a /dev/zero link) after it was listed —
// OpenSection called with the listing's size — is refused at once; a swap
// racing with the opens never blocks one: each either reads the regular
// file's bytes or is refused.
func TestOpenSectionNeverBlocksOnASwappedPath(t *testing.T) {
	for _, kind := range hostile.SpecialKinds {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, []byte("listed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		listed := int64(len("listed\n"))
		hostile.MakeSpecial(t, path, kind)
		var err error
		hostile.Within(t, "OpenSection of a "+kind, func() {
			var s *Section
			if s, err = OpenSection(path, listed); err == nil {
				s.Close()
			}
		})
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v, want a refusal", kind, err)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, []byte("listed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	hostile.MakeSpecial(t, fifo, "fifo")
	hostile.Within(t, "200 opens racing with swaps", func() {
		_, errs := hostile.Race(200, func(i int) error {
			if i%2 == 0 { // a swapper: the path becomes the FIFO or the file again
				src := regular
				if i%4 == 0 {
					src = fifo
				}
				tmp := filepath.Join(dir, fmt.Sprintf("tmp%d", i))
				if err := os.Link(src, tmp); err != nil {
					return nil
				}
				return os.Rename(tmp, path)
			}
			s, err := OpenSection(path, 7)
			if err != nil {
				if errors.Is(err, ErrNotRegular) || errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			defer s.Close()
			data, err := io.ReadAll(s)
			if err == nil && string(data) != "listed\n" {
				err = fmt.Errorf("read %q", data)
			}
			return err
		})
		for _, err := range errs {
			t.Error(err)
		}
	})
}
