package keymap

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestApplyRebindsAndUpdatesHelp(t *testing.T) {
	g := DefaultGlobal()
	if err := Apply(&g, map[string][]string{"quit": {"x", "ctrl+q"}}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'x', Text: "x"}, g.Quit) {
		t.Fatal("x should quit after rebinding")
	}
	if key.Matches(tea.KeyPressMsg{Code: 'q', Text: "q"}, g.Quit) {
		t.Fatal("q should no longer quit")
	}
	if got := g.Quit.Help().Key; got != "x/ctrl+q" {
		t.Fatalf("help key = %q, want generated from the new keys", got)
	}
}

func TestApplyRejectsUnknownNamesAtomically(t *testing.T) {
	g := DefaultGlobal()
	err := Apply(&g, map[string][]string{"quit": {"x"}, "launch-rockets": {"l"}})
	if err == nil || !strings.Contains(err.Error(), "launch-rockets") {
		t.Fatalf("want an error naming the unknown binding, got %v", err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'q', Text: "q"}, g.Quit) {
		t.Fatal("a rejected override file must not change any binding")
	}
	if err := Apply(&g, map[string][]string{"help": nil}); err == nil {
		t.Fatal("an empty key list must be rejected")
	}
}

// In every group each binding has keys and help, and no key is bound
// twice (the Presets dialogs and the forms answer the same keys in other
// modes than their lists, so those two are only checked for help).
func TestEveryNamedBindingHasHelpAndKeys(t *testing.T) {
	s := DefaultSet()
	for group, r := range map[string]Rebinder{"global": &s.Global, "presets": &s.Presets, "session": &s.Session,
		"palette": &s.CommandPalette, "confirm": &s.Confirm, "form": &s.Forms} {
		seen := map[string]string{}
		for name, b := range r.Named() {
			if len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" {
				t.Errorf("%s binding %q lacks keys or help", group, name)
			}
			for _, k := range b.Keys() {
				if other, dup := seen[k]; dup && group != "form" && group != "presets" {
					t.Errorf("%s key %q bound twice: %s and %s", group, k, other, name)
				}
				seen[k] = name
			}
		}
	}
}

func TestPanelKeymapsShareNavigationAndRebindItByName(t *testing.T) {
	s, p := DefaultSession(), DefaultPresets()
	if s.Up.Help() != p.Up.Help() || s.Bottom.Help() != DefaultGlobal().Bottom.Help() {
		t.Fatal("navigation keys must be the same in every panel")
	}
	if err := Apply(&s, map[string][]string{"session.up": {"w"}}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'w', Text: "w"}, s.Up) || key.Matches(tea.KeyPressMsg{Code: 'w', Text: "w"}, p.Up) {
		t.Fatal("rebinding session.up must change only the Session panel")
	}
	for _, named := range []map[string]*key.Binding{s.Named(), p.Named()} {
		if len(named) < 15 {
			t.Fatalf("panel keymaps expose every binding by name, got %d", len(named))
		}
	}
}
