package jsregex

import (
	"errors"
	"strconv"
	"strings"
)

// jsSyntaxChars may be identity-escaped in unicode mode.
const jsSyntaxChars = `^$\.*+?()[]{}|/`

// unicodeIgnoreCase reports the u and i flags together, under which
// JavaScript's word characters include U+017F and U+212A.
func (t *translator) unicodeIgnoreCase() bool { return t.f.unicode && t.f.ignoreCase }

// pick returns a when cond holds, else b.
func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

// escape translates a backslash escape outside a class. It reports whether
// the escape is an atom that a quantifier may follow.
func (t *translator) escape() (bool, error) {
	if t.pos+1 >= len(t.src) {
		return false, errors.New(`\ at end of pattern`)
	}
	c := t.src[t.pos+1]
	switch c {
	case 'b':
		t.out.WriteString(pick(t.unicodeIgnoreCase(), jsWordBoundaryIU, jsWordBoundary))
		t.pos += 2
		return false, nil
	case 'B':
		t.out.WriteString(pick(t.unicodeIgnoreCase(), jsNotWordBoundaryIU, jsNotWordBoundary))
		t.pos += 2
		return false, nil
	case 'w', 'W':
		if t.unicodeIgnoreCase() {
			t.out.WriteString(pick(c == 'w', jsWordIU, jsNonWordIU))
			t.pos += 2
			return true, nil
		}
		t.out.WriteString(`\` + string(c))
		t.pos += 2
		return true, nil
	case 'd', 'D', 's', 'S':
		t.out.WriteString(`\` + string(c))
		t.pos += 2
		return true, nil
	case 'p', 'P':
		if t.f.unicode {
			ranges, err := t.propertyRanges()
			if err != nil {
				return false, err
			}
			if t.f.ignoreCase {
				ranges = caseClosure(ranges, true)
			}
			var body strings.Builder
			writeRanges(&body, ranges)
			if body.Len() == 0 {
				t.out.WriteString(jsNeverMatch)
			} else {
				t.out.WriteString("[" + body.String() + "]")
			}
			return true, nil
		}
	case 'k':
		if t.f.unicode || t.hasNamed {
			end := t.pos + 2
			if t.peek(2) != '<' {
				return false, errors.New("Invalid named reference")
			}
			for end < len(t.src) && t.src[end] != '>' {
				end++
			}
			if end >= len(t.src) {
				return false, errors.New("Invalid named reference")
			}
			name := string(t.src[t.pos+3 : end])
			for i, n := range t.names {
				if n == name {
					t.writeBackref(i + 1)
					t.pos = end + 1
					return true, nil
				}
			}
			return false, errors.New("Invalid named capture referenced")
		}
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		end := t.pos + 1
		for end < len(t.src) && t.src[end] >= '0' && t.src[end] <= '9' {
			end++
		}
		n, err := strconv.Atoi(string(t.src[t.pos+1 : end]))
		if err == nil && n <= len(t.names) {
			t.writeBackref(n)
			t.pos = end
			return true, nil
		}
		if t.f.unicode {
			return false, errors.New("Invalid escape")
		}
	}
	r, n, err := t.characterEscape(t.pos+1, false)
	if err != nil {
		return false, err
	}
	t.writeLiteral(r)
	t.pos = t.pos + 1 + n
	return true, nil
}

// characterEscape decodes a character escape whose letter is at i and
// returns the character and the number of runes consumed after the backslash.
func (t *translator) characterEscape(i int, inClass bool) (rune, int, error) {
	c := t.src[i]
	switch c {
	case 'n':
		return '\n', 1, nil
	case 'r':
		return '\r', 1, nil
	case 't':
		return '\t', 1, nil
	case 'v':
		return '\v', 1, nil
	case 'f':
		return '\f', 1, nil
	case '0':
		if i+1 >= len(t.src) || t.src[i+1] < '0' || t.src[i+1] > '9' {
			return 0, 1, nil
		}
		if t.f.unicode {
			return 0, 0, errors.New("Invalid decimal escape")
		}
		return t.legacyOctal(i)
	case '1', '2', '3', '4', '5', '6', '7':
		if t.f.unicode {
			return 0, 0, errors.New("Invalid escape")
		}
		return t.legacyOctal(i)
	case 'c':
		if i+1 < len(t.src) {
			if l := t.src[i+1]; l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z' {
				return l % 32, 2, nil
			}
			if l := t.src[i+1]; inClass && !t.f.unicode && (l >= '0' && l <= '9' || l == '_') {
				return l % 32, 2, nil
			}
		}
		if t.f.unicode {
			return 0, 0, errors.New("Invalid unicode escape")
		}
		// Annex B: "\c" without a control letter is a literal backslash
		// (the "c" follows as an ordinary character).
		return '\\', 0, nil
	case 'x':
		if v, ok := t.hexDigits(i+1, 2); ok {
			return rune(v), 3, nil
		}
		if t.f.unicode {
			return 0, 0, errors.New("Invalid escape")
		}
		return 'x', 1, nil
	case 'u':
		return t.unicodeEscape(i)
	}
	if t.f.unicode {
		if strings.ContainsRune(jsSyntaxChars, c) || (inClass && c == '-') {
			return c, 1, nil
		}
		return 0, 0, errors.New("Invalid escape")
	}
	return c, 1, nil
}

// legacyOctal decodes an Annex B octal escape (up to \377).
func (t *translator) legacyOctal(i int) (rune, int, error) {
	if t.src[i] > '7' {
		return t.src[i], 1, nil
	}
	v, n := 0, 0
	for n < 3 && i+n < len(t.src) && t.src[i+n] >= '0' && t.src[i+n] <= '7' {
		next := v*8 + int(t.src[i+n]-'0')
		if next > 0377 {
			break
		}
		v = next
		n++
	}
	return rune(v), n, nil
}

func (t *translator) hexDigits(i, count int) (int, bool) {
	if i+count > len(t.src) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(t.src[i:i+count]), 16, 32)
	if err != nil || strings.ContainsAny(string(t.src[i:i+count]), "+-") {
		return 0, false
	}
	return int(v), true
}

// unicodeEscape decodes \uXXXX (joining a surrogate pair) or, in unicode
// mode, \u{X…}.
func (t *translator) unicodeEscape(i int) (rune, int, error) {
	if t.f.unicode && i+1 < len(t.src) && t.src[i+1] == '{' {
		end := i + 2
		for end < len(t.src) && t.src[end] != '}' {
			end++
		}
		v, err := strconv.ParseUint(string(t.src[i+2:min(end, len(t.src))]), 16, 32)
		if end >= len(t.src) || end == i+2 || err != nil || v > 0x10FFFF {
			return 0, 0, errors.New("Invalid Unicode escape")
		}
		return rune(v), end - i + 1, nil
	}
	v, ok := t.hexDigits(i+1, 4)
	if !ok {
		if t.f.unicode {
			return 0, 0, errors.New("Invalid Unicode escape")
		}
		return 'u', 1, nil
	}
	if v >= 0xD800 && v <= 0xDBFF && i+6 < len(t.src) && t.src[i+5] == '\\' && t.src[i+6] == 'u' {
		if lo, ok := t.hexDigits(i+7, 4); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			return rune((v-0xD800)<<10 + (lo - 0xDC00) + 0x10000), 11, nil
		}
	}
	return rune(v), 5, nil
}

func writeClassLiteral(b *strings.Builder, r rune) {
	if isSurrogate(r) {
		writeSurrogateEscape(b, r)
		return
	}
	if r == '\\' || r == ']' || r == '[' || r == '^' || r == '-' {
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}

// isSurrogate reports a UTF-16 surrogate code point (a lone code unit).
func isSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDFFF }

// writeSurrogateEscape writes a surrogate as a \uXXXX escape: WriteRune
// would turn it into U+FFFD.
func writeSurrogateEscape(b *strings.Builder, r rune) {
	const hex = "0123456789ABCDEF"
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hex[r>>shift&0xF])
	}
}

// writeBackref emits a backreference to JavaScript group n; with the "i"
// flag the comparison is case-insensitive.
func (t *translator) writeBackref(n int) {
	if t.f.ignoreCase {
		t.out.WriteString(`(?i:\k<` + groupName(n) + `>)`)
		return
	}
	t.out.WriteString(`\k<` + groupName(n) + `>`)
}
