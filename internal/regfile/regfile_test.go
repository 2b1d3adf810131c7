package regfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.json")
	if err := os.WriteFile(path, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := Read(path, 0)
	if err != nil || string(data) != `{"a":1}` {
		t.Fatalf("Read = %q, %v", data, err)
	}
	// Through a symbolic link to a regular file: read.
	link := filepath.Join(t.TempDir(), "link.json")
	if err := os.Symlink(path, link); err == nil {
		if data, err := Read(link, 0); err != nil || string(data) != `{"a":1}` {
			t.Errorf("Read(link) = %q, %v", data, err)
		}
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestReadRefusesDirectoriesAndLargeFiles(t *testing.T) {
	dir := t.TempDir()
	_, err := Read(dir, 0)
	var nr *NotRegularError
	if !errors.As(err, &nr) || nr.Kind != "directory" || !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
	path := filepath.Join(dir, "big")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Read(path, 1024)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "2 KiB, more than the 1 KiB limit") {
		t.Errorf("large file: %v", err)
	}
	if data, err := Read(path, 2048); err != nil || len(data) != 2048 {
		t.Errorf("file at the limit: %d bytes, %v", len(data), err)
	}
}

func TestReadStreamStopsAtTheLimit(t *testing.T) {
	data, err := ReadStream(strings.NewReader("hello"), "standard input", 5)
	if err != nil || string(data) != "hello" {
		t.Errorf("ReadStream at the limit = %q, %v", data, err)
	}
	// An endless stream (/dev/zero on standard input) ends at the limit.
	_, err = ReadStream(endless{}, "standard input", 1<<20)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "standard input: more than the 1 MiB limit") {
		t.Errorf("endless stream: %v", err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{12: "12 bytes", 1024: "1 KiB", 1500: "1500 bytes", 64 << 20: "64 MiB", 3 << 29: "1536 MiB", 1 << 30: "1 GiB", 5<<20 + 1: "5.0 MiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestOpenSectionEndsAtTheSizeAtOpenAndAtTheBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSection(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Appended after the open: not part of the section.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("appended")
	f.Close()
	if data, err := io.ReadAll(s); err != nil || string(data) != "0123456789" || s.Size() != 10 || s.Info.Size() != 10 {
		t.Errorf("section = %q (size %d), %v", data, s.Size(), err)
	}
	// A bound below the size (a listing's size, a header window) wins.
	b, err := OpenSection(path, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if data, _ := io.ReadAll(b); string(data) != "0123" {
		t.Errorf("bounded section = %q", data)
	}
	if _, err := OpenSection(t.TempDir(), 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
}
