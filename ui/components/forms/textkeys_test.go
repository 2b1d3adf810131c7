package forms

import (
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/forgebench/forgebench/keymap"
)

// The one-line fields of every form edit with the keymap's text keys, so a
// user's rebinding reaches them (not bubbles' built-in defaults).
func TestOneLineFieldsUseTheKeymapsTextKeys(t *testing.T) {
	km := keymap.DefaultForms()
	if err := keymap.Apply(&km, map[string][]string{"form.text.word-left": {"ctrl+o"}}); err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, propsDraft)
	d := drive(t, NewProperties(ctx, WithKeys(&km))).press("enter").typeText(" quick fox").
		press("ctrl+o").typeText("brown ").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"name"}, `"P quick brown fox"`, "name")
	// the old key no longer jumps a word: alt+b is not text, so nothing happens
	d = drive(t, NewProperties(ctx, WithKeys(&km))).press("enter").typeText(" a").press("alt+b").typeText("b").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"name"}, `"P ab"`, "name")
}

// The word keys delete and move by words in a one-line field.
func TestOneLineFieldWordKeys(t *testing.T) {
	ctx := testContext(t, propsDraft)
	d := drive(t, NewProperties(ctx)).press("enter").typeText(" one two").press("ctrl+w", "enter")
	assertEdit(t, d.onlyEdit(), Path{"name"}, `"P one "`, "name")
	d = drive(t, NewProperties(ctx)).press("enter").typeText(" one two").press("alt+b", "alt+b", "alt+d", "enter")
	assertEdit(t, d.onlyEdit(), Path{"name"}, `"P  two"`, "name")
}

// The raw JSON editor moves and deletes by words with the same keys.
func TestTextEditorWordKeys(t *testing.T) {
	e := newTestEditor(`"alpha": "beta gamma"`)
	e.press("end", "alt+b")
	if e.col != len(`"alpha": "beta `) {
		t.Fatalf("alt+b lands at %d", e.col)
	}
	e.press("ctrl+w")
	if got := e.Value(); got != `"alpha": gamma"` {
		t.Fatalf("ctrl+w: %q", got)
	}
	e.press("home", "alt+f")
	if e.col != len(`"alpha":`) {
		t.Fatalf("alt+f lands at %d", e.col)
	}
	e.press("alt+d")
	if got := e.Value(); got != `"alpha":` {
		t.Fatalf("alt+d: %q", got)
	}
	// at a line start, a word back goes to the end of the line before
	e = newTestEditor("ab\ncd")
	e.press("down", "home", "alt+b")
	if e.row != 0 || e.col != 2 {
		t.Fatalf("alt+b across lines: %d:%d", e.row, e.col)
	}
	e.press("ctrl+w")
	if got := e.Value(); got != "\ncd" {
		t.Fatalf("ctrl+w: %q", got)
	}
}

// The text keys are listed in the help of a form, so a user learns them.
func TestTextKeysHaveHelp(t *testing.T) {
	km := keymap.DefaultForms()
	help := km.Text.Help()
	want := []key.Binding{km.Text.WordLeft, km.Text.WordRight, km.Text.DeleteWordBefore, km.Text.DeleteWordAfter, km.Text.KillToEnd, km.Text.KillToStart}
	for _, w := range want {
		found := false
		for _, b := range help {
			if b.Help() == w.Help() {
				found = true
			}
		}
		if !found {
			t.Errorf("help leaves out %q", w.Help().Desc)
		}
	}
}
