package session

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadHeader(t *testing.T) {
	h, err := ReadHeader(strings.NewReader(testHeader + "\n" + entryLine("e", "")))
	if err != nil || h.ID != "s1" || h.Cwd != "/w" || h.FileVersion != 3 {
		t.Fatalf("header = %+v, %v", h, err)
	}
	// Like Pi's readSessionHeader, blank, malformed and falsy lines before
	// the header are skipped; the first parsed entry decides.
	for _, prefix := range []string{"\n", "\r\n  \n", "not json\n", "null\n0\n\"\"\n", "{\"type\":\"session\"\n"} {
		if h, err := ReadHeader(strings.NewReader(prefix + testHeader + "\n")); err != nil || h.ID != "s1" {
			t.Errorf("prefix %q: %+v, %v", prefix, h, err)
		}
	}
	for _, first := range []string{"[1]\n", `{"type":"message"}` + "\n", `{"type":"session","id":5}` + "\n"} {
		if _, err := ReadHeader(strings.NewReader(first + testHeader)); !errors.Is(err, ErrNotSession) {
			t.Errorf("first entry %q must decide: %v", first, err)
		}
	}
	// The 1 MiB budget covers the skipped lines too; a header that ends
	// exactly at the limit at the end of the file is still read.
	if _, err := ReadHeader(strings.NewReader(strings.Repeat("\n", MaxHeaderScanBytes) + testHeader)); !errors.Is(err, ErrNotSession) {
		t.Errorf("header after 1 MiB of blank lines: %v", err)
	}
	atLimit := strings.Repeat("\n", MaxHeaderScanBytes-len(testHeader)) + testHeader
	if h, err := ReadHeader(strings.NewReader(atLimit)); err != nil || h.ID != "s1" {
		t.Errorf("header ending at the limit: %+v, %v", h, err)
	}
	if _, err := ReadHeader(strings.NewReader(atLimit + "x")); !errors.Is(err, ErrNotSession) {
		t.Errorf("one byte past the limit: %v", err)
	}
	// A header line longer than the scan limit is not a header.
	long := `{"type":"session","id":"x","pad":"` + strings.Repeat("p", MaxHeaderScanBytes) + `"}` + "\n"
	if _, err := ReadHeader(strings.NewReader(long)); !errors.Is(err, ErrNotSession) {
		t.Errorf("oversized header: %v", err)
	}
}

func TestLineage(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "c.jsonl")
	write := func(path, parent string) {
		p := ""
		if parent != "" {
			p = `,"parentSession":"` + parent + `"`
		}
		if err := os.WriteFile(path, []byte(`{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/"`+p+"}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(a, c) // a cycle back to c
	write(b, a)
	write(c, b)
	got, err := Lineage(c, 10)
	if err != nil || strings.Join(got, ",") != b+","+a {
		t.Errorf("lineage = %v, %v", got, err)
	}
	write(a, filepath.Join(dir, "gone.jsonl"))
	got, err = Lineage(b, 10)
	if err == nil || len(got) != 2 {
		t.Errorf("missing ancestor: %v, %v", got, err)
	}
}

// FuzzReadHeader checks that discovery's bounded header scan never panics
// and agrees with the full reader whenever it finds a header: both take
// the first parsed entry.
func FuzzReadHeader(f *testing.F) {
	f.Add([]byte(testHeader + "\n"))
	f.Add([]byte("\n \nnot json\nnull\n" + testHeader))
	f.Add([]byte("[1]\n" + testHeader + "\n"))
	f.Add([]byte(`{"type":"session","id":5}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ReadHeader(bytes.NewReader(data))
		if err != nil {
			return
		}
		s, rerr := Read(bytes.NewReader(data), Options{})
		if rerr != nil || s.Header.ID != h.ID || s.Header.Line != h.Line {
			t.Fatalf("ReadHeader %+v but Read %v (header %+v)", h, rerr, s)
		}
	})
}
