package cli

import (
	"errors"
	"io"
	"os"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/i18n"
)

// readLimitedText reads r as UTF-8 text of at most limit characters,
// counted as pi-forge counts them (JavaScript length: UTF-16 code units, a
// character outside the BMP counts 2; an invalid byte decodes to one
// U+FFFD). It never asks for more bytes than the characters still
// allowed, so however long the stream it stops after limit+1 characters
// (and at most the 3 bytes that finish a split one), returning those with
// tooLong set: memory and time stay bounded by the limit, not by the
// input.
func readLimitedText(r io.Reader, limit int) (text string, tooLong bool, err error) {
	buf := make([]byte, 0, min(limit+4, 64<<10))
	var pending []byte // bytes of a character split across reads
	units := 0
	chunk := make([]byte, 64<<10)
	for {
		want := limit + 1 - units
		if len(pending) > 0 {
			want = max(want, utf8.UTFMax-len(pending))
		}
		n, err := r.Read(chunk[:min(want, len(chunk))])
		data := append(pending, chunk[:n]...)
		pending = nil
		for len(data) > 0 {
			c, size := utf8.DecodeRune(data)
			if c == utf8.RuneError && size == 1 && !utf8.FullRune(data) && err == nil {
				pending = append([]byte(nil), data...) // finish it after the next read
				break
			}
			if c >= 0x10000 {
				units += 2
			} else {
				units++
			}
			buf = append(buf, data[:size]...)
			if units > limit {
				return string(buf), true, nil
			}
			data = data[size:]
		}
		if errors.Is(err, io.EOF) {
			return string(append(buf, pending...)), false, nil
		}
		if err != nil {
			return "", false, err
		}
	}
}

// readContent reads a capability's text from standard input, up to
// pi-forge's content limit (capability.MaxContentLength characters) plus
// one: a longer text comes back cut after limit+1 characters with
// tooLong set, so its validation still reports it as too long.
func readContent() (text string, tooLong bool, err error) {
	text, tooLong, err = readLimitedText(os.Stdin, capability.MaxContentLength)
	if err != nil {
		return "", false, failErr(exitUsage, i18n.Errorf("read standard input: %v", err))
	}
	return text, tooLong, nil
}

// readDirective reads a manual directive from standard input; one longer
// than pi-forge's content limit is refused (exit 4, as pi-forge refuses
// it) once limit+1 characters are read.
func readDirective() (string, error) {
	text, tooLong, err := readContent()
	if err != nil {
		return "", err
	}
	if tooLong {
		return "", failErr(exitRefused, i18n.Errorf("the directive on standard input is longer than %d characters, pi-forge's limit for capability content: reading stopped after character %d, and nothing was written",
			capability.MaxContentLength, capability.MaxContentLength+1))
	}
	return text, nil
}
