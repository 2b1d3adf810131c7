package keymap

import (
	"strings"
	"testing"
)

// The defaults must pass the rule they enforce on a settings file.
func TestDefaultKeysHaveNoConflicts(t *testing.T) {
	s := DefaultSet()
	for _, c := range s.Conflicts() {
		t.Errorf("default conflict: %s", c)
	}
}

// Every binding a settings file can rebind is checked somewhere: it sits
// in at least one scope, or is listed as read by no view.
func TestEveryBindingBelongsToAScope(t *testing.T) {
	s := DefaultSet()
	named := s.Named()
	placed := map[string]bool{}
	for _, sc := range Scopes() {
		for _, n := range sc.Bindings {
			if named[n] == nil {
				t.Errorf("%s: unknown binding %q", sc.Name, n)
			}
			placed[n] = true
		}
		for _, g := range sc.Same {
			for _, n := range g {
				if !contains(sc.Bindings, n) {
					t.Errorf("%s: Same names %q, which is not in the scope", sc.Name, n)
				}
			}
		}
		for _, y := range sc.Yield {
			if !contains(sc.Bindings, y.First) || !contains(sc.Bindings, y.Then) {
				t.Errorf("%s: Yield %v names a binding not in the scope", sc.Name, y)
			}
			// A yield documents an overlap the defaults make; a stale one
			// would hide a user's conflict for nothing.
			if !contains(named[y.First].Keys(), y.Key) || !contains(named[y.Then].Keys(), y.Key) {
				t.Errorf("%s: Yield %v: the defaults do not share %q", sc.Name, y, y.Key)
			}
		}
	}
	for _, n := range Inert {
		if named[n] == nil {
			t.Errorf("inert %q is no binding", n)
		}
		if placed[n] {
			t.Errorf("inert %q is in a scope", n)
		}
		placed[n] = true
	}
	for n := range named {
		if !placed[n] {
			t.Errorf("binding %q is in no scope and not inert: a conflict on it would go unnoticed", n)
		}
	}
}

func TestConflictsNameBothBindings(t *testing.T) {
	cases := []struct {
		overrides map[string][]string
		want      []string
	}{
		{map[string][]string{"quit": {"1"}}, []string{`"quit" and "panel-presets" both use "1" in every panel`}},
		{map[string][]string{"panel-capabilities": {"1"}}, []string{`"panel-presets" and "panel-capabilities" both use "1"`}},
		{map[string][]string{"session.stats": {"tab"}}, []string{`"next-pane" and "session.stats" both use "tab" in the Session panel`}},
		{map[string][]string{"agents.earlier": {"end"}}, []string{`"agents.follow" and "agents.earlier" both use "end" in the Agents transcript`}},
		{map[string][]string{"palette.run": {"x"}}, []string{`"palette.run" uses "x", which types text in the command palette`}},
		{map[string][]string{"form.text.left": {"ctrl+c", "left"}}, []string{`"form.text.left" uses "ctrl+c", which always quits`}},
		// a yield covers one key: ctrl+a given to another find key is a conflict
		{map[string][]string{"find.case": {"ctrl+a"}}, []string{`"find.case" and "find.agents" both use "ctrl+a"`,
			`"find.case" and "form.text.line-start" both use "ctrl+a"`}},
		// a hostile key name is quoted and escaped
		{map[string][]string{"quit": {"\x1b[1"}, "help": {"\x1b[1"}}, []string{`"quit" and "help" both use "\x1b[1"`}},
	}
	for _, c := range cases {
		s := DefaultSet()
		if err := Apply(&s, c.overrides); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range s.Conflicts() {
			got = append(got, x.String())
		}
		all := strings.Join(got, "\n")
		for _, w := range c.want {
			if !strings.Contains(all, w) {
				t.Errorf("%v: conflicts\n%s\nwant one saying %s", c.overrides, all, w)
			}
		}
	}
}

// The same binding reused in another scope is no conflict: session.stats
// on x while x deletes in Presets, quit moved off q so agents can use it.
func TestKeysOfSeparateScopesDoNotConflict(t *testing.T) {
	for _, o := range []map[string][]string{
		{"session.stats": {"x"}},
		{"quit": {"Q"}, "agents.reload": {"q"}},
		{"form.text.line-start": {"home", "ctrl+a"}},
		{"payloads.swap": {"d"}},
	} {
		s := DefaultSet()
		if err := Apply(&s, o); err != nil {
			t.Fatal(err)
		}
		if c := s.Conflicts(); len(c) > 0 {
			t.Errorf("%v: %v", o, c)
		}
	}
}

func TestTypesTextKey(t *testing.T) {
	for k, want := range map[string]bool{"a": true, "?": true, "1": true, "space": true, "é": true,
		"ctrl+a": false, "enter": false, "esc": false, "tab": false, "f1": false, "": false, "\x1b": false} {
		if got := TypesTextKey(k); got != want {
			t.Errorf("%q: %v, want %v", k, got, want)
		}
	}
}
