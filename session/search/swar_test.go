package search

import (
	"bytes"
	"testing"
)

// plainEndRef is plainEnd's byte loop.
func plainEndRef(b []byte) int {
	for i, c := range b {
		if c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return len(b)
}

// FuzzSWAR: the eight-bytes-at-a-time scans find what the byte loops find,
// at every alignment.
func FuzzSWAR(f *testing.F) {
	f.Add([]byte("abcdefgh\nijklmnop\"qr\\st\x01uv\xff\x80\x7f\x20\x1f"))
	f.Add([]byte("\n\n\n\n\n\n\n\n\n"))
	f.Add([]byte("0123456789abcdef0123456789\"\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for k := 0; k <= min(len(b), 9); k++ {
			d := b[k:]
			if got, want := lastNewline(d), bytes.LastIndexByte(d, '\n'); got != want {
				t.Fatalf("lastNewline(%q) = %d, want %d", d, got, want)
			}
			if got, want := plainEnd(d), plainEndRef(d); got != want {
				t.Fatalf("plainEnd(%q) = %d, want %d", d, got, want)
			}
		}
	})
}

// TestSWARBytes tries every byte value at every place of a word.
func TestSWARBytes(t *testing.T) {
	for c := range 256 {
		for at := range 17 {
			d := bytes.Repeat([]byte{'a'}, 17)
			d[at] = byte(c)
			if got, want := lastNewline(d), bytes.LastIndexByte(d, '\n'); got != want {
				t.Fatalf("lastNewline with %#x at %d = %d, want %d", c, at, got, want)
			}
			if got, want := plainEnd(d), plainEndRef(d); got != want {
				t.Fatalf("plainEnd with %#x at %d = %d, want %d", c, at, got, want)
			}
		}
	}
}
