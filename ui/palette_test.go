package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// goTo opens the palette, types query and presses enter: the way a user
// goes anywhere.
func goTo(h *uitest.Harness[tea.Model], query string) {
	h.TB().Helper()
	h.Press(":")
	h.Type(query)
	h.Press("enter")
}

// paletteJumps are the jumps the harness saw from the n-th on.
func lastJump(t *testing.T, h *uitest.Harness[tea.Model], before int) common.JumpMsg {
	t.Helper()
	if len(h.Jumps) != before+1 {
		t.Fatalf("%d jumps, want exactly one: %+v", len(h.Jumps)-before, h.Jumps[before:])
	}
	return h.Jumps[before]
}

// `:` goes to a session by part of its name: one jump, the Session panel
// comes forward with the session open, and the selection is there.
func TestPaletteGoesToASession(t *testing.T) {
	m, h := demoHarness(t)
	n := len(h.Jumps)
	goTo(h, "rounding")
	j := lastJump(t, h, n)
	if j.Target.Panel != common.PanelSession || !strings.HasSuffix(j.Target.SessionFile, "_01a21c48-87b8-7bf2-bec6-d1b0faeb6b39.jsonl") {
		t.Fatalf("the jump: %+v", j.Target)
	}
	if m.active != common.PanelSession || m.com.Selection.SessionFile != j.Target.SessionFile || !m.com.Selection.AtLeaf {
		t.Fatalf("active %d, selection %+v", m.active, m.com.Selection)
	}
	if s := screen(m); !strings.Contains(s, "session Invoice rounding fix") || !strings.Contains(s, "Timeline · branch → 862c1f60") {
		t.Fatalf("the Session panel does not show the session:\n%s", s)
	}
	if m.palette.IsOpen() {
		t.Fatal("the palette stays open")
	}
}

// `:` goes to an entry of the selected session by its label or by part
// of its id: the timeline's cursor and the selection move there.
func TestPaletteGoesToAnEntry(t *testing.T) {
	m, h := demoHarness(t)
	goTo(h, "rounding")
	for _, c := range []struct{ query, entry string }{{"regression", "a37d5e1c"}, {"d49fd5", "d49fd546"}, {"bug-rep", "60e17bab"}} {
		n := len(h.Jumps)
		h.Press("1") // from another panel
		goTo(h, c.query)
		j := lastJump(t, h, n)
		if j.Target.Panel != common.PanelSession || j.Target.EntryID != c.entry {
			t.Fatalf("%q: the jump %+v", c.query, j.Target)
		}
		if m.active != common.PanelSession || m.com.Selection.EntryID != c.entry {
			t.Fatalf("%q: active %d, selection %+v", c.query, m.active, m.com.Selection)
		}
		if s := screen(m); !strings.Contains(s, "entry "+c.entry) || !strings.Contains(s, "Detail · "+c.entry) {
			t.Fatalf("%q: the entry is not shown:\n%s", c.query, s)
		}
	}
}

// `:` goes to an agent of the selected session's pi-subagent tree: the
// Agents panel comes forward with the agent's transcript open.
func TestPaletteGoesToAnAgent(t *testing.T) {
	m, h := demoHarness(t)
	n := len(h.Jumps)
	goTo(h, "edge_cases")
	j := lastJump(t, h, n)
	if j.Target.Panel != common.PanelAgents || j.Target.AgentPath != "/root/invoice_review/edge_cases" || j.Target.AgentFile == "" {
		t.Fatalf("the jump: %+v", j.Target)
	}
	if m.active != common.PanelAgents {
		t.Fatalf("active %d", m.active)
	}
	if s := screen(m); !strings.Contains(s, "/root/invoice_review/edge_cases") || !strings.Contains(s, "Transcript") {
		t.Fatalf("the agent's transcript is not open:\n%s", s)
	}
}

// `:` goes to a Preset (the Presets panel opens it and the selection
// names it) and to a capability (the Capabilities panel's cursor).
func TestPaletteGoesToAPresetAndACapability(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("3")
	n := len(h.Jumps)
	goTo(h, "pi-mirror")
	j := lastJump(t, h, n)
	if j.Target.Panel != common.PanelPresets || j.Target.PresetID != "project:pi-mirror" {
		t.Fatalf("the jump: %+v", j.Target)
	}
	if m.active != common.PanelPresets || m.com.Selection.PresetID != "project:pi-mirror" {
		t.Fatalf("active %d, selection %+v", m.active, m.com.Selection)
	}
	if s := screen(m); !strings.Contains(s, "Items · pi-mirror") {
		t.Fatalf("the Preset is not open:\n%s", s)
	}
	n = len(h.Jumps)
	goTo(h, "write-acc")
	j = lastJump(t, h, n)
	if j.Target.Panel != common.PanelCapabilities || j.Target.CapabilityID != "project:write-access" {
		t.Fatalf("the jump: %+v", j.Target)
	}
	if m.active != common.PanelCapabilities {
		t.Fatalf("active %d", m.active)
	}
	if s := screen(m); !strings.Contains(s, "Capability project:write-access") {
		t.Fatalf("the capability is not shown:\n%s", s)
	}
}

// The focused pane's keys are palette actions, from the keymap with
// their help text (moving the cursor left out): choosing one does what
// its key does there.
func TestPaletteRunsTheFocusedPanesKeys(t *testing.T) {
	m, h := demoHarness(t)
	goTo(h, "test-runner") // the Capabilities panel, its library's cursor on it
	h.Press(":")
	var titles []string
	for _, a := range m.actions() {
		titles = append(titles, a.Title+" ["+a.Hint+"]")
	}
	all := strings.Join(titles, "\n")
	keys := &m.keys.Capabilities
	for _, b := range m.panels[common.PanelCapabilities].ShortHelp() {
		want := "Capabilities: " + b.Help().Desc + " [" + b.Help().Key + "]"
		if !strings.Contains(all, want) && !m.isNav(b) {
			t.Errorf("no action %q among:\n%s", want, all)
		}
	}
	if strings.Contains(all, "Capabilities: "+keys.Up.Help().Desc+" ") {
		t.Errorf("moving the cursor is not an action:\n%s", all)
	}
	h.Type(keys.Enable.Help().Desc)
	h.Press("enter")
	if s := screen(m); !strings.Contains(s, "Enable project:test-runner") {
		t.Fatalf("the enable action did not open its preview:\n%s", s)
	}
}

// `:`, a query and enter arriving in one read (typed ahead, pasted into
// tmux) land where the whole query points: no key is lost between the
// root opening the palette and the palette taking the keys.
func TestPaletteTypedAheadInOneBurstLands(t *testing.T) {
	for seed := range uint64(8) {
		m, h := demoHarness(t)
		keys := []string{":"}
		for _, r := range "currency" {
			keys = append(keys, string(r))
		}
		h.Burst(rand.New(rand.NewPCG(seed, 3)), append(keys, "enter")...)
		if m.active != common.PanelSession || !strings.HasSuffix(m.com.Selection.SessionFile, "_01a21dbe-a073-75f0-9dfd-a08c7d2b5524.jsonl") {
			t.Fatalf("seed %d: active %d, selection %+v", seed, m.active, m.com.Selection)
		}
		if m.palette.IsOpen() {
			t.Fatalf("seed %d: the palette stays open", seed)
		}
	}
}
