package presets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// goldenStep is one state of the panel a golden pins: its name and how to
// reach it from a fresh harness.
type goldenStep struct {
	name string
	do   func(hs *harness)
}

// goldenSteps are the states TestGoldenViews pins in English; the
// zh-CN goldens (golden_zh_test.go) pin the main ones again in Chinese.
var goldenSteps = []goldenStep{
	{"list", func(hs *harness) { hs.m.focus = paneList }},
	{"items_diagnostic", func(hs *harness) { hs.openByID("project:beta") }},
	{"block_editor", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("enter")
		hs.Type(" Cite line numbers.")
	}},
	{"preview", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("P", "P") // P hides, P again shows and focuses the dock
	}},
	{"conflict", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("space")
		if err := os.WriteFile(hs.m.open.Path, []byte("{}\n"), 0o644); err != nil {
			hs.TB().Fatal(err)
		}
		hs.Press("ctrl+s")
	}},
	{"profiles", func(hs *harness) { hs.Press("p") }},
	{"slot_picker", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("A", "down")
	}},
	{"conflict_diff", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("space")
		data, _ := os.ReadFile(hs.m.open.Path)
		os.WriteFile(hs.m.open.Path, []byte(strings.Replace(string(data), "Alpha Helper", "Alpha (elsewhere)", 1)), 0o644)
		hs.Press("ctrl+s", "D")
	}},
	{"item_properties", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("i")
	}},
	{"properties", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.m.items.SetCursor(hs.m.d.Len())
		hs.Press("enter")
	}},
	{"raw_json", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.m.items.SetCursor(hs.m.d.Len() + len(settingsRows) - 1)
		hs.Press("enter")
	}},
	{"add_block_prompt", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("a")
		hs.Type("Tone Guide")
	}},
	{"profile_edit", func(hs *harness) {
		hs.Press("p")
		for i, p := range hs.m.lib.Profiles {
			if p.ID == "reviewer" {
				hs.m.profiles.SetCursor(i)
			}
		}
		hs.Press("i")
	}},
	{"profile_raw_json", func(hs *harness) {
		hs.openProfile("reviewer")
		hs.Press("m")
	}},
	{"confirm_delete_preset", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("space") // an unsaved change: the question says it goes too
		hs.m.focus = paneList
		hs.Press("x")
	}},
	{"confirm_reload_dirty", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("space", "r")
	}},
	{"fork_prompt", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("S")
	}},
	{"profile_confirm_delete", func(hs *harness) {
		hs.Press("p")
		for i, p := range hs.m.lib.Profiles {
			if p.ID == "reviewer" {
				hs.m.profiles.SetCursor(i)
			}
		}
		hs.Press("x")
	}},
	{"profile_use", func(hs *harness) {
		ownSession(hs.TB(), hs, "")
		hs.openProfile("reviewer")
		hs.Press("+")
	}},
	{"preset_use", func(hs *harness) {
		ownSession(hs.TB(), hs, "")
		hs.presetCursor("project:alpha")
		hs.Press("+")
	}},
	{"unparsed_raw_editor", func(hs *harness) {
		p := filepath.Join(hs.com.Workspace.Cwd, ".pi", "forge", "prompt-stacks", "half.json")
		if err := os.WriteFile(p, []byte(`{"schemaVersion":1,"id":"half","name":"Half","items":[`), 0o644); err != nil {
			hs.TB().Fatal(err)
		}
		hs.Press("r")
		hs.openByID("project:half")
	}},
	{"export_prompt", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("space", "w")
	}},
	{"macro_prompt", func(hs *harness) {
		hs.openByID("project:alpha")
		hs.Press("X")
		hs.Type("greeting=Hello")
	}},
	{"profile_capture", func(hs *harness) {
		ownSession(hs.TB(), hs, "e0000004")
		hs.openProfile("reviewer")
		hs.Press("c")
		hs.answerPrompt("from-entry")
	}},
	{"profile_raw_json_error", func(hs *harness) {
		hs.openProfile("reviewer")
		hs.Press("m", "enter", "ctrl+end", "backspace")
	}},
	{"custom_slot_prompt", func(hs *harness) {
		hs.customSlotSelected()
		hs.Press("X")
		hs.Type("all systems nominal")
	}},
	{"custom_slot_preview", func(hs *harness) {
		hs.customSlotSelected()
		hs.Press("X")
		hs.Type("all systems nominal")
		hs.Press("enter")
	}},
}

// customSlotSelected opens a Preset with a custom slot (extWorkspace's)
// and puts the item cursor on it.
func (hs *harness) customSlotSelected() {
	hs.TB().Helper()
	extWorkspace(hs.TB(), hs.com.Workspace.Cwd)
	hs.Press("r")
	hs.openByID("project:ext")
	hs.m.focus = paneItems
	hs.m.items.SetCursor(1)
	hs.m.afterItemMove()
}

func TestGoldenViews(t *testing.T) {
	steps := goldenSteps
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, step := range steps {
			name := fmt.Sprintf("%s_%dx%d", step.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				hs := newHarness(t, size.w, size.h, true)
				step.do(hs)
				view := hs.m.View()
				uitest.AssertScreen(t, view, size.w, size.h)
				uitest.Golden(t, name, view)
			})
		}
	}
}
