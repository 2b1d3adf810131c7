package forms

import (
	"testing"

	"github.com/forgebench/forgebench/keymap"
)

func TestKeysNamedCoverEveryBinding(t *testing.T) {
	km := DefaultKeys()
	named := km.Named()
	if len(named) != 18 {
		t.Fatalf("Named has %d bindings, want all 18 fields of Keys", len(named))
	}
	for name, b := range named {
		if len(b.Keys()) == 0 || b.Help().Desc == "" {
			t.Errorf("%s has no keys or no help", name)
		}
	}
}

func TestReboundKeysDriveForms(t *testing.T) {
	km := DefaultKeys()
	if err := keymap.Apply(&km, map[string][]string{"form-mode": {"M"}}); err != nil {
		t.Fatal(err)
	}
	ctx := policyContext(t, policyDraft)
	d := drive(t, NewPolicy(ctx, "tools", WithKeys(&km), WithCursor(Cursor{Row: 2}))).press("m")
	if len(d.edits) != 0 {
		t.Fatalf("the old key still acts: %+v", d.edits)
	}
	d.press("M")
	assertEdit(t, d.onlyEdit(), Path{"tools"}, `{"deny":["read","bash*","nothing_here"],"initial":["read","write"]}`, "tools.mode")
	found := false
	for _, b := range d.Model.ShortHelp() {
		if b.Help().Key == "M" {
			found = true
		}
	}
	if !found {
		t.Errorf("help does not show the rebound key")
	}
}
