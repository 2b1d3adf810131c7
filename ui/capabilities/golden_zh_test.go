package capabilities

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestGoldenViewsInChinese renders every golden view of the panel in
// zh-CN at 80x24 and 160x48: each line fills the width exactly in cells
// (double-width characters measured as two), no character is cut in
// half, and the rendering is pinned in *_zh goldens.
func TestGoldenViewsInChinese(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, step := range goldenSteps {
			golden := fmt.Sprintf("%s_%dx%d_zh", step.name, size.w, size.h)
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

// TestLanguageSwitchRedrawsThePanel switches the language as the `:`
// switcher does (the root broadcasts ThemeChangedMsg after it): the
// library, the capability's rendered detail and the session view with
// its cards come in the new language, with no stale cached line.
func TestLanguageSwitchRedrawsThePanel(t *testing.T) {
	uitest.InLanguage(t, i18n.English)
	hs := newHarness(t, 160, 48, true)
	hs.selectCapability("project:write-access")
	before := ansi.Strip(hs.m.View())
	for _, want := range []string{"Library", "bound by", "Session @ ", "delivery"} {
		if !strings.Contains(before, want) {
			t.Fatalf("the English view lacks %q:\n%s", want, before)
		}
	}
	i18n.SetLanguage(i18n.SimplifiedChinese)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	after := ansi.Strip(hs.m.View())
	for _, want := range []string{"库", "绑定于", "会话 @ ", "投递"} {
		if !strings.Contains(after, want) {
			t.Errorf("after the switch the view lacks %q:\n%s", want, after)
		}
	}
	for _, stale := range []string{"bound by", "delivery", "Session @ "} {
		if strings.Contains(after, stale) {
			t.Errorf("after the switch the view still shows %q:\n%s", stale, after)
		}
	}
}

// TestLanguageSwitchRedrawsTheOpenEditor switches the language under an
// open editor: its field prompts, built when it opened, come in the new
// language without closing it (the draft is kept).
func TestLanguageSwitchRedrawsTheOpenEditor(t *testing.T) {
	uitest.InLanguage(t, i18n.English)
	hs := newHarness(t, 160, 48, true)
	hs.selectCapability("project:review-mode")
	hs.Press("enter")
	if v := ansi.Strip(hs.m.View()); !strings.Contains(v, "name: Review mode") {
		t.Fatalf("the editor is not open in English:\n%s", v)
	}
	i18n.SetLanguage(i18n.SimplifiedChinese)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	v := ansi.Strip(hs.m.View())
	for _, want := range []string{"名称：Review mode", "描述：Findings first", "编辑 project:review-mode", "Pi 内置"} {
		if !strings.Contains(v, want) {
			t.Errorf("after the switch the editor lacks %q:\n%s", want, v)
		}
	}
}
