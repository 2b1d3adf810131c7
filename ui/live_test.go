package ui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// appendEntry appends one user message to a session file, as Pi does.
func appendEntry(t *testing.T, file, id, parent string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-11-27T09:18:00.000Z","message":{"role":"user","content":"Appended while the workbench is open","timestamp":1795771080000}}` + "\n"
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}

// Live by default (issue 21): at the leaf, an entry appended to the open
// session moves the header, the Presets preview's run context, the
// Capabilities state and the Payloads comparison to the new leaf without a
// key — each through the shared selection, once it rests. Off the leaf the
// header says where the selection is held ("paused at entry …", with the
// key that follows again where it works) and the panels stay there.
func TestEveryPanelFollowsAGrowingSessionAtItsLeaf(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("3", "down", "down", "enter") // Invoice rounding fix, at its leaf
	file := m.com.Selection.SessionFile
	if sel := m.com.Selection; sel.EntryID != "862c1f60" || !sel.AtLeaf || sel.Paused {
		t.Fatalf("opened at the leaf: %+v", sel)
	}
	// The Session panel's tail reports the append; in a test, whose
	// panels do not watch files, the written session says the same.
	appendEntry(t, file, "5e55a0e1", "862c1f60")
	h.Send(common.SessionWrittenMsg{File: file})
	if header := ansi.Strip(m.headerView()); !strings.Contains(header, "entry 5e55a0e1 (leaf)") {
		t.Fatalf("the header follows the new leaf: %q", header)
	}
	for _, c := range []struct{ tab, want string }{
		{"1", "at entry 5e55a0e1"},          // the Presets preview's run context
		{"2", "Session @ 5e55a0e1"},         // the Capabilities state
		{"4", "next request from 5e55a0e1"}, // the Payloads comparison
		{"3", "FOLLOW"},                     // the timeline at the leaf
	} {
		h.Press(c.tab)
		if s := screen(m); !strings.Contains(s, c.want) {
			t.Fatalf("panel %s does not follow the new leaf (%q):\n%s", c.tab, c.want, s)
		}
	}
	h.Press("up")
	held := m.com.Selection.EntryID
	if header := ansi.Strip(m.headerView()); !strings.Contains(header, "paused at entry "+held+" · F follow") || strings.Contains(screen(m), "FOLLOW") {
		t.Fatalf("off the leaf the header says where the selection is held: %q", header)
	}
	appendEntry(t, file, "5e55a0e2", "5e55a0e1")
	h.Send(common.SessionWrittenMsg{File: file})
	h.Press("1")
	if s := screen(m); !strings.Contains(s, "at entry "+held) || !strings.Contains(ansi.Strip(m.headerView()), "paused at entry "+held+" │") {
		t.Fatalf("off the leaf the panels stay on %s, the header without the Session panel's key:\n%s", held, s)
	}
	h.Press("3", "L")
	if sel := m.com.Selection; sel.EntryID != "5e55a0e2" || !sel.AtLeaf {
		t.Fatalf("L goes back to the leaf: %+v", sel)
	}
}

// The header off the leaf, as goldens: where the selection is held and,
// in the Session panel, the key that follows again; at 80 columns the id
// stays.
func TestGoldenHeaderPaused(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		m := demoLikeModel(size[0], size[1], true)
		m.active = common.PanelSession
		m.com.Selection.EntryID, m.com.Selection.AtLeaf = "a37d5e1c", false
		header := m.headerView()
		if w := ansi.StringWidth(header); w != size[0] || !strings.Contains(ansi.Strip(header), "a37d5e1c") {
			t.Fatalf("%d columns: %q", size[0], ansi.Strip(header))
		}
		uitest.Golden(t, fmt.Sprintf("header_paused_%dx%d", size[0], size[1]), header)
	}
	// Paused at the leaf (F there) reads the same way.
	m := demoLikeModel(160, 48, true)
	m.com.Selection.Paused = true
	if h := ansi.Strip(m.headerView()); !strings.Contains(h, "paused at entry 862c1f60 │") || strings.Contains(h, "(leaf)") {
		t.Fatalf("paused at the leaf: %q", h)
	}
}

// The Agents panel, on a session without a tree, names the sessions that
// have one — the Session panel's picker tells it — and enter there opens
// one: the selection moves and its tree shows.
func TestAgentsPanelOffersTheSessionsWithATree(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("3", "down", "down", "enter", "5") // Invoice rounding fix: no tree
	s := screen(m)
	if !strings.Contains(s, "This session has no pi-subagent tree.") || !strings.Contains(s, "▸ Pre-release review") {
		t.Fatalf("the Agents panel names the demo's session with a tree:\n%s", s)
	}
	h.Press("enter")
	if s := screen(m); m.active != common.PanelAgents || !strings.Contains(s, "Agents · tree 01a2219b") ||
		!strings.Contains(ansi.Strip(m.headerView()), "session Pre-release review") {
		t.Fatalf("enter opens it, here:\n%s", s)
	}
}
