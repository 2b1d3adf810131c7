package jsregex

import (
	"fmt"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
)

// MatchTimeout bounds one regex match so a catastrophic pattern cannot
// hang the workbench (JavaScript itself has no limit). Zero disables it.
var MatchTimeout = 2 * time.Second

// Regexp is a JavaScript RegExp (flags g, i, m, s, u) compiled onto
// regexp2. The pattern is translated so that ".", "^", "$", "\b", "\B",
// "[^]", "[]", escapes, octal escapes and group numbering behave as in
// JavaScript; capture groups are renamed internally so JavaScript's
// left-to-right numbering of named and unnamed groups is kept.
//
// Known differences from V8: matching works on code points, so without the
// "u" flag a surrogate pair is never split (an empty global match advances
// by a whole astral character); case-insensitive matching follows
// JavaScript canonicalization except inside backreferences, which use
// regexp2's folding; \p{…} supports
// General_Category, Script (long names) and the binary properties Go's
// unicode package knows; error reasons are V8's for the errors detected by
// the translator and regexp2's wording otherwise.
type Regexp struct {
	// Source and Flags as given.
	Source, Flags string
	// Global is the "g" flag.
	Global bool
	re     *regexp2.Regexp
	// groupNames[i] is the JavaScript name of capture group i+1 ("" if unnamed).
	groupNames []string
	hasNamed   bool
}

// Match is one match in rune offsets.
type Match struct {
	index, length int
	// groups[i] is capture group i+1; ok is false when it did not participate.
	groups []jsCapture
}

type jsCapture struct {
	text string
	ok   bool
}

// Compile compiles a JavaScript regular expression. Errors carry a
// V8-style message: "Invalid regular expression: /<source>/<flags>: <reason>".
func Compile(source, flags string) (*Regexp, error) {
	var f jsFlags
	for _, c := range flags {
		var seen *bool
		switch c {
		case 'g':
			seen = &f.global
		case 'i':
			seen = &f.ignoreCase
		case 'm':
			seen = &f.multiline
		case 's':
			seen = &f.dotAll
		case 'u':
			seen = &f.unicode
		default:
			return nil, fmt.Errorf("Invalid flags supplied to RegExp constructor '%s'", flags)
		}
		if *seen {
			return nil, fmt.Errorf("Invalid flags supplied to RegExp constructor '%s'", flags)
		}
		*seen = true
	}
	t := newTranslator(source, f)
	out, err := t.translate()
	if err != nil {
		return nil, fmt.Errorf("Invalid regular expression: /%s/%s: %s", source, flags, err.Error())
	}
	re, err := regexp2.Compile(out, regexp2.ECMAScript)
	if err != nil {
		return nil, fmt.Errorf("Invalid regular expression: /%s/%s: %s", source, flags, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	if MatchTimeout > 0 {
		re.MatchTimeout = MatchTimeout
	}
	return &Regexp{Source: source, Flags: flags, Global: f.global, re: re, groupNames: t.names, hasNamed: t.hasNamed}, nil
}

// execAt finds the first match starting at or after rune offset start,
// within the budget (nil: MatchTimeout only). The timeout is set on
// the compiled regexp for this call, so a Regexp must not be matched from
// two goroutines at once (rules are compiled per compile).
func (r *Regexp) execAt(text []rune, start int, budget Limiter) (*Match, error) {
	if start > len(text) {
		return nil, nil
	}
	timeout, ok := MatchTimeout, true
	if budget != nil {
		timeout, ok = budget.MatchTimeout()
	}
	if !ok {
		return nil, ErrBudgetSpent
	}
	if timeout > 0 {
		r.re.MatchTimeout = timeout
	} else {
		r.re.MatchTimeout = regexp2.DefaultMatchTimeout
	}
	m, err := r.re.FindRunesMatchStartingAt(text, start)
	if err != nil {
		// regexp2 fails only on a timeout; its message quotes the input.
		return nil, &TimeoutError{After: timeout}
	}
	if m == nil {
		return nil, nil
	}
	out := &Match{index: m.Index, length: m.Length, groups: make([]jsCapture, len(r.groupNames))}
	for i := range r.groupNames {
		g := m.GroupByName(groupName(i + 1))
		if g != nil && len(g.Captures) > 0 {
			out.groups[i] = jsCapture{text: jsText(text[g.Index : g.Index+g.Length]), ok: true}
		}
	}
	return out, nil
}

// groupName is the internal regexp2 name of JavaScript capture group n.
func groupName(n int) string { return fmt.Sprintf("jsg%d", n) }

// namedGroup returns the capture of the JavaScript group called name.
func (r *Regexp) namedGroup(m *Match, name string) (jsCapture, bool) {
	for i, n := range r.groupNames {
		if n == name {
			return m.groups[i], true
		}
	}
	return jsCapture{}, false
}

type jsFlags struct {
	global, ignoreCase, multiline, dotAll, unicode bool
}
