package sessions

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// The panel's main views in Simplified Chinese at 80x24 and 160x48: every
// line fills the screen exactly (double-width characters are counted as
// two cells, so a border that broke or a character cut in half shows), the
// chrome is Chinese and the English chrome words are gone.
func TestGoldenViewsZh(t *testing.T) {
	chrome := map[string][]string{
		"picker":             {"会话（"},
		"tree":               {"树 · "},
		"timeline":           {"时间线 · 分支 → "},
		"detail_tool_result": {"详情 · "},
		"context":            {"处的上下文"},
		"stats":              {"统计 · ", "会话 · 所有分支", "工具调用"},
		"compare":            {"比较 ", "分叉点", "A（标记）"},
		"composition":        {"处的构成", "历史"},
	}
	english := regexp.MustCompile(`Sessions \(|Tree · |Timeline|Detail · |Context at|Stats · |Compare |Composition at|tool calls|fork point`)
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, step := range goldenSteps {
			name := fmt.Sprintf("%s_zh_%dx%d", step.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				uitest.InLanguage(t, i18n.SimplifiedChinese)
				hs, _ := newHarness(t, size.w, size.h)
				step.do(hs)
				view := hs.view()
				uitest.AssertScreen(t, view, size.w, size.h, chrome[step.name]...)
				plain := ansi.Strip(view)
				if en := english.FindString(plain); en != "" {
					t.Errorf("English chrome %q in the Chinese view:\n%s", en, plain)
				}
				uitest.Golden(t, name, view)
			})
		}
	}
}

// The fork question, the skipped lines and the cost view in Simplified
// Chinese: the dialog's sentences are whole and wrap inside its box.
func TestGoldenDialogsZh(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(sizeName(size), func(t *testing.T) {
			uitest.InLanguage(t, i18n.SimplifiedChinese)
			hs, _ := newForkHarness(t, size[0], size[1], true, false)
			hs.selectAt("e07")
			hs.Press("C")
			if hs.m.openForkDialog() == nil {
				t.Fatalf("no dialog; status %q", hs.m.status[paneTimeline].Text())
			}
			displayedAt(hs)
			view := hs.view()
			uitest.AssertScreen(t, view, size[0], size[1], "从条目 e07 起在 Pi 中继续？", "这将写入一个包含", "pi 不在 PATH 中")
			uitest.Golden(t, "fork_dialog_zh_"+sizeName(size), view)

			hs, _ = openGuarded(t, size[0], size[1])
			hs.focusOn(paneTimeline)
			if v := ansi.Strip(hs.view()); !strings.Contains(v, "⚠ 跳过了 3 行 · !") {
				t.Fatalf("the timeline's border should mark the skipped lines:\n%s", v)
			}
			hs.Press("!")
			view = hs.view()
			uitest.AssertScreen(t, view, size[0], size[1])
			uitest.Golden(t, "skipped_zh_"+sizeName(size), view)

			hs, _ = newHarness(t, size[0], size[1])
			hs.focusOn(panePicker)
			hs.Press("s")
			view = hs.view()
			uitest.AssertScreen(t, view, size[0], size[1], "每日花费与 token")
			uitest.Golden(t, "spend_zh_"+sizeName(size), view)
		})
	}
}

// A language switch (announced as a theme change) redraws the picker's
// rows in the new language: their date column is drawn from the time.
func TestLanguageSwitchRedrawsThePickerRows(t *testing.T) {
	hs, _ := newHarness(t, 80, 24)
	hs.focusOn(panePicker)
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "msg  Nov 27 10:03") {
		t.Fatalf("the English row:\n%s", v)
	}
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	v := ansi.Strip(hs.view())
	if !strings.Contains(v, "条消息  11-27  10:03") || strings.Contains(v, "Nov 27") {
		t.Fatalf("the rows stay English after the switch:\n%s", v)
	}
}
