package jsonv

import (
	"strings"
	"unicode/utf8"
)

// ToString returns String(v): strings as themselves, numbers per
// FormatNumber, booleans and null as words, arrays as their elements'
// String() joined with "," (null elements empty), objects as
// "[object Object]".
func ToString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return "null"
	case bool:
		if t {
			return "true"
		}
		return "false"
	case float64:
		return FormatNumber(t)
	case []any:
		var b strings.Builder
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if e != nil {
				b.WriteString(ToString(e))
			}
		}
		return b.String()
	case *Object:
		return "[object Object]"
	default:
		return "undefined"
	}
}

// IsJSSpace reports whether r is in the set String.prototype.trim removes:
// ECMAScript WhiteSpace (incl. U+FEFF and Unicode Zs) and LineTerminator.
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// TrimJS returns String.prototype.trim(s).
func TrimJS(s string) string {
	start := 0
	for start < len(s) {
		c := s[start]
		if c < utf8.RuneSelf {
			if c != ' ' && (c < '\t' || c > '\r') {
				break
			}
			start++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[start:])
		if !IsJSSpace(r) {
			break
		}
		start += size
	}
	end := len(s)
	for end > start {
		c := s[end-1]
		if c < utf8.RuneSelf {
			if c != ' ' && (c < '\t' || c > '\r') {
				break
			}
			end--
			continue
		}
		r, size := utf8.DecodeLastRuneInString(s[start:end])
		if !IsJSSpace(r) {
			break
		}
		end -= size
	}
	return s[start:end]
}

// UTF16Len returns the JavaScript .length of s: UTF-16 code units, with a
// WTF-8 surrogate counting 1 and each other invalid byte 1 (U+FFFD).
func UTF16Len(s string) int {
	n, i := 0, 0
	for i < len(s) {
		// ASCII runs, 32 then eight bytes at a time (the shift-or form of
		// word compiles to one 64-bit load).
		for i+32 <= len(s) {
			t := s[i : i+32]
			if (word(t[0:8])|word(t[8:16])|word(t[16:24])|word(t[24:32]))&highs != 0 {
				break
			}
			i += 32
			n += 32
		}
		for i+8 <= len(s) && word(s[i:i+8])&highs == 0 {
			i += 8
			n += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		n++
		switch {
		case c < utf8.RuneSelf:
			i++
		default:
			size := ValidRuneLen(s, i)
			switch {
			case size == 4:
				n++
			case size > 0:
			default:
				size = 1
				if _, ok := surrogateAt(s, i); ok {
					size = 3
				}
			}
			i += size
		}
	}
	return n
}

// word loads eight bytes little-endian.
func word(t string) uint64 {
	_ = t[7]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

func runeSize(s string, i int) int {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size
}

// truncateUTF16 returns the longest prefix of s of at most n UTF-16 units
// that does not split a character.
func truncateUTF16(s string, n int) string {
	units := 0
	for i := 0; i < len(s); {
		size := runeSize(s, i)
		if _, ok := surrogateAt(s, i); ok {
			size = 3
		}
		w := 1
		if size == 4 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
		i += size
	}
	return s
}

// xmlEscaper replaces the five characters XML gives entities.
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

// EscapeXML is the escapeXml helper pi-forge and Pi share: &, <, >, " and
// ' become &amp; &lt; &gt; &quot; &apos;; nothing else changes (control
// characters and non-ASCII text pass through). It is used by forge-v1's
// xml filter, the built-in slots and Pi's skills section.
func EscapeXML(s string) string {
	if !strings.ContainsAny(s, `&<>"'`) {
		return s
	}
	return xmlEscaper.Replace(s)
}
