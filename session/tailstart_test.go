package session

import (
	"bytes"
	"strings"
	"testing"
)

func TestLastLinesOffset(t *testing.T) {
	const text = "h\na\n\n  \nb\nc\nunfinished"
	cases := []struct {
		n    int
		want string // what follows the offset
	}{
		{0, ""},
		{1, "c\nunfinished"},
		{2, "b\nc\nunfinished"},
		{3, "a\n\n  \nb\nc\nunfinished"}, // blank lines are not entries
		{4, text},
		{99, text},
	}
	for _, c := range cases {
		off, err := lastLinesOffset(strings.NewReader(text), int64(len(text)), c.n)
		if err != nil || text[off:] != c.want {
			t.Errorf("n=%d: offset %d (%q), %v; want %q", c.n, off, text[off:], err, c.want)
		}
	}
}

// FuzzLastLinesOffset: the offset is inside the file, at a line start, and
// exactly n complete non-blank lines follow it (fewer only from offset 0).
func FuzzLastLinesOffset(f *testing.F) {
	f.Add([]byte("h\na\n\nb\n"), 2)
	f.Add([]byte("x"), 1)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		n = n % 50
		if n < 0 {
			n = -n
		}
		off, err := lastLinesOffset(bytes.NewReader(data), int64(len(data)), n)
		if err != nil || off < 0 || off > int64(len(data)) {
			t.Fatalf("offset %d, %v", off, err)
		}
		if n == 0 {
			if off != int64(len(data)) {
				t.Fatalf("n=0: offset %d, want the size", off)
			}
			return
		}
		if off > 0 && data[off-1] != '\n' {
			t.Fatalf("offset %d is not at a line start", off)
		}
		rest := data[off:]
		if i := bytes.LastIndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i+1]
		} else {
			rest = nil
		}
		count := 0
		for _, l := range bytes.Split(rest, []byte("\n")) {
			if len(bytes.Trim(l, " \t\r")) > 0 { // blank as the tail counts it
				count++
			}
		}
		if count != n && !(off == 0 && count < n) {
			t.Fatalf("n=%d: %d lines follow offset %d", n, count, off)
		}
	})
}
