package presets

import (
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/uitest"
)

// zhGoldenSteps are the panel's main views pinned in Simplified Chinese:
// the library, a draft's items and its block editor, a form, the preview
// dock, the profiles view and its form, and the dialogs (a confirm, a
// prompt with its scope, a session write, the save conflict).
var zhGoldenSteps = []string{
	"list", "items_diagnostic", "block_editor", "properties", "item_properties", "preview",
	"profiles", "profile_edit", "confirm_reload_dirty", "fork_prompt", "preset_use", "profile_use", "conflict",
}

// TestGoldenViewsInChinese renders the main views in zh-CN at 80x24 and
// 160x48: every line fills the width exactly in cells (double-width
// characters measured as two), nothing of the English chrome is left in
// the frames' titles, and the rendering is pinned in *_zh goldens.
func TestGoldenViewsInChinese(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	byName := map[string]goldenStep{}
	for _, s := range goldenSteps {
		byName[s.name] = s
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, name := range zhGoldenSteps {
			step, ok := byName[name]
			if !ok {
				t.Fatalf("no golden step %q", name)
			}
			golden := fmt.Sprintf("%s_%dx%d_zh", name, size.w, size.h)
			t.Run(golden, func(t *testing.T) {
				hs := newHarness(t, size.w, size.h, true)
				step.do(hs)
				view := hs.m.View()
				uitest.AssertScreen(t, view, size.w, size.h)
				uitest.Golden(t, golden, view)
			})
		}
	}
}
