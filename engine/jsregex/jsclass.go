package jsregex

import (
	"errors"
	"strings"
)

// classItem is one parsed class atom: a character, or a class escape
// (\d … written as regexp2 syntax) and/or explicit ranges (\p{…}).
type classItem struct {
	char    rune
	escape  string
	ranges  []codeRange
	isClass bool
}

// class translates a character class starting at "[". Characters, ranges
// and property escapes are collected as code point ranges so that the
// ignore-case closure can be applied with JavaScript's canonicalization.
func (t *translator) class() error {
	start := t.pos
	t.pos++
	negated := false
	if t.peek(0) == '^' {
		negated = true
		t.pos++
	}
	var escapes strings.Builder
	var ranges []codeRange
	for {
		if t.pos >= len(t.src) {
			t.pos = start
			return errors.New("Unterminated character class")
		}
		if t.src[t.pos] == ']' {
			t.pos++
			break
		}
		lo, err := t.classAtom()
		if err != nil {
			return err
		}
		if t.peek(0) == '-' && t.peek(1) != ']' && t.peek(1) != -1 {
			t.pos++
			hi, err := t.classAtom()
			if err != nil {
				return err
			}
			if lo.isClass || hi.isClass {
				if t.f.unicode {
					return errors.New("Invalid character class")
				}
				ranges = addClassItem(ranges, &escapes, lo)
				ranges = append(ranges, codeRange{'-', '-'})
				ranges = addClassItem(ranges, &escapes, hi)
				continue
			}
			if hi.char < lo.char {
				return errors.New("Range out of order in character class")
			}
			ranges = append(ranges, codeRange{lo.char, hi.char})
			continue
		}
		ranges = addClassItem(ranges, &escapes, lo)
	}
	ranges = mergeRanges(ranges)
	if t.f.ignoreCase {
		ranges = caseClosure(ranges, t.f.unicode)
	}
	var body strings.Builder
	body.WriteString(escapes.String())
	writeRanges(&body, ranges)
	switch {
	case body.Len() == 0 && negated:
		t.out.WriteString(jsDotAll)
	case body.Len() == 0:
		t.out.WriteString(jsNeverMatch)
	default:
		t.out.WriteByte('[')
		if negated {
			t.out.WriteByte('^')
		}
		t.out.WriteString(body.String())
		t.out.WriteByte(']')
	}
	return nil
}

func addClassItem(ranges []codeRange, escapes *strings.Builder, item classItem) []codeRange {
	if !item.isClass {
		return append(ranges, codeRange{item.char, item.char})
	}
	escapes.WriteString(item.escape)
	return append(ranges, item.ranges...)
}

// asciiWordRanges is [0-9A-Z_a-z]; nonWordRangesIU is its complement
// without U+017F and U+212A (JavaScript's \W under the u and i flags).
var (
	asciiWordRanges = []codeRange{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	nonWordRangesIU = []codeRange{{0, '0' - 1}, {'9' + 1, 'A' - 1}, {'Z' + 1, '_' - 1}, {'_' + 1, 'a' - 1},
		{'z' + 1, 0x017E}, {0x0180, 0x2129}, {0x212B, 0x10FFFF}}
)

// classAtom reads one class atom.
func (t *translator) classAtom() (classItem, error) {
	c := t.src[t.pos]
	if c != '\\' {
		t.pos++
		return classItem{char: c}, nil
	}
	if t.pos+1 >= len(t.src) {
		return classItem{}, errors.New(`\ at end of pattern`)
	}
	switch e := t.src[t.pos+1]; e {
	case 'w', 'W':
		t.pos += 2
		if t.unicodeIgnoreCase() {
			// As ranges, so that the class's case closure adds U+017F and
			// U+212A to \w (their folds are "s" and "k"); \W lacks both.
			if e == 'w' {
				return classItem{ranges: asciiWordRanges, isClass: true}, nil
			}
			return classItem{ranges: nonWordRangesIU, isClass: true}, nil
		}
		return classItem{escape: `\` + string(e), isClass: true}, nil
	case 'd', 'D', 's', 'S':
		t.pos += 2
		return classItem{escape: `\` + string(e), isClass: true}, nil
	case 'p', 'P':
		if t.f.unicode {
			ranges, err := t.propertyRanges()
			return classItem{ranges: ranges, isClass: true}, err
		}
	case 'b':
		t.pos += 2
		return classItem{char: '\b'}, nil
	case '-':
		t.pos += 2
		return classItem{char: '-'}, nil
	case 'k':
		if !t.f.unicode {
			t.pos += 2
			return classItem{char: 'k'}, nil
		}
	case '8', '9':
		if !t.f.unicode {
			t.pos += 2
			return classItem{char: e}, nil
		}
	case 'c':
		if !t.f.unicode && !isControlLetter(t.peek(2)) && !isDigitOrUnderscore(t.peek(2)) {
			// Annex B: "\c" without a control letter is a literal backslash
			// followed by "c"; the backslash is the atom.
			t.pos++
			return classItem{char: '\\'}, nil
		}
	}
	r, n, err := t.characterEscape(t.pos+1, true)
	if err != nil {
		return classItem{}, err
	}
	t.pos = t.pos + 1 + n
	return classItem{char: r}, nil
}

func isControlLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func isDigitOrUnderscore(r rune) bool { return r >= '0' && r <= '9' || r == '_' }
