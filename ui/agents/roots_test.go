package agents

import (
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// The empty state said "Pick a root session that delegated work in the
// Session panel" without saying which: it lists the sessions that have a
// pi-subagent tree (the Session panel's picker tells them), and enter on
// one opens it — one jump, after which the selection names it and the
// panel shows its tree. With none listed it says how a tree comes to be.
func TestEmptyStateListsTheSessionsWithATree(t *testing.T) {
	hs := newHarness(t, 160, 48)
	root := hs.com.Selection.SessionFile
	hs.Send(common.SelectionChangedMsg{Selection: common.Selection{SessionFile: hs.plain}})
	contains(t, hs.view(), "This session has no pi-subagent tree.", "No listed session has a pi-subagent tree yet", "without r")
	if help := hs.m.ShortHelp(); len(help) != 1 || help[0].Help().Key != "r" {
		t.Fatalf("nothing to pick: only r, got %d keys", len(help))
	}
	hs.Send(common.AgentTreesMsg{Sessions: []common.SessionRef{
		{File: root, Name: "Pre-release review", When: common.When{At: time.Date(2026, 11, 28, 10, 6, 0, 0, time.UTC)}},
		{File: hs.plain + ".other", Name: "Another root", When: common.When{At: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)}},
	}})
	view := hs.view()
	contains(t, view, "This session has no pi-subagent tree.", "Sessions with a pi-subagent tree", "▸ Pre-release review  · Nov 28 10:06", "Another root")
	// After a language switch the dates and why there is no tree are
	// drawn in the new language (the panel keeps the time and the
	// message's key, not their text).
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	contains(t, hs.view(), "此会话没有 pi-subagent 树。", "▸ Pre-release review  · 11-28  10:06")
	i18n.SetLanguage(i18n.English)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	if strings.Contains(view, "No listed session") {
		t.Fatalf("with sessions to pick the panel lists them:\n%s", view)
	}
	if help := hs.m.ShortHelp(); help[0].Help().Key != "enter" || help[0].Help().Desc != "show its tree" {
		t.Fatalf("enter is the first key: %+v", help[0].Help())
	}
	hs.Press("down", "up", "enter")
	if len(hs.Jumps) != 1 || hs.Jumps[0].Target.SessionFile != root || hs.Jumps[0].Target.Panel != common.PanelAgents {
		t.Fatalf("enter jumps to the session with the tree, staying here: %+v", hs.Jumps)
	}
	// The Session panel opens it and the selection moves.
	hs.Send(common.SelectionChangedMsg{Selection: common.Selection{SessionFile: root}})
	if hs.m.live.tree == nil || !strings.Contains(hs.view(), "Agents · tree 01a2219b") {
		t.Fatalf("the tree of the picked session:\n%s", hs.view())
	}
	hs.Send(common.SelectionChangedMsg{Selection: common.Selection{}})
	contains(t, hs.view(), "No session selected", "Sessions with a pi-subagent tree")
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		hs.Resize(size[0], size[1])
		hs.Send(common.SelectionChangedMsg{Selection: common.Selection{SessionFile: hs.plain}})
		uitest.AssertFills(t, hs.m.View(), size[0], size[1])
		uitest.Golden(t, "no_tree_"+sizeName(size), hs.m.View())
	}
}

func sizeName(s [2]int) string {
	return map[int]string{80: "80x24", 160: "160x48"}[s[0]]
}

// A root session that grows (the Session panel follows its leaf) is a
// root that delegates or hears from its agents: the tree's files are
// checked at once, not at the next timed check, and a change reads the
// tree again without r. The check schedules nothing of its own, so the
// timed checks stay one chain; a selection held off the leaf checks
// nothing.
func TestARootThatGrowsIsCheckedAtOnce(t *testing.T) {
	hs := newHarness(t, 160, 48)
	root := hs.com.Selection.SessionFile
	at := func(entry string, atLeaf, paused bool) common.Selection {
		return common.Selection{SessionFile: root, EntryID: entry, AtLeaf: atLeaf, Paused: paused}
	}
	hs.Send(common.SelectionChangedMsg{Selection: at("33a03556", true, false)})
	gen := hs.m.live.gen
	setRecord(t, hs.m.live.tree.StateFile, "/root/docs_check", map[string]any{"status": "running", "runId": "01a221b3-79e0-7000-8000-000000000001"})
	hs.Send(common.SelectionChangedMsg{Selection: at("5e55a0e1", false, false)})
	hs.Send(common.SelectionChangedMsg{Selection: at("5e55a0e1", true, true)})
	if hs.m.live.gen != gen {
		t.Fatal("a selection off the leaf or paused checks nothing")
	}
	hs.Send(common.SelectionChangedMsg{Selection: at("5e55a0e1", true, false)})
	if hs.m.live.gen != gen+1 || hs.m.agents.rows.Shown(0).status != "running" {
		t.Fatalf("the grown root's tree is read again at once (gen %d → %d, status %q)", gen, hs.m.live.gen, hs.m.agents.rows.Shown(0).status)
	}
	fire[pollTickMsg](hs) // the timer of the load before: stale
	if n, _ := scheduled[pollTickMsg](hs); n != 1 {
		t.Fatalf("one chain of timed checks, got %d pending", n)
	}
	gen = hs.m.live.gen
	hs.Send(common.SelectionChangedMsg{Selection: at("5e55a0e2", true, false)})
	if n, _ := scheduled[pollTickMsg](hs); hs.m.live.gen != gen || n != 1 {
		t.Fatalf("an unchanged tree is not read again and no second chain starts (gen %d → %d, %d pending)", gen, hs.m.live.gen, n)
	}
}
