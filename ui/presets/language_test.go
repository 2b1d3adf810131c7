package presets

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestLanguageSwitchRedrawsTheOpenForms switches the language under an
// open Preset form and an open profile form, as the `:` switcher does (the
// root broadcasts ThemeChangedMsg after it): their headings and field notes,
// built when the form was, come in the new language without closing them.
func TestLanguageSwitchRedrawsTheOpenForms(t *testing.T) {
	uitest.InLanguage(t, i18n.English)
	hs := newHarness(t, 160, 48, true)
	hs.openByID("project:alpha")
	hs.m.items.SetCursor(hs.m.d.Len()) // Properties
	hs.Press("enter")
	if v := ansi.Strip(hs.m.View()); !strings.Contains(v, "shown in lists; the id when unset") {
		t.Fatalf("the properties form is not open in English:\n%s", v)
	}
	i18n.SetLanguage(i18n.SimplifiedChinese)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	v := ansi.Strip(hs.m.View())
	for _, want := range []string{"预设属性 — alpha", "在列表中显示；未设置时显示 id"} {
		if !strings.Contains(v, want) {
			t.Errorf("after the switch the form lacks %q:\n%s", want, v)
		}
	}

	i18n.SetLanguage(i18n.English)
	hs = newHarness(t, 160, 48, true)
	hs.openProfile("reviewer")
	hs.Press("i")
	if v := ansi.Strip(hs.m.View()); !strings.Contains(v, "the label lists show") {
		t.Fatalf("the profile form is not open in English:\n%s", v)
	}
	i18n.SetLanguage(i18n.SimplifiedChinese)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	if v := ansi.Strip(hs.m.View()); !strings.Contains(v, "列表中显示的标签") {
		t.Errorf("after the switch the profile form lacks its Chinese note:\n%s", v)
	}
}
