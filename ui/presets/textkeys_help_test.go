package presets

import "testing"

// The ? help of a focused form lists the keys that edit its text fields
// (word motions, kill line …), generated from the keymap.
func TestFullHelpOfAFormListsTheTextKeys(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	openSettingsForm(hs, formProps)
	all := fullHelp(hs)
	for _, b := range hs.m.com.Keys.Forms.Text.Help() {
		if countKey(all, b.Help().Key) == 0 {
			t.Errorf("? help leaves out the text key %q (%s)", b.Help().Key, b.Help().Desc)
		}
	}
}
