package presets

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// On a settings row (Properties … Advanced (raw JSON)) y, v and o said
// "nothing to copy or show here" although the row's section is on screen:
// they act on the draft members the section edits, as JSON (the whole
// draft on the raw JSON row).
func TestSettingsRowsCopyTheirSection(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	tree := hs.m.d.Tree()
	for j, row := range settingsRows {
		hs.m.items.SetCursor(hs.m.d.Len() + j)
		w, ok := hs.m.noted()
		if !ok {
			t.Errorf("%s: nothing to copy or show", row)
			continue
		}
		if !strings.Contains(w.Title, row) {
			t.Errorf("%s: the title %q does not name the section", row, w.Title)
		}
		members := settingsMembers[settingsForms[j]]
		want := jsonv.NewObject()
		if members == nil {
			want = tree
		}
		for _, name := range members {
			if v, ok := tree.Get(name); ok {
				want.Set(name, v)
			}
		}
		if w.Text != jsonv.StringifyIndent(want, "  ")+"\n" {
			t.Errorf("%s: got\n%s", row, w.Text)
		}
	}
	hs.m.items.SetCursor(hs.m.d.Len() + 2) // Tool policy
	hs.Press("y")
	if got := statusText(hs); !strings.Contains(got, "copied the Tool policy of project:alpha") {
		t.Errorf("the status does not say what was copied: %q", got)
	}
}
