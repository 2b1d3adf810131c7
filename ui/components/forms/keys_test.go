package forms

import (
	"testing"

	"github.com/forgebench/forgebench/keymap"
)

func TestKeysNamedCoverEveryBinding(t *testing.T) {
	km := keymap.DefaultForms()
	named := km.Named()
	if len(named) != 45 {
		t.Fatalf("Named has %d bindings, want all 45 bindings of keymap.Forms (24 and 21 text editor keys)", len(named))
	}
	for name, b := range named {
		if len(b.Keys()) == 0 || b.Help().Desc == "" {
			t.Errorf("%s has no keys or no help", name)
		}
	}
}

func TestReboundKeysDriveForms(t *testing.T) {
	km := keymap.DefaultForms()
	if err := keymap.Apply(&km, map[string][]string{"form.mode": {"M"}}); err != nil {
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

// A form built without WithKeys uses the Forms keys of the shared
// Common, which carry the user's overrides from the config file.
func TestFormsTakeTheUsersKeysFromCommon(t *testing.T) {
	ctx := policyContext(t, policyDraft)
	if err := keymap.Apply(ctx.Com.Keys, map[string][]string{"form.mode": {"M"}}); err != nil {
		t.Fatal(err)
	}
	d := drive(t, NewPolicy(ctx, "tools", WithCursor(Cursor{Row: 2}))).press("m", "M")
	assertEdit(t, d.onlyEdit(), Path{"tools"}, `{"deny":["read","bash*","nothing_here"],"initial":["read","write"]}`, "tools.mode")
}
