package sanitize

import (
	"unicode"
	"unicode/utf8"
)

// Clipper is Clip for text that arrives a rune at a time (decoded from
// JSON, say): it folds white space as it goes and needs no more once it
// holds n+1 runes, so a caller can stop decoding there. It takes text that
// holds nothing Text removes but tabs and newlines; anything else makes
// it give up (Result's ok is false), and the caller clips the whole text
// with Clip. The zero value is not ready: call Reset.
type Clipper struct {
	b           []byte
	n           int
	count, keep int // runes kept; bytes of the first n-1 of them
	gap         bool
	done        bool // more than n runes: the clip is decided
	failed      bool // a rune only Text handles
}

// Reset starts a new text clipped to n runes (n ≥ 0), reusing buf's
// storage for the folded text.
func (c *Clipper) Reset(n int, buf []byte) {
	*c = Clipper{b: buf[:0], n: max(n, 0)}
}

// More reports whether the clip still depends on text to come.
func (c *Clipper) More() bool { return !c.done && !c.failed }

// WriteRune adds one rune of the text.
func (c *Clipper) WriteRune(r rune) {
	if c.done || c.failed {
		return
	}
	switch {
	case r == ' ' || r == '\t' || r == '\n':
		c.gap = c.gap || c.count > 0
		return
	case r == utf8.RuneError || r < 0x20 || isHazard(r):
		c.failed = true
		return
	case r >= utf8.RuneSelf && unicode.IsSpace(r):
		c.gap = c.gap || c.count > 0
		return
	}
	if c.gap {
		c.gap = false
		if c.add(' ') {
			return
		}
	}
	c.add(r)
}

// add keeps one rune of the folded text; it reports that the clip is
// decided.
func (c *Clipper) add(r rune) bool {
	if c.count++; c.count > c.n {
		c.done = true
		return true
	}
	if r < utf8.RuneSelf {
		c.b = append(c.b, byte(r))
	} else {
		c.b = utf8.AppendRune(c.b, r)
	}
	if c.count == c.n-1 {
		c.keep = len(c.b)
	}
	return false
}

// WriteString adds text.
func (c *Clipper) WriteString(s string) {
	for _, r := range s {
		if !c.More() {
			return
		}
		c.WriteRune(r)
	}
}

// Write adds text given as UTF-8 bytes (invalid bytes are U+FFFD).
// Printable ASCII, most of any text, is taken a run (a word) at a time.
func (c *Clipper) Write(p []byte) {
	for i := 0; i < len(p) && !c.done && !c.failed; {
		b := p[i]
		if b > ' ' && b < 0x7f {
			if c.gap {
				c.gap = false
				if c.add(' ') {
					return
				}
			}
			j := i + 1
			for j < len(p) && p[j] > ' ' && p[j] < 0x7f {
				j++
			}
			if room := c.n - c.count; j-i > room {
				// The run goes past n runes: keep what fits, and the
				// rune after it decides the clip.
				c.addASCII(p[i : i+room])
				c.count++
				c.done = true
				return
			}
			c.addASCII(p[i:j])
			i = j
			continue
		}
		if b == ' ' || b == '\t' || b == '\n' {
			c.gap = c.gap || c.count > 0
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		c.WriteRune(r)
		i += size
	}
}

// addASCII keeps a run of printable ASCII that fits in n runes.
func (c *Clipper) addASCII(run []byte) {
	before := c.count
	c.b = append(c.b, run...)
	c.count += len(run)
	if before < c.n-1 && c.count >= c.n-1 {
		c.keep = len(c.b) - (c.count - (c.n - 1))
	}
}

// Result returns Clip of the text written (the text so far when More is
// still true); ok is false when the text needs Clip itself.
func (c *Clipper) Result() (string, bool) {
	switch {
	case c.failed:
		return "", false
	case c.done:
		return string(c.b[:c.keep]) + "…", true
	}
	return string(c.b), true
}

// Buffer returns the storage of the folded text, for reuse.
func (c *Clipper) Buffer() []byte { return c.b[:0] }
