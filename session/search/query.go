package search

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Query is what to look for.
type Query struct {
	// Text is the literal text, or with Regex an RE2 regular expression
	// (Go's regexp syntax: linear time whatever the input).
	Text string
	// Regex makes Text a regular expression. It runs against each text
	// separately (a message text, one tool argument …): ^ and $ are its
	// ends unless (?m) is given.
	Regex bool
	// CaseSensitive turns off Unicode simple case folding.
	CaseSensitive bool
	// Roles keeps only hits of these roles (FilterRoles; empty = all).
	Roles []string
	// Since keeps only entries whose timestamp is at or after it (zero =
	// no limit; entries without a valid timestamp are then left out).
	Since time.Time
}

// ErrEmptyQuery is returned for a query with no text.
var ErrEmptyQuery = errors.New("the query is empty")

// Matcher is a compiled Query, safe for concurrent use.
type Matcher struct {
	q       Query
	pf      *prefilter
	re      *regexp.Regexp
	lit     []byte // the literal (case-sensitive)
	folded  []rune // the literal's runes folded (case-insensitive)
	roles   map[string]bool
	sinceMs float64 // NaN when unset
}

// Compile checks and prepares a query.
func Compile(q Query) (*Matcher, error) {
	if q.Text == "" {
		return nil, ErrEmptyQuery
	}
	m := &Matcher{q: q, sinceMs: math.NaN()}
	q.Roles = slices.Clone(q.Roles)
	for _, r := range q.Roles {
		if !slices.Contains(FilterRoles, r) {
			return nil, fmt.Errorf("unknown role %q (want one of %s)", r, strings.Join(FilterRoles, ", "))
		}
		if m.roles == nil {
			m.roles = map[string]bool{}
		}
		m.roles[r] = true
	}
	if !q.Since.IsZero() {
		m.sinceMs = float64(q.Since.UnixMilli())
	}
	if !q.Regex {
		if q.CaseSensitive {
			m.lit = []byte(string(queryRunes(q.Text)))
		} else {
			for _, r := range queryRunes(q.Text) {
				m.folded = append(m.folded, foldRune(r))
			}
		}
		m.pf = newPrefilter(q.Text, !q.CaseSensitive)
		return m, nil
	}
	expr := q.Text
	if !q.CaseSensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		if _, plainErr := regexp.Compile(q.Text); plainErr != nil {
			err = plainErr // name the user's pattern, without the (?i) added here
		}
		return nil, fmt.Errorf("regular expression: %w", err)
	}
	if re.MatchString("") {
		return nil, fmt.Errorf("regular expression %q matches empty text, so it would match every entry", q.Text)
	}
	m.re = re
	lit, fold := requiredLiteral(expr)
	m.pf = newPrefilter(lit, fold)
	return m, nil
}

// Query returns the query the matcher was compiled from.
func (m *Matcher) Query() Query { return m.q }

// requiredLiteral returns the longest literal every match of the regular
// expression must contain (its top-level concatenation's longest literal
// run), and whether it is matched ignoring case; "" when there is none,
// which makes every line a candidate.
func requiredLiteral(expr string) (string, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", false
	}
	re = re.Simplify()
	best, bestFold := "", false
	consider := func(sub *syntax.Regexp) {
		if sub.Op == syntax.OpLiteral && len(sub.Rune) > utf8.RuneCountInString(best) {
			best, bestFold = string(sub.Rune), sub.Flags&syntax.FoldCase != 0
		}
	}
	for {
		switch re.Op {
		case syntax.OpCapture, syntax.OpPlus:
			re = re.Sub[0]
			continue
		case syntax.OpRepeat:
			if re.Min >= 1 {
				re = re.Sub[0]
				continue
			}
		case syntax.OpLiteral:
			consider(re)
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				for sub.Op == syntax.OpCapture {
					sub = sub.Sub[0]
				}
				consider(sub)
			}
		}
		return best, bestFold
	}
}

// wantRole reports whether hits of this role are kept.
func (m *Matcher) wantRole(role string) bool { return m.roles == nil || m.roles[role] }

// span is one match inside a decoded text: [start, end) in bytes.
type span struct{ start, end int }

// find returns the first match at or after from in text, or ok == false.
func (m *Matcher) find(text []byte, from int) (span, bool) {
	switch {
	case m.re != nil:
		loc := m.re.FindIndex(text[from:])
		if loc == nil {
			return span{}, false
		}
		return span{from + loc[0], from + loc[1]}, true
	case m.lit != nil:
		i := indexFrom(text, from, m.lit)
		if i < 0 {
			return span{}, false
		}
		return span{i, i + len(m.lit)}, true
	default:
		return foldIndex(text, from, m.folded)
	}
}

func indexFrom(text []byte, from int, lit []byte) int {
	if from > len(text) {
		return -1
	}
	i := strings.Index(string(text[from:]), string(lit))
	if i < 0 {
		return -1
	}
	return from + i
}

// foldIndex finds the first occurrence at or after from of the folded
// runes q in text (valid UTF-8), ignoring case.
func foldIndex(text []byte, from int, q []rune) (span, bool) {
	first := q[0]
	var lower, upper byte
	asciiFirst := first < utf8.RuneSelf && first != 'K' && first != 'S'
	if asciiFirst {
		lower, upper = byte(first), byte(first)
		if 'A' <= first && first <= 'Z' {
			lower = byte(first) + 'a' - 'A'
		}
	}
	for i := from; i < len(text); {
		if asciiFirst {
			j := nextOf(text, i, lower, upper)
			if j < 0 {
				return span{}, false
			}
			i = j
		}
		if end, ok := foldMatchAt(text, i, q); ok {
			return span{i, end}, true
		}
		_, n := utf8.DecodeRune(text[i:])
		i += n
	}
	return span{}, false
}

// nextOf returns the first index at or after i of byte a or b.
func nextOf(text []byte, i int, a, b byte) int {
	ja := indexByteFrom(text, i, a)
	if a == b {
		return ja
	}
	end := len(text)
	if ja >= 0 {
		end = ja
	}
	if jb := indexByteFrom(text[:end], i, b); jb >= 0 {
		return jb
	}
	return ja
}

func foldMatchAt(text []byte, i int, q []rune) (int, bool) {
	for _, want := range q {
		if i >= len(text) {
			return 0, false
		}
		c := text[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			if rune(c) != want {
				return 0, false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		if foldRune(r) != want {
			return 0, false
		}
		i += n
	}
	return i, true
}
