package agents

import (
	"fmt"
	"testing"
	"time"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestGoldenViewsInChinese pins the panel's main views in zh-CN at 80x24
// and 160x48 — the tree with its dashboard, the detail, the timeline, a
// transcript, the closed filter and the empty state that lists the
// sessions with a tree — and holds each to the layout rules: every line
// fills the width in cells (double-width characters measured as two),
// nothing is cut in half, no temporary path shows, the chrome is in
// Chinese.
func TestGoldenViewsInChinese(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	steps := []struct {
		name string
		do   func(hs *harness)
		want []string
	}{
		{"dashboard", func(hs *harness) {}, []string{"代理 · 树 ", "路径", "状态"}},
		{"detail", func(hs *harness) {
			hs.Press("down")
			if hs.m.wide() {
				hs.m.FocusNext()
			}
			hs.Press("enter")
		}, []string{"详情 · ", "所选", "用量"}},
		{"timeline", func(hs *harness) { hs.Press("T") }, []string{"代理 · 时间线 · 树 ", "关键路径"}},
		{"transcript", func(hs *harness) { hs.Press("down", "down", "t") }, []string{"对话记录 · "}},
		{"closed", func(hs *harness) { hs.Press("f") }, []string{"已结束"}},
		{"no_tree", func(hs *harness) {
			root := hs.com.Selection.SessionFile
			hs.Send(common.SelectionChangedMsg{Selection: common.Selection{SessionFile: hs.plain}})
			hs.Send(common.AgentTreesMsg{Sessions: []common.SessionRef{{File: root, Name: "Pre-release review", When: common.When{At: time.Date(2026, 11, 28, 10, 6, 0, 0, time.UTC)}}}})
		}, []string{"此会话没有 pi-subagent 树。", "带有 pi-subagent 树的会话"}},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, step := range steps {
			name := fmt.Sprintf("%s_%dx%d_zh", step.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				hs := newHarness(t, size.w, size.h)
				step.do(hs)
				view := hs.m.View()
				uitest.AssertScreen(t, view, size.w, size.h, step.want...)
				uitest.Golden(t, name, view)
			})
		}
	}
}
