package search

import (
	"bytes"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// decodeString appends the text of a JSON string token's body (the bytes
// between its quotes) to dst, as Pi sees it: escapes decoded, a surrogate
// pair joined, a lone surrogate and every ill-formed UTF-8 sequence
// (maximal subpart) turned into U+FFFD. The token has been validated; a
// malformed escape is copied as is rather than failing.
func decodeString(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		k := bytes.IndexByte(raw[i:], '\\')
		plain := raw[i:]
		if k >= 0 {
			plain = raw[i : i+k]
		}
		dst = appendText(dst, plain)
		i += len(plain)
		if k < 0 {
			break
		}
		r, n := decodeEscape(raw, i)
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst
}

// appendText appends bytes with ill-formed UTF-8 replaced.
func appendText(dst, b []byte) []byte {
	if utf8.Valid(b) {
		return append(dst, b...)
	}
	for len(b) > 0 {
		r, n := decodeRune(b)
		if r == utf8.RuneError { // ill-formed, or U+FFFD itself
			dst = append(dst, "\uFFFD"...)
		} else {
			dst = append(dst, b[:n]...)
		}
		b = b[n:]
	}
	return dst
}

// decodeEscape decodes the escape at raw[i] == '\\' and returns the rune
// and the raw length consumed.
func decodeEscape(raw []byte, i int) (rune, int) {
	if i+1 >= len(raw) {
		return '\\', 1
	}
	switch e := raw[i+1]; e {
	case '"', '\\', '/':
		return rune(e), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		u, ok := jsonv.Hex4(raw, i+2)
		if !ok {
			return '\\', 1
		}
		if u >= 0xD800 && u <= 0xDBFF && i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
			if lo, ok := jsonv.Hex4(raw, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				return rune((u-0xD800)<<10|(lo-0xDC00)) + 0x10000, 12
			}
		}
		if u >= 0xD800 && u <= 0xDFFF {
			return utf8.RuneError, 6
		}
		return rune(u), 6
	}
	return '\\', 1
}

// rawCursor maps offsets in the decoded text of one string body
// (decodeString) to offsets in the body as written, walking forward from the last answer: the matches of a text come in
// increasing order, so locating all of them reads the text once (from
// its start each time, a text with thousands of matches cost minutes).
type rawCursor struct {
	raw    []byte
	i, out int // raw offset and the decoded offset it stands for
}

// at returns the raw offset of the character whose decoded text starts at
// byte d (len(raw) for the end); a d before the last one asked restarts
// from the beginning.
func (c *rawCursor) at(d int) int {
	if d < c.out {
		c.i, c.out = 0, 0
	}
	raw := c.raw
	for c.i < len(raw) {
		if c.out >= d {
			return c.i
		}
		if raw[c.i] == '\\' {
			r, n := decodeEscape(raw, c.i)
			c.out += utf8.RuneLen(r)
			c.i += n
			continue
		}
		if raw[c.i] < utf8.RuneSelf {
			c.out++
			c.i++
			continue
		}
		r, n := decodeRune(raw[c.i:])
		if r == utf8.RuneError {
			c.out += 3
		} else {
			c.out += n
		}
		c.i += n
	}
	return len(raw)
}
