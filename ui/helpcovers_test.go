package ui

import (
	"fmt"
	"testing"
)

// Every key a panel's footer offers is listed by ? too (docs/KEYS.md: help
// is generated from the keymap): the Presets list offered "/ filter" in
// its footer and left it out of its help. Walked in every pane of every
// panel of the demo, with the Presets draft open.
func TestHelpListsEveryFooterKey(t *testing.T) {
	m, h := demoHarness(t)
	h.Resize(160, 48)
	check := func(where string) {
		t.Helper()
		panel := m.panels[m.active]
		listed := map[string]bool{}
		for _, group := range panel.FullHelp() {
			for _, b := range group {
				listed[b.Help().Key] = true
			}
		}
		for _, b := range panel.ShortHelp() {
			if !b.Enabled() || b.Help().Key == "" {
				continue
			}
			if !listed[b.Help().Key] { // the description may follow the state ("F pause")
				t.Errorf("%s, %s: the footer offers %q but ? does not list it", panel.Title(), where, b.Help().Key+" "+b.Help().Desc)
			}
		}
	}
	for tab := 1; tab <= 5; tab++ {
		h.Press(fmt.Sprint(tab))
		for pane := 0; pane < 4; pane++ {
			check(fmt.Sprintf("pane %d", pane))
			h.Press("tab")
		}
	}
	h.Press("1", "enter") // a Preset's draft, its items focused
	for pane := 0; pane < 3; pane++ {
		check(fmt.Sprintf("draft pane %d", pane))
		h.Press("tab")
	}
}
