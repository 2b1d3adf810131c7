package sanitize

import (
	"encoding/binary"
	"io"
	"unicode/utf8"
)

// Writer is an io.Writer that passes everything written to it through the
// sanitiser before it reaches the underlying writer: escape sequences,
// carriage returns, other control characters, bidi controls and the
// line/paragraph separators are dropped; newlines and tabs are kept;
// invalid UTF-8 becomes U+FFFD. The CLI writes every human-readable line
// through one, so file text a command forgot to clean still cannot reach
// the terminal raw. It is not for output that must stay exact (--json).
//
// A character split between two writes is joined again: up to three bytes
// that begin an incomplete UTF-8 sequence are held back for the next
// write. Nothing else is buffered, and an escape sequence split between
// writes cannot be completed, as its ESC is dropped with the first part.
// A Writer is not safe for concurrent use.
type Writer struct {
	w       io.Writer
	pending []byte // the start of a character cut by the end of the last write
}

// NewWriter returns a Writer that writes sanitised text to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sanitises p and writes the result. It reports len(p) on success,
// as the bytes dropped were consumed, not lost. Large writes (a session
// export of hundreds of MB) are cleaned in chunks, so they cost no copy of
// the whole text: a chunk of plain text is passed on as it is.
func (sw *Writer) Write(p []byte) (int, error) {
	data := p
	if len(sw.pending) > 0 {
		data = append(sw.pending[:len(sw.pending):len(sw.pending)], p...)
		sw.pending = nil
	}
	if cut := incompleteTail(data); cut > 0 {
		sw.pending = append([]byte(nil), data[len(data)-cut:]...)
		data = data[:len(data)-cut]
	}
	for len(data) > 0 {
		n := len(data)
		if n > writerChunk {
			// Cut at a character boundary (an escape sequence cut in two
			// loses its ESC with the first part, which is all that matters).
			n = writerChunk
			for n > writerChunk-utf8.UTFMax && !utf8.RuneStart(data[n]) {
				n--
			}
		}
		var err error
		if isClean(data[:n]) {
			_, err = sw.w.Write(data[:n])
		} else {
			_, err = io.WriteString(sw.w, textKeepingTabs(string(data[:n])))
		}
		if err != nil {
			return 0, err
		}
		data = data[n:]
	}
	return len(p), nil
}

// writerChunk is how much of one write is cleaned at a time.
const writerChunk = 64 << 10

// Unwrap returns the underlying writer, for output that must stay exact.
func (sw *Writer) Unwrap() io.Writer { return sw.w }

// incompleteTail returns how many bytes at the end of b begin a UTF-8
// sequence that the next write may complete (0 when b ends on a whole
// character or on bytes that can never become one).
func incompleteTail(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}

// printableASCII8 reports whether the eight bytes of w are all printable
// ASCII (0x20–0x7e): no byte below 0x20, none at 0x7f or above.
func printableASCII8(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (w - 0x20*ones) &^ w       // a high bit where a byte is below 0x20 (or above 0x7f)
	above := (w + (0x80-0x7f)*ones) | w // a high bit where a byte is 0x7f or above
	return (below|above)&highs == 0
}

// textKeepingTabs is Text with tabs written as they are: a tab only moves
// the cursor to the next tab stop, and output aligned with tabs keeps its
// alignment.
func textKeepingTabs(s string) string {
	var out []byte
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\t' {
			out = append(out, Text(s[start:i])...)
			if i < len(s) {
				out = append(out, '\t')
			}
			start = i + 1
		}
	}
	return string(out)
}

// isClean reports whether b is valid UTF-8 without anything Text drops,
// newlines and tabs aside: the Writer then passes it on unchanged, without
// a copy (the common case, also for text that is not ASCII).
func isClean(b []byte) bool {
	for i := 0; i < len(b); {
		if i+8 <= len(b) && printableASCII8(binary.LittleEndian.Uint64(b[i:])) {
			i += 8 // the common case: eight bytes of printable ASCII
			continue
		}
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || isHazard(r) {
			return false
		}
		i += size
	}
	return true
}
