package sanitize

import (
	"io"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// JSONWriter is the one writer of JSON output meant for a terminal or a
// pipe: every byte written reaches w as JSONText writes it (C0, DEL and C1
// controls, format characters and U+2028/U+2029 as \uXXXX, the same JSON
// value). The CLI wraps the standard output of every command that prints
// JSON in one, so a streaming command (session tail --json, search --json)
// and a one-document command are escaped alike.
//
// A write that needs no escape is passed on as it is, without a copy;
// large writes are scanned and escaped in chunks. A character split
// between two writes is joined again (up to three bytes are held back);
// Flush writes what is held at the end. A JSONWriter is not safe for
// concurrent use.
type JSONWriter struct {
	w       io.Writer
	pending []byte // the start of a character cut by the end of the last write
	buf     strings.Builder
}

// NewJSONWriter returns a JSONWriter writing to w.
func NewJSONWriter(w io.Writer) *JSONWriter { return &JSONWriter{w: w} }

// Write escapes p and writes it; it reports len(p) on success.
func (jw *JSONWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	data := p
	if len(jw.pending) > 0 {
		data = append(jw.pending[:len(jw.pending):len(jw.pending)], p...)
		jw.pending = nil
	}
	if cut := incompleteTail(data); cut > 0 {
		jw.pending = append([]byte(nil), data[len(data)-cut:]...)
		data = data[:len(data)-cut]
	}
	// The bytes are only read while Write runs, never kept.
	if err := jw.write(unsafe.String(unsafe.SliceData(data), len(data)), data); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteString is Write for a string (io.WriteString uses it: no copy of
// a large document).
func (jw *JSONWriter) WriteString(s string) (int, error) {
	if len(jw.pending) > 0 || incompleteTail(unsafe.Slice(unsafe.StringData(s), len(s))) > 0 {
		return jw.Write([]byte(s))
	}
	if err := jw.write(s, nil); err != nil {
		return 0, err
	}
	return len(s), nil
}

// Flush writes a character held back from the last write, which no write
// completed: it is invalid UTF-8, written as \ufffd.
func (jw *JSONWriter) Flush() error {
	if len(jw.pending) == 0 {
		return nil
	}
	s := string(jw.pending)
	jw.pending = nil
	_, err := io.WriteString(jw.w, JSONText(s))
	return err
}

// Unwrap returns the underlying writer.
func (jw *JSONWriter) Unwrap() io.Writer { return jw.w }

// write escapes s chunk by chunk; raw, when not nil, is s's bytes, passed
// on unchanged for a chunk that needs no escape.
func (jw *JSONWriter) write(s string, raw []byte) error {
	for len(s) > 0 {
		n := len(s)
		if n > writerChunk {
			// Cut at a character start, so no sequence is split.
			n = writerChunk
			for n > writerChunk-utf8.UTFMax && !utf8.RuneStart(s[n]) {
				n--
			}
		}
		chunk := s[:n]
		var err error
		if clean := jsonClean(chunk); clean == n {
			if raw != nil {
				_, err = jw.w.Write(raw[:n])
			} else {
				_, err = io.WriteString(jw.w, chunk)
			}
		} else {
			jw.buf.Reset()
			jw.buf.Grow(n + 64)
			jw.buf.WriteString(chunk[:clean])
			appendJSONText(&jw.buf, chunk[clean:])
			_, err = io.WriteString(jw.w, jw.buf.String())
		}
		if err != nil {
			return err
		}
		s = s[n:]
		if raw != nil {
			raw = raw[n:]
		}
	}
	return nil
}
