package payloads

import (
	tea "charm.land/bubbletea/v2"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestGoldenViewsInChinese pins the panel's main views in zh-CN at 80x24
// and 160x48: the pair compared (blocks and the line diff), the picker,
// the branch's requests with their cache use, the project's cache breaks
// and a break's comparison, and the Locate status.
func TestGoldenViewsInChinese(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		for _, tc := range []struct {
			name   string
			breaks bool
			keys   []string
			want   []string
		}{
			{"session_pair", false, nil, []string{"块 · ", "行 · "}},
			{"lines_focused_split", false, []string{"enter", "|", "c"}, []string{"分栏", "全部"}},
			{"picker_b", false, []string{"]"}, []string{"选择 B（较晚的请求）", "跟随"}},
			{"requests", false, []string{"s", "s"}, []string{"分支上的请求", "分支："}},
			{"cache_breaks", true, []string{"s"}, []string{"缓存中断 · 项目"}},
			{"cache_break_diff", true, []string{"s", "enter"}, []string{"缓存中断："}},
		} {
			name := fmt.Sprintf("%s_%dx%d_zh", tc.name, w, h)
			t.Run(name, func(t *testing.T) {
				var hs *harness
				if tc.breaks {
					hs = breaksHarness(t, w, h)
				} else {
					hs = newHarness(t, w, h, true, "c0430f5a")
				}
				hs.Press(tc.keys...)
				view := hs.m.View()
				uitest.AssertScreen(t, view, w, h, tc.want...)
				uitest.Golden(t, name, view)
			})
		}
	}
}

// TestGoldenLocateInChinese pins the Locate status and the nested-runs
// line of the requests view in zh-CN, and the whole request (v) of a
// block with its figures line.
func TestGoldenLocateInChinese(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	data, err := os.ReadFile(filepath.Join("..", "..", "session", "stats", "testdata", "nested.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("locate_%dx%d_zh", w, h), func(t *testing.T) {
			hs := newHarness(t, w, h, true, "c0430f5a")
			refs := [2]string{hs.sessionRef("79b86729"), hs.sessionRef("c0430f5a")}
			hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPayloads, CompareRefs: refs,
				LocateText: "forge-capability-58b3f2cf-01ce-4a9c-936d-758a73104f5b"}})
			view := hs.m.View()
			uitest.AssertScreen(t, view, w, h, "已在块")
			uitest.Golden(t, fmt.Sprintf("locate_%dx%d_zh", w, h), view)
			whole, ok := hs.m.focusedWhole()
			if !ok || !strings.Contains(whole.Title, "块 ") || !strings.Contains(whole.Text, "块 ") {
				t.Errorf("the whole block (v) is not in Chinese: %+v", whole)
			}
		})
		t.Run(fmt.Sprintf("requests_nested_%dx%d_zh", w, h), func(t *testing.T) {
			hs := newHarness(t, w, h, true, "-")
			file := filepath.Join(t.TempDir(), "nested.jsonl")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			hs.com.Selection = common.Selection{SessionFile: file, EntryID: "n10"}
			hs.Send(common.SelectionChangedMsg{Selection: hs.com.Selection})
			hs.Press("s", "s")
			view := hs.m.View()
			uitest.AssertScreen(t, view, w, h, "分支：3 个请求", "嵌套：2 次调用")
			if whole, ok := hs.m.reqs.whole(); !ok || !strings.Contains(whole.Text, "嵌套：工具调用内部的运行") {
				t.Errorf("the whole request (v) lacks the nested note in Chinese: %+v", whole)
			}
			uitest.Golden(t, fmt.Sprintf("requests_nested_%dx%d_zh", w, h), view)
		})
	}
}

// A language switch draws the comparison again in the new language: its
// labels and block names are made with the comparison, so the panel
// compares the pair anew (keeping the cursor's block) rather than showing
// the old language's words under the new chrome.
func TestLanguageSwitchRedrawsTheComparison(t *testing.T) {
	uitest.InLanguage(t, i18n.English)
	hs := newHarness(t, 160, 48, true, "c0430f5a")
	if v := ansi.Strip(hs.m.View()); !strings.Contains(v, "request for c0430f5a") {
		t.Fatalf("the English pair:\n%s", v)
	}
	i18n.SetLanguage(i18n.SimplifiedChinese)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	v := ansi.Strip(hs.m.View())
	if !strings.Contains(v, "c0430f5a 的请求") || strings.Contains(v, "request for") || !strings.Contains(v, "系统提示词") {
		t.Errorf("after the switch the pair still reads in English:\n%s", v)
	}
}

// A switch while the pair is being compared: the comparison arrives in
// the old language, and the panel compares it again in the new one.
func TestLanguageSwitchDuringAComparison(t *testing.T) {
	uitest.InLanguage(t, i18n.English)
	hs := newHarness(t, 160, 48, true, "c0430f5a")
	refs := [2]string{hs.sessionRef("79b86729"), hs.sessionRef("c0430f5a")}
	_, reload := hs.m.Update(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPayloads, CompareRefs: refs}})
	if reload == nil || !hs.m.pending {
		t.Fatal("the jump started no comparison")
	}
	i18n.SetLanguage(i18n.SimplifiedChinese)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles}) // it waits for the one in flight
	i18n.SetLanguage(i18n.English)                         // the work under way runs in English
	msgs := runNow(reload)
	i18n.SetLanguage(i18n.SimplifiedChinese)
	for _, msg := range msgs {
		hs.Send(msg)
	}
	if v := ansi.Strip(hs.m.View()); !strings.Contains(v, "c0430f5a 的请求") || strings.Contains(v, "request for") {
		t.Errorf("the comparison made before the switch stays in English:\n%s", v)
	}
}

// runNow runs cmd and the commands of the batches it returns, now, and
// returns their messages.
func runNow(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	batch, ok := msg.(tea.BatchMsg)
	if !ok {
		return []tea.Msg{msg}
	}
	var out []tea.Msg
	for _, c := range batch {
		out = append(out, runNow(c)...)
	}
	return out
}

// A switch after a break's pair was opened from the cache view: the
// header's cause and the cache view's rows are drawn in the new language
// (the rows keep the figures, not their words).
func TestLanguageSwitchRedrawsTheBreaks(t *testing.T) {
	uitest.InLanguage(t, i18n.English)
	hs := breaksHarness(t, 160, 48)
	hs.Press("s", "enter")
	if v := hs.view(); !strings.Contains(v, "cache break: $0.0138 · 4,460 tokens lost · preset") {
		t.Fatalf("the English header:\n%s", v)
	}
	i18n.SetLanguage(i18n.SimplifiedChinese)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	if v := hs.view(); !strings.Contains(v, "缓存中断：$0.0138 · 损失 4,460 token · preset") || strings.Contains(v, "tokens lost") {
		t.Errorf("after the switch the header keeps its English words:\n%s", v)
	}
}
