package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// selectLabelled gives the header a selection with every field shown:
// a session, an entry paused off the leaf, a Preset whose branch records
// another.
func selectLabelled(m *Model) {
	m.com.Selection = common.Selection{SessionFile: "/s/a.jsonl", SessionName: "修复缓存命中率 fix the cache",
		EntryID: "e1f2a3b4", PresetID: "project:guarded-worker", ActivePreset: "global:reviewer"}
}

// chrome is the root's own lines for each panel: header, tabs, footer.
func chrome(m *Model) string {
	var b strings.Builder
	for tab := 0; tab < len(m.panels); tab++ {
		m.active = tab
		fmt.Fprintf(&b, "%s\n%s\n%s\n\n", m.headerView(), m.tabsView(), m.footerView())
	}
	m.active = 0
	return b.String()
}

func TestGoldenChromeZh(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			m := newTestModel(size.w, size.h)
			selectLabelled(m)
			uitest.Golden(t, fmt.Sprintf("chrome_zh_%dx%d", size.w, size.h), chrome(m))
			press(t, m, "3", "?")
			view := m.View().Content
			uitest.AssertFits(t, view, size.w, size.h)
			uitest.Golden(t, fmt.Sprintf("help_zh_%dx%d", size.w, size.h), m.helpView(size.h-chromeHeight))
		})
	}
}

func TestGoldenPaletteZh(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		name := fmt.Sprintf("palette_zh_%dx%d", size.w, size.h)
		t.Run(name, func(t *testing.T) {
			m, h := demoHarness(t)
			h.Resize(size.w, size.h)
			h.Press("3", ":")
			h.Type("re")
			uitest.AssertFits(t, m.View().Content, size.w, size.h)
			uitest.Golden(t, name, m.palette.View(m.com.Styles, size.w))
		})
	}
}

// The header stays one line at every width in Chinese, whatever the
// selection shows, and so do the tab bar and the footer: double-width
// characters never push them over the edge.
func TestChromeFitsOneLineInChinese(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	m := newTestModel(200, 30)
	for _, sel := range []func(*Model){func(*Model) {}, selectLabelled, func(m *Model) {
		selectLabelled(m)
		m.com.Selection.EntryID, m.com.Selection.AtLeaf = "e1f2a3b4", true
		m.com.Workspace.Trust.Trusted = false
	}} {
		sel(m)
		for w := 30; w <= 200; w++ {
			m.width = w
			for tab := range m.panels {
				m.active = tab
				for part, line := range map[string]string{"header": m.headerView(), "tabs": m.tabsView(), "footer": m.footerView()} {
					if strings.Contains(line, "\n") || ansi.StringWidth(line) > w {
						t.Fatalf("width %d tab %d: the %s takes %d cells on %d lines: %q", w, tab, part, ansi.StringWidth(line),
							strings.Count(line, "\n")+1, ansi.Strip(line))
					}
					if strings.ContainsRune(line, '\uFFFD') {
						t.Fatalf("width %d: the %s cut a character: %q", w, part, ansi.Strip(line))
					}
				}
			}
		}
	}
}

// Switching the language through `:` redraws every part of the root in
// the new language at once, and switching back gives the English screen
// byte for byte: no cache serves the other language's text.
func TestLanguageSwitchRedrawsWithoutStaleCaches(t *testing.T) {
	uitest.InLanguage(t, i18n.English)
	m, h := demoHarness(t)
	h.Press("1")
	english := screen(m)
	if !strings.Contains(english, "Presets") {
		t.Fatalf("no English tab bar:\n%s", english)
	}
	goTo(h, "language zh")
	if i18n.Current() != i18n.SimplifiedChinese {
		t.Fatalf("the palette's language action did not switch: %s", i18n.Current())
	}
	chinese := screen(m)
	for _, want := range []string{"1 预设", "2 能力", "3 会话", "? 帮助", "信任 ✓", "目录 /"} {
		if !strings.Contains(chinese, want) {
			t.Errorf("the Chinese screen lacks %q:\n%s", want, chinese)
		}
	}
	lines := strings.Split(chinese, "\n")
	if root := lines[0] + lines[1] + lines[len(lines)-1]; strings.Contains(root, "Presets") || strings.Contains(root, "help") ||
		strings.Contains(root, "trust") || strings.Contains(root, "session") {
		t.Errorf("English left in the root's chrome:\n%s", root)
	}
	h.Press("?")
	if help := screen(m); !strings.Contains(help, "按键 — 预设") || !strings.Contains(help, "退出") {
		t.Errorf("the help is not in Chinese:\n%s", help)
	}
	h.Press("esc")
	goTo(h, "language en") // the English keywords find it from Chinese too
	if i18n.Current() != i18n.English {
		t.Fatalf("back to English: %s", i18n.Current())
	}
	if again := screen(m); again != english {
		t.Fatalf("the English screen after a round trip differs:\n%s\n--- was\n%s", again, english)
	}
}
