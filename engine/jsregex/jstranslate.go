package jsregex

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
)

// Explicit JavaScript assertion and class translations (see Regexp).
const (
	jsWordClass       = `[A-Za-z0-9_]`
	jsWordBoundary    = `(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))`
	jsNotWordBoundary = `(?:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))`
	// With the u and i flags together JavaScript's word characters also
	// hold U+017F and U+212A, whose simple case folds are "s" and "k".
	jsWordIU            = `[A-Za-z0-9_\u017F\u212A]`
	jsNonWordIU         = `[^A-Za-z0-9_\u017F\u212A]`
	jsWordBoundaryIU    = `(?:(?<=[A-Za-z0-9_\u017F\u212A])(?![A-Za-z0-9_\u017F\u212A])|(?<![A-Za-z0-9_\u017F\u212A])(?=[A-Za-z0-9_\u017F\u212A]))`
	jsNotWordBoundaryIU = `(?:(?<=[A-Za-z0-9_\u017F\u212A])(?=[A-Za-z0-9_\u017F\u212A])|(?<![A-Za-z0-9_\u017F\u212A])(?![A-Za-z0-9_\u017F\u212A]))`
	jsLineStartMulti    = `(?<![^\n\r\u2028\u2029])`
	jsLineEndMulti      = `(?![^\n\r\u2028\u2029])`
	jsDotNoNewline      = `[^\n\r\u2028\u2029]`
	jsDotAll            = `[\d\D]`
	jsNeverMatch        = `(?!)`
	regexp2MetaLiteral  = `\.*+?|{}[]()^$#`
)

// translator rewrites JavaScript RegExp syntax into regexp2 syntax.
type translator struct {
	src      []rune
	pos      int
	f        jsFlags
	out      strings.Builder
	names    []string // JavaScript group names by group index-1
	hasNamed bool
	next     int // next capture group number while translating
}

func newTranslator(source string, f jsFlags) *translator {
	t := &translator{src: jsRunes(source), f: f}
	t.prescanGroups()
	return t
}

// prescanGroups counts capture groups and their names (JavaScript resolves
// backreferences against the whole pattern).
func (t *translator) prescanGroups() {
	inClass := false
	for i := 0; i < len(t.src); i++ {
		switch c := t.src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			if i+1 < len(t.src) && t.src[i+1] == '?' {
				if i+2 < len(t.src) && t.src[i+2] == '<' && i+3 < len(t.src) && t.src[i+3] != '=' && t.src[i+3] != '!' {
					end := i + 3
					for end < len(t.src) && t.src[end] != '>' {
						end++
					}
					t.names = append(t.names, string(t.src[i+3:min(end, len(t.src))]))
					t.hasNamed = true
				}
				continue
			}
			t.names = append(t.names, "")
		}
	}
}

func (t *translator) peek(off int) rune {
	if t.pos+off < len(t.src) {
		return t.src[t.pos+off]
	}
	return -1
}

func (t *translator) translate() (string, error) {
	// groups holds, per open group, whether it may be quantified once closed
	// (lookbehinds never; lookaheads only outside unicode mode, Annex B).
	var groups []bool
	canQuantify := false
	for t.pos < len(t.src) {
		c := t.src[t.pos]
		switch c {
		case '|':
			t.out.WriteByte('|')
			t.pos++
			canQuantify = false
		case '(':
			quantifiable, err := t.openGroup()
			if err != nil {
				return "", err
			}
			groups = append(groups, quantifiable)
			canQuantify = false
		case ')':
			if len(groups) == 0 {
				return "", errors.New("Unmatched ')'")
			}
			canQuantify = groups[len(groups)-1]
			groups = groups[:len(groups)-1]
			t.out.WriteByte(')')
			t.pos++
		case '*', '+', '?':
			if !canQuantify {
				return "", errors.New("Nothing to repeat")
			}
			t.out.WriteRune(c)
			t.pos++
			t.lazySuffix()
			canQuantify = false
		case '{':
			if q, n, ok, err := t.braceQuantifier(); err != nil {
				return "", err
			} else if ok {
				if !canQuantify {
					return "", errors.New("Nothing to repeat")
				}
				t.out.WriteString(q)
				t.pos += n
				t.lazySuffix()
				canQuantify = false
				continue
			}
			if t.f.unicode {
				return "", errors.New("Lone quantifier brackets")
			}
			t.out.WriteString(`\{`)
			t.pos++
			canQuantify = true
		case '}', ']':
			if t.f.unicode {
				return "", errors.New("Lone quantifier brackets")
			}
			t.writeLiteral(c)
			t.pos++
			canQuantify = true
		case '^':
			if t.f.multiline {
				t.out.WriteString(jsLineStartMulti)
			} else {
				t.out.WriteByte('^')
			}
			t.pos++
			canQuantify = false
		case '$':
			if t.f.multiline {
				t.out.WriteString(jsLineEndMulti)
			} else {
				t.out.WriteString(`\z`)
			}
			t.pos++
			canQuantify = false
		case '.':
			if t.f.dotAll {
				t.out.WriteString(jsDotAll)
			} else {
				t.out.WriteString(jsDotNoNewline)
			}
			t.pos++
			canQuantify = true
		case '[':
			if err := t.class(); err != nil {
				return "", err
			}
			canQuantify = true
		case '\\':
			quantifiable, err := t.escape()
			if err != nil {
				return "", err
			}
			canQuantify = quantifiable
		default:
			t.writeLiteral(c)
			t.pos++
			canQuantify = true
		}
	}
	if len(groups) > 0 {
		return "", errors.New("Unterminated group")
	}
	return t.out.String(), nil
}

func (t *translator) lazySuffix() {
	if t.peek(0) == '?' {
		t.out.WriteByte('?')
		t.pos++
	}
}

// openGroup translates "(" and its group prefix.
func (t *translator) openGroup() (bool, error) {
	if t.peek(1) != '?' {
		t.next++
		t.out.WriteString("(?<" + groupName(t.next) + ">")
		t.pos++
		return true, nil
	}
	switch t.peek(2) {
	case ':':
		t.out.WriteString("(?:")
		t.pos += 3
		return true, nil
	case '=', '!':
		t.out.WriteString(string(t.src[t.pos : t.pos+3]))
		t.pos += 3
		return !t.f.unicode, nil
	case '<':
		if t.peek(3) == '=' || t.peek(3) == '!' {
			t.out.WriteString(string(t.src[t.pos : t.pos+4]))
			t.pos += 4
			return false, nil
		}
		end := t.pos + 3
		for end < len(t.src) && t.src[end] != '>' {
			end++
		}
		name := string(t.src[t.pos+3 : min(end, len(t.src))])
		if end >= len(t.src) || !isJSIdentifier(name) {
			return false, errors.New("Invalid capture group name")
		}
		for i, n := range t.names {
			if n == name && i != t.next {
				return false, errors.New("Duplicate capture group name")
			}
		}
		t.next++
		t.out.WriteString("(?<" + groupName(t.next) + ">")
		t.pos = end + 1
		return true, nil
	}
	return false, errors.New("Invalid group")
}

func isJSIdentifier(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		ok := r == '$' || r == '_' || unicode.IsLetter(r) || (i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || r == 0x200C || r == 0x200D))
		if !ok {
			return false
		}
	}
	return true
}

// braceQuantifier parses {n}, {n,} or {n,m} at pos; ok is false when the
// brace does not start a quantifier.
func (t *translator) braceQuantifier() (string, int, bool, error) {
	i := t.pos + 1
	readInt := func() (string, bool) {
		start := i
		for i < len(t.src) && t.src[i] >= '0' && t.src[i] <= '9' {
			i++
		}
		return string(t.src[start:i]), i > start
	}
	lo, ok := readInt()
	if !ok {
		return "", 0, false, nil
	}
	hi, hasComma := lo, false
	if i < len(t.src) && t.src[i] == ',' {
		i++
		hasComma = true
		hi, _ = readInt()
	}
	if i >= len(t.src) || t.src[i] != '}' {
		return "", 0, false, nil
	}
	n := i + 1 - t.pos
	loV, _ := strconv.ParseFloat(lo, 64)
	if hi != "" {
		hiV, _ := strconv.ParseFloat(hi, 64)
		if hiV < loV {
			return "", 0, false, errors.New("numbers out of order in {} quantifier")
		}
	}
	lo = clampQuantifier(lo)
	switch {
	case !hasComma:
		return "{" + lo + "}", n, true, nil
	case hi == "":
		return "{" + lo + ",}", n, true, nil
	}
	return "{" + lo + "," + clampQuantifier(hi) + "}", n, true, nil
}

// clampQuantifier keeps repeat counts inside regexp2's int range.
func clampQuantifier(s string) string {
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return "0"
	}
	if len(s) > 9 {
		return "999999999"
	}
	return s
}

func (t *translator) writeLiteral(r rune) {
	if t.f.ignoreCase && t.writeCaseInsensitiveLiteral(r) {
		return
	}
	if isSurrogate(r) {
		writeSurrogateEscape(&t.out, r)
		return
	}
	if strings.ContainsRune(regexp2MetaLiteral, r) {
		t.out.WriteByte('\\')
	}
	t.out.WriteRune(r)
}
