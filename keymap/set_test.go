package keymap

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestSetNamesEveryBindingOnceWithItsGroup(t *testing.T) {
	s := DefaultSet()
	named := s.Named()
	groups := map[string]int{}
	for name, b := range named {
		if len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("%s lacks keys or help", name)
		}
		if g, _, ok := strings.Cut(name, "."); ok {
			groups[g]++
		}
	}
	for _, g := range []string{"presets", "capabilities", "session", "payloads", "form", "palette", "confirm", "agents", "search", "find"} {
		if groups[g] == 0 {
			t.Errorf("no %s.* names", g)
		}
	}
	g, p, c, se, pl, f, a, sr, fd := s.Global, s.Presets, s.Capabilities, s.Session, s.Payloads, s.Forms, s.Agents, s.Search, s.FindView
	want := len(g.Named()) + len(p.Named()) + len(c.Named()) + len(se.Named()) + len(pl.Named()) + len(f.Named()) + len(a.Named()) + len(sr.Named()) + len(fd.Named()) + 4 + 2
	if len(named) != want {
		t.Fatalf("Set names %d bindings, want %d (a name collides)", len(named), want)
	}
}

func TestSetRebindsAcrossGroupsAtomically(t *testing.T) {
	s := DefaultSet()
	err := Apply(&s, map[string][]string{"presets.save": {"ctrl+w"}, "form.commit": {"ctrl+j"}, "quit": {"Q"}})
	if err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}, s.Presets.Save) ||
		!key.Matches(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}, s.Forms.Commit) ||
		!key.Matches(tea.KeyPressMsg{Code: 'Q', Text: "Q"}, s.Quit) {
		t.Fatal("each named binding of its group is rebound")
	}
	err = Apply(&s, map[string][]string{"presets.sve": {"x"}, "session.follow": {"f"}})
	if err == nil || !strings.Contains(err.Error(), "presets.sve") {
		t.Fatalf("an unknown name must be an error that names it, got %v", err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'F', Text: "F"}, s.Session.Follow) {
		t.Fatal("a rejected override set changes nothing")
	}
}
