package presets

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// In the Profiles view the footer and ? help describe what the keys do to
// profiles: n creates a profile and i edits one, not a preset or an item.
func TestProfilesViewHelpNamesProfileActions(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.Press("p")
	all := append([]key.Binding{}, hs.m.ShortHelp()...)
	all = append(all, fullHelp(hs)...)
	descs := map[string]string{}
	for _, b := range all {
		descs[b.Help().Key] = b.Help().Desc
		if strings.Contains(b.Help().Desc, "preset") && b.Help().Key != hs.m.keys.Open.Help().Key {
			t.Errorf("%s reads %q in the Profiles view", b.Help().Key, b.Help().Desc)
		}
		if strings.Contains(b.Help().Desc, "item") {
			t.Errorf("%s reads %q in the Profiles view", b.Help().Key, b.Help().Desc)
		}
	}
	if d := descs[hs.m.keys.New.Help().Key]; d != "new profile" {
		t.Errorf("n reads %q, want new profile", d)
	}
	if d := descs[hs.m.keys.Item.Help().Key]; d != "edit profile" {
		t.Errorf("i reads %q, want edit profile", d)
	}
}
