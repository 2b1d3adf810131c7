package keymap

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The key grammar (docs/KEYS.md) is the contract of the default keys:
// this test reads the page and holds DefaultSet to it, so the page and
// the keymap cannot drift apart.

// grammarDoc is the page, from this package's directory.
const grammarDoc = "../docs/KEYS.md"

// verbRow is one verb of the grammar: its keys (the first is required of
// every binding of the verb, all are reserved for it) and its bindings.
type verbRow struct {
	verb     string
	keys     []string
	bindings []string
}

// exceptionRow excuses one binding's use (or lack) of one grammar key.
type exceptionRow struct{ binding, key, why string }

// panelRow documents a binding outside the grammar and its keys.
type panelRow struct {
	binding string
	keys    []string
}

type grammar struct {
	verbs      []verbRow
	exceptions []exceptionRow
	panel      []panelRow
}

var codeSpan = regexp.MustCompile("`((?:[^`\\\\]|\\\\.)+)`")

// cells splits a markdown table row on the pipes that are not escaped.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(strings.TrimSuffix(line, "|"), "|")
	var out []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case line[i] == '|':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// spans are the code spans of a cell, with \| read as |.
func spans(cell string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		out = append(out, strings.ReplaceAll(m[1], `\|`, "|"))
	}
	return out
}

// readGrammar parses the three tables of the page.
func readGrammar(t *testing.T) grammar {
	t.Helper()
	data, err := os.ReadFile(grammarDoc)
	if err != nil {
		t.Fatalf("the key grammar must be written down: %v", err)
	}
	var g grammar
	section := ""
	header := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "## ") {
			section, header = strings.TrimPrefix(line, "## "), 0
			continue
		}
		if !strings.HasPrefix(line, "|") {
			continue
		}
		if header++; header <= 2 { // the header row and the separator
			continue
		}
		c := cells(line)
		switch section {
		case "Verbs":
			if len(c) != 4 {
				t.Fatalf("verb row with %d cells: %s", len(c), line)
			}
			g.verbs = append(g.verbs, verbRow{verb: c[0], keys: spans(c[1]), bindings: spans(c[2])})
		case "Exceptions":
			if len(c) != 3 || len(spans(c[0])) != 1 || len(spans(c[1])) != 1 {
				t.Fatalf("exception row must name one binding and one key: %s", line)
			}
			g.exceptions = append(g.exceptions, exceptionRow{binding: spans(c[0])[0], key: spans(c[1])[0], why: c[2]})
		case "Panel keys":
			if len(c) != 3 || len(spans(c[0])) != 1 {
				t.Fatalf("panel row must name one binding: %s", line)
			}
			g.panel = append(g.panel, panelRow{binding: spans(c[0])[0], keys: spans(c[1])})
		}
	}
	if len(g.verbs) < 20 || len(g.exceptions) == 0 || len(g.panel) == 0 {
		t.Fatalf("the page lost a table: %d verbs, %d exceptions, %d panel keys", len(g.verbs), len(g.exceptions), len(g.panel))
	}
	return g
}

// matches reports whether a binding name fits a pattern of the page:
// a name, "*.x" (x of any one group) or "prefix.*".
func matches(pattern, name string) bool {
	switch {
	case strings.HasPrefix(pattern, "*."):
		group, rest, ok := strings.Cut(name, ".")
		return ok && group != "" && rest == pattern[2:]
	case strings.HasSuffix(pattern, ".*"):
		return strings.HasPrefix(name, pattern[:len(pattern)-1])
	}
	return pattern == name
}

func TestDefaultKeysFollowTheGrammar(t *testing.T) {
	g := readGrammar(t)
	s := DefaultSet()
	named := s.Named()

	verbOfKey := map[string]string{}
	for _, v := range g.verbs {
		if len(v.keys) == 0 || len(v.bindings) == 0 {
			t.Errorf("verb %q needs a key and its bindings", v.verb)
		}
		for _, k := range v.keys {
			if other, dup := verbOfKey[k]; dup {
				t.Errorf("key %q is given to two verbs: %q and %q", k, other, v.verb)
			}
			verbOfKey[k] = v.verb
		}
	}
	excused := map[[2]string]bool{}
	for _, e := range g.exceptions {
		if named[e.binding] == nil {
			t.Errorf("exception names %q, which is no binding", e.binding)
		}
		if verbOfKey[e.key] == "" {
			t.Errorf("exception %s %q: %q is no grammar key, nothing to excuse", e.binding, e.key, e.key)
		}
		if strings.TrimSpace(e.why) == "" {
			t.Errorf("exception %s %q says no why", e.binding, e.key)
		}
		excused[[2]string{e.binding, e.key}] = true
	}

	// Each pattern of the page names at least one binding (no stale row).
	used := func(pattern string) bool {
		for n := range named {
			if matches(pattern, n) {
				return true
			}
		}
		return false
	}
	for _, v := range g.verbs {
		for _, p := range v.bindings {
			if !used(p) {
				t.Errorf("verb %q lists %q, which names no binding", v.verb, p)
			}
		}
	}
	for _, p := range g.panel {
		if !used(p.binding) {
			t.Errorf("panel keys list %q, which names no binding", p.binding)
		}
	}

	for name, b := range named {
		keys := b.Keys()
		var verb *verbRow
		for i := range g.verbs {
			for _, p := range g.verbs[i].bindings {
				if matches(p, name) {
					if verb != nil && verb.verb != g.verbs[i].verb {
						t.Errorf("%s is listed under two verbs: %q and %q", name, verb.verb, g.verbs[i].verb)
					}
					verb = &g.verbs[i]
				}
			}
		}
		var panel *panelRow
		for i := range g.panel {
			if matches(g.panel[i].binding, name) {
				panel = &g.panel[i]
			}
		}
		switch {
		case verb != nil:
			// verb → key: the binding has the verb's key.
			if !contains(keys, verb.keys[0]) && !excused[[2]string{name, verb.keys[0]}] {
				t.Errorf("%s is a %q binding but has not its key %q (keys %v)", name, verb.verb, verb.keys[0], keys)
			}
		case panel != nil:
			// An exact row says the keys as they are.
			if panel.binding == name && strings.Join(panel.keys, " ") != strings.Join(keys, " ") {
				t.Errorf("docs/KEYS.md gives %s the keys %v, the keymap %v", name, panel.keys, keys)
			}
		default:
			t.Errorf("%s (%v, %q) is not in docs/KEYS.md: a verb's binding or a panel key", name, keys, b.Help().Desc)
		}
		// No grammar key for another verb, unless the page says why.
		for _, k := range keys {
			owner := verbOfKey[k]
			if owner == "" || (verb != nil && owner == verb.verb) || excused[[2]string{name, k}] {
				continue
			}
			t.Errorf("%s uses %q, the key of %q, for something else (%q) and docs/KEYS.md lists no exception", name, k, owner, b.Help().Desc)
		}
	}
	for _, c := range s.Conflicts() {
		t.Errorf("default conflict: %s", c)
	}
}

// The parser reads what the page writes: an escaped pipe inside a code
// span is one key, not a new cell.
func TestGrammarTableCells(t *testing.T) {
	c := cells("| `payloads.layout` | `\\|` | unified or split |")
	if len(c) != 3 || spans(c[1])[0] != "|" {
		t.Fatalf("cells = %q", c)
	}
	for p, n := range map[string]string{"*.open": "presets.open", "form.text.*": "form.text.up", "copy": "copy"} {
		if !matches(p, n) {
			t.Errorf("%q should match %q", p, n)
		}
	}
	for p, n := range map[string]string{"*.up": "form.text.up", "*.open": "open", "form.text.*": "form.up"} {
		if matches(p, n) {
			t.Errorf("%q should not match %q", p, n)
		}
	}
}
