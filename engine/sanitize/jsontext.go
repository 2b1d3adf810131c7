package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// JSONText makes JSON text safe for a terminal without changing the value
// it encodes: inside strings, every character a terminal would act on — a
// C0 control (JSON already escapes those), DEL, a C1 control, a bidi
// control, U+2028/U+2029 — is written as a \uXXXX escape; a carriage return
// between tokens becomes a space; invalid UTF-8 becomes one \ufffd per
// maximal subpart (the value Pi's UTF-8 decoding gives those bytes). It is for JSON printed to a
// terminal verbatim (`session export --format json`, `session tail
// --json`); other --json output is JSON.stringify's, byte for byte. Text
// that is not JSON (a malformed session line) is escaped the same way and
// stays terminal-safe.
func JSONText(s string) string {
	if !needsJSONEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\r':
				b.WriteByte(' ')
			case c == '\t' || c == '\n':
				b.WriteByte(c)
			case c < 0x20 || c == 0x7f:
				writeUnicodeEscape(&b, rune(c))
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\ufffd`)
			n = jsonv.MaximalSubpart([]byte(s[i:min(len(s), i+4)]))
		case r >= 0x80 && r <= 0x9f, isBidiOrSeparatorRune(r):
			writeUnicodeEscape(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// needsJSONEscape is JSONText's fast scan: plain printable ASCII (with JSON
// whitespace) and UTF-8 without C1, bidi or separators need no copy.
func needsJSONEscape(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f || c == '\r' {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r >= 0x80 && r <= 0x9f || isBidiOrSeparatorRune(r) {
			return true
		}
		i += n
	}
	return false
}

func writeUnicodeEscape(b *strings.Builder, r rune) {
	const hex = "0123456789abcdef"
	b.WriteString(`\u`)
	b.WriteByte(hex[r>>12&0xf])
	b.WriteByte(hex[r>>8&0xf])
	b.WriteByte(hex[r>>4&0xf])
	b.WriteByte(hex[r&0xf])
}
