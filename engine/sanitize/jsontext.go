package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// JSON output is made safe for a terminal by escaping, never by dropping:
// the same value reaches a JSON reader, and nothing a terminal would act
// on, or that hides or reorders text, reaches the screen raw. JSONText and
// JSONWriter (the writer every --json output of the CLI goes through) are
// one code path. Escaped as \uXXXX (a surrogate pair above U+FFFF):
//
//   - C0 controls but tab and newline (JSON writers already escape those
//     inside strings), DEL (U+007F) and the C1 controls U+0080–U+009F
//     (U+009B is an 8-bit CSI);
//   - every format character, Unicode category Cf as the Go release's
//     unicode tables have it (Unicode 15): the bidi controls U+061C,
//     U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, the zero-width
//     U+200B–U+200D and U+2060–U+2064, the soft hyphen U+00AD, the BOM
//     U+FEFF, the Arabic number signs U+0600–U+0605, the interlinear
//     annotation U+FFF9–U+FFFB, the tag characters U+E0001 and
//     U+E0020–U+E007F, and the rest of the category;
//   - the line and paragraph separators U+2028 and U+2029.
//
// A carriage return becomes a space (between JSON tokens, the only place
// a JSON writer leaves one raw, it is white space); invalid UTF-8 becomes
// one \ufffd per maximal subpart (the value Pi's UTF-8 decoding gives those
// bytes). Text that is not JSON (a malformed session line) is escaped the
// same way and stays terminal-safe. Every other character, emoji and
// their variation selectors included, is written as it is.

// EscapesInJSON reports whether JSON output writes r as a \uXXXX escape
// (see above). Tab and newline are kept; carriage return becomes a space.
func EscapesInJSON(r rune) bool {
	if r >= 0 && r < 0x10000 {
		return bmpEscaped[r>>6]&(1<<(r&63)) != 0
	}
	return unicode.Is(unicode.Cf, r)
}

// forEachEscaped calls f for every character JSON output escapes: the
// controls, U+2028/U+2029 and the ranges of unicode.Cf (a few hundred
// characters, so the tables below cost nothing at start-up).
func forEachEscaped(f func(rune)) {
	for r := rune(0); r < 0x20; r++ {
		if r != '\t' && r != '\n' && r != '\r' {
			f(r)
		}
	}
	for r := rune(0x7f); r <= 0x9f; r++ {
		f(r) // DEL, C1
	}
	f('\u2028')
	f('\u2029')
	for _, rg := range unicode.Cf.R16 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			f(r)
		}
	}
	for _, rg := range unicode.Cf.R32 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			f(r)
		}
	}
}

// bmpEscaped has a bit set for every character below U+10000 that JSON
// output escapes (8 KiB, so the scan never searches the Cf table there).
var bmpEscaped = func() (t [0x10000 / 64]uint64) {
	forEachEscaped(func(r rune) {
		if r < 0x10000 {
			t[r>>6] |= 1 << (r & 63)
		}
	})
	return t
}()

// Byte classes of jsonClean, by a UTF-8 text's byte.
const (
	bytePlain    = iota // ASCII kept as it is
	byteEscape          // ASCII escaped or replaced, or a byte no UTF-8 character starts with
	byteCheck           // starts characters of which some are escaped: decode and look
	byteValidate        // starts only characters that are kept: check the sequence is valid
)

// jsonClass classifies every byte for the scan. The lead bytes of the
// escaped characters come from the same list as EscapesInJSON, so the
// scan and the rule cannot drift apart.
var jsonClass = func() (t [256]uint8) {
	for c := 0x80; c < 0x100; c++ {
		if c < 0xC2 || c > 0xF4 {
			t[c] = byteEscape // continuation, overlong or out-of-range lead: invalid here
		} else {
			t[c] = byteValidate
		}
	}
	var buf [utf8.UTFMax]byte
	forEachEscaped(func(r rune) {
		if r < utf8.RuneSelf {
			t[r] = byteEscape
			return
		}
		utf8.EncodeRune(buf[:], r)
		t[buf[0]] = byteCheck
	})
	t['\r'] = byteEscape // replaced by a space
	return t
}()

// Word constants of the eight-byte ASCII skip.
const (
	wordOnes  = 0x0101010101010101
	wordHighs = 0x8080808080808080
)

// plainWord reports whether the eight bytes of w (little-endian) are all
// printable ASCII (0x20–0x7E), which the scan passes without a look.
func plainWord(w uint64) bool {
	del := w ^ (wordOnes * 0x7f)
	return ((w-wordOnes*0x20)&^w|(del-wordOnes)&^del|w)&wordHighs == 0
}

// loadWord reads eight bytes of s at i little-endian (i+8 <= len(s)).
func loadWord(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// jsonClean returns the length of the longest prefix of s that JSON output
// writes unchanged: printable ASCII skipped eight bytes at a time, tabs
// and newlines, and well-formed UTF-8 of kept characters (decoded only
// when its lead byte also starts an escaped one).
func jsonClean(s string) int {
	i := 0
	for i < len(s) {
		for i+8 <= len(s) && plainWord(loadWord(s, i)) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		switch jsonClass[s[i]] {
		case bytePlain:
			i++
		case byteEscape:
			return i
		case byteValidate:
			n := jsonv.ValidRuneLen(s, i)
			if n == 0 {
				return i
			}
			i += n
		default:
			n := jsonv.ValidRuneLen(s, i)
			if n == 0 || escapedAt(s, i, n) {
				return i
			}
			i += n
		}
	}
	return len(s)
}

// escapedAt reports whether the well-formed n-byte sequence at s[i] is a
// character JSON output escapes.
func escapedAt(s string, i, n int) bool {
	var r rune
	switch n {
	case 2:
		r = rune(s[i]&0x1f)<<6 | rune(s[i+1]&0x3f)
	case 3:
		r = rune(s[i]&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
	default:
		r = rune(s[i]&0x07)<<18 | rune(s[i+1]&0x3f)<<12 | rune(s[i+2]&0x3f)<<6 | rune(s[i+3]&0x3f)
		return EscapesInJSON(r)
	}
	return bmpEscaped[r>>6]&(1<<(r&63)) != 0
}

// JSONText returns s as JSON output writes it: the characters listed above
// as \uXXXX escapes, the same JSON value otherwise byte for byte. Text
// that needs nothing is returned as it is, without a copy.
func JSONText(s string) string {
	i := jsonClean(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	appendJSONText(&b, s[i:])
	return b.String()
}

// appendJSONText writes s, escaped, to b.
func appendJSONText(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		if n := jsonClean(s[i:]); n > 0 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c == '\r' {
				b.WriteByte(' ')
			} else {
				writeUnicodeEscape(b, rune(c))
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString(`\ufffd`)
			i += jsonv.MaximalSubpart([]byte(s[i:min(len(s), i+4)]))
			continue
		}
		writeUnicodeEscape(b, r)
		i += n
	}
}

// writeUnicodeEscape writes r as \uXXXX, or as a surrogate pair of two
// above U+FFFF (JSON's only form for those).
func writeUnicodeEscape(b *strings.Builder, r rune) {
	if r > 0xffff {
		r -= 0x10000
		writeUnit(b, 0xd800+(r>>10))
		writeUnit(b, 0xdc00+(r&0x3ff))
		return
	}
	writeUnit(b, r)
}

func writeUnit(b *strings.Builder, u rune) {
	const hex = "0123456789abcdef"
	b.WriteString(`\u`)
	b.WriteByte(hex[u>>12&0xf])
	b.WriteByte(hex[u>>8&0xf])
	b.WriteByte(hex[u>>4&0xf])
	b.WriteByte(hex[u&0xf])
}
