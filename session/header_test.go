package session

import (
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
	// Discovery does not skip a blank first line.
	if _, err := ReadHeader(strings.NewReader("\n" + testHeader)); !errors.Is(err, ErrNotSession) {
		t.Errorf("blank first line: %v", err)
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
