package search

import (
	"bytes"
	"unicode/utf8"
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
		u, ok := hex4(raw, i+2)
		if !ok {
			return '\\', 1
		}
		if u >= 0xD800 && u <= 0xDBFF && i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
			if lo, ok := hex4(raw, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
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

// rawOffset returns the offset in raw of the character whose decoded text
// starts at byte d of decodeString(nil, raw) (len(raw) for the end).
func rawOffset(raw []byte, d int) int {
	out := 0
	for i := 0; i < len(raw); {
		if out >= d {
			return i
		}
		if raw[i] == '\\' {
			r, n := decodeEscape(raw, i)
			out += utf8.RuneLen(r)
			i += n
			continue
		}
		if raw[i] < utf8.RuneSelf {
			out++
			i++
			continue
		}
		r, n := decodeRune(raw[i:])
		if r == utf8.RuneError {
			out += 3
		} else {
			out += n
		}
		i += n
	}
	return len(raw)
}
