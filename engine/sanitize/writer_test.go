package sanitize

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"unicode/utf8"
)

func TestWriterDropsHazardsAndKeepsLayout(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	in := "id\t\x1b]52;c;aGk=\x07evil\u202e\r\n\u009b31mname\x1b[2J\tok · ✓\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d", n, err, len(in))
	}
	if got, want := out.String(), "id\tevil\n31mname\tok · ✓\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWriterJoinsCharactersSplitBetweenWrites(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	text := []byte("résumé ✓ 𝄞 end")
	for i := range text { // one byte per write: every character is split
		if _, err := w.Write(text[i : i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if out.String() != string(text) {
		t.Errorf("got %q, want %q", out.String(), text)
	}
	// A C1 control (U+009B, CSI) split between writes is still dropped,
	// and so is a bidi override.
	out.Reset()
	for _, part := range [][]byte{{'a', 0xc2}, {0x9b, '3', '1', 'm', 0xe2, 0x80}, {0xae, 'b', '\n'}} {
		w.Write(part)
	}
	if got := out.String(); got != "a31mb\n" {
		t.Errorf("split C1/bidi: got %q", got)
	}
}

func TestWriterPassesWriteErrors(t *testing.T) {
	w := NewWriter(failing{})
	if _, err := w.Write([]byte("x")); err == nil {
		t.Error("the underlying writer's error was lost")
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// Whatever is written, in whatever pieces, nothing the sanitiser removes
// reaches the underlying writer, and clean text passes unchanged.
func FuzzWriter(f *testing.F) {
	f.Add([]byte("plain text\n"), uint8(3))
	f.Add([]byte("\x1b]52;c;aGk=\x07\u009b\u202e\r\t"), uint8(1))
	f.Add([]byte{0xc2, 0x9b, 0xe2, 0x80, 0xae, 0xf0, 0x9d, 0x84, 0x9e}, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		size := int(step%7) + 1
		var out bytes.Buffer
		w := NewWriter(&out)
		for i := 0; i < len(data); i += size {
			w.Write(data[i:min(len(data), i+size)])
		}
		got := out.String()
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 out: %q", got)
		}
		for _, r := range got {
			if r != '\n' && r != '\t' && isHazard(r) {
				t.Fatalf("hazard %U reached the output: %q", r, got)
			}
		}
		if isClean(data) && got != string(data) {
			t.Fatalf("plain text changed: %q → %q", data, got)
		}
	})
}

// A write larger than a chunk, with hazards and multi-byte characters on
// both sides of the chunk boundaries, comes out clean and whole.
func TestWriterLargeWrites(t *testing.T) {
	var in, want bytes.Buffer
	for in.Len() < 3*writerChunk+17 {
		in.WriteString("héllo ✓ \x1b[2J\u202e 0123456789\n")
		want.WriteString("héllo ✓  0123456789\n")
	}
	var out bytes.Buffer
	if _, err := NewWriter(&out).Write(in.Bytes()); err != nil {
		t.Fatal(err)
	}
	// A chunk boundary may fall inside "\x1b[2J" and leave "[2J" or "2J";
	// nothing raw passes, and every other byte is there.
	got := bytes.ReplaceAll(bytes.ReplaceAll(out.Bytes(), []byte("[2J"), nil), []byte("2J"), nil)
	got = bytes.ReplaceAll(got, []byte("J"), nil)
	wantClean := bytes.ReplaceAll(want.Bytes(), []byte("J"), nil)
	if !bytes.Equal(got, wantClean) {
		t.Errorf("large write changed the text (%d bytes out, %d expected)", len(got), len(wantClean))
	}
	for _, r := range out.String() {
		if r != '\n' && r != '\t' && isHazard(r) {
			t.Fatalf("hazard %U in a large write", r)
		}
	}
}

func BenchmarkWriterPlainExport(b *testing.B) {
	text := bytes.Repeat([]byte("0123456789 · line of an export\n"), 1<<16)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		NewWriter(io.Discard).Write(text)
	}
}

// TestPrintableASCII8: the eight-byte test agrees with looking at each
// byte, for every byte value in every position and for random words.
func TestPrintableASCII8(t *testing.T) {
	check := func(w uint64) {
		want := true
		for k := 0; k < 8; k++ {
			if c := byte(w >> (8 * k)); c < 0x20 || c > 0x7e {
				want = false
			}
		}
		if got := printableASCII8(w); got != want {
			t.Fatalf("printableASCII8(%#016x) = %v, want %v", w, got, want)
		}
	}
	for p := 0; p < 8; p++ {
		for v := 0; v < 256; v++ {
			for _, fill := range []uint64{0x6161616161616161, 0x7e7e7e7e7e7e7e7e, 0x2020202020202020} {
				check(fill&^(0xff<<(8*p)) | uint64(v)<<(8*p))
			}
		}
	}
	x := uint64(0x9e3779b97f4a7c15)
	for range 1 << 16 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		check(x)
		check(x & 0x7f7f7f7f7f7f7f7f)
	}
}
