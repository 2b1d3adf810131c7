package payloads

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/requestdiff"
	"github.com/forgebench/forgebench/ui/uitest"
)

func TestDefaultPairFollowsTheSelection(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "c0430f5a")
	m := hs.m
	if m.refs != [2]string{hs.sessionRef("fa181dba"), hs.sessionRef("c0430f5a")} || !m.auto {
		t.Fatalf("default pair %q", m.refs)
	}
	if m.cmp == nil || m.cmp.cause == nil || m.cmp.cause.CapabilityID != "project:write-access" {
		t.Fatalf("cause %+v", m.cmp)
	}
	if b, _, _ := m.view.Selected(); b.Key != "request-tools" {
		t.Errorf("the cursor opens on the first change, got %q", b.Key)
	}
	sel := hs.com.Selection
	sel.EntryID = "cbfd55bd"
	hs.Send(common.SelectionChangedMsg{Selection: sel})
	if m.refs[1] != hs.sessionRef("cbfd55bd") || m.refs[0] != hs.sessionRef("c4c65529") {
		t.Fatalf("after the selection moved: %q", m.refs)
	}
	if !strings.Contains(hs.view(), `cause: capability "Write access" deactivated`) {
		t.Errorf("view:\n%s", hs.view())
	}
	// A user message entry: its next request against the last request.
	sel.EntryID = "7fd117d2"
	hs.Send(common.SelectionChangedMsg{Selection: sel})
	if m.refs != [2]string{hs.sessionRef("79b86729"), hs.sessionRef("7fd117d2")} {
		t.Fatalf("at a user entry: %q", m.refs)
	}
	if !strings.Contains(hs.view(), "B next request from 7fd117d2") {
		t.Errorf("view:\n%s", hs.view())
	}
}

func TestSavedPayloadsWithoutASession(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "-")
	v := hs.view()
	for _, want := range []string{"A saved payload 01-before-write-access.json", "B saved payload 02-after-write-access.json",
		"cache break at user message: same text, other request fields differ"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}

func TestPickSwapAndType(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "c0430f5a")
	m := hs.m
	hs.Press("a")
	if m.picker == nil || m.picker.list.Total() == 0 {
		t.Fatal("picker did not open with rows")
	}
	if !m.picker.list.Select(func(it pickItem) bool { return strings.HasSuffix(it.ref, "01-before-write-access.json") }) {
		t.Fatal("no saved payload row")
	}
	hs.Press("enter")
	if m.picker != nil || m.auto || !strings.HasSuffix(m.refs[0], "01-before-write-access.json") || m.cmp.sides[0].File == nil {
		t.Fatalf("after picking A: %q auto %v", m.refs, m.auto)
	}
	hs.Press("x")
	if !strings.HasSuffix(m.refs[1], "01-before-write-access.json") || m.refs[0] != hs.sessionRef("c0430f5a") {
		t.Fatalf("swap: %q", m.refs)
	}
	// Typing a reference; a malformed one keeps the picker open.
	hs.Press("b", "G", "enter")
	if m.picker == nil || !m.picker.typing || !m.CapturesInput() {
		t.Fatal("the type row opens the input")
	}
	m.picker.input.SetValue("")
	hs.Type("preset:nothing")
	hs.Press("enter")
	if m.picker == nil || !strings.Contains(m.picker.err, "SELECTOR@FILE") {
		t.Fatalf("bad reference: %+v", m.picker)
	}
	m.picker.input.SetValue("")
	hs.Type("preset:project:guarded-worker@" + hs.main + "#c0430f5a")
	hs.Press("enter")
	if m.picker != nil || m.cmp == nil || m.cmp.sides[1].Preset == nil {
		t.Fatalf("typed preset reference: %q", m.refs)
	}
	// Back to following the selection.
	hs.Press("b")
	m.picker.list.Select(func(it pickItem) bool { return it.kind == pickFollow })
	hs.Press("enter")
	if !m.auto || m.refs[1] != hs.sessionRef("c0430f5a") {
		t.Fatalf("follow again: %q", m.refs)
	}
}

func TestRequestsViewPicksAPair(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "")
	hs.Press("s")
	m := hs.m
	if m.mode != modeRequests || m.reqs.Total() != 12 {
		t.Fatalf("mode %v rows %d", m.mode, m.reqs.Total())
	}
	if !m.reqs.Select(func(r requestRow) bool { return r.dropped }) {
		t.Fatal("no drop marked")
	}
	if v := hs.view(); !strings.Contains(v, "▼ d49fd546") || !strings.Contains(v, "predicted: break, ~3 tok cached · model") {
		t.Errorf("view:\n%s", v)
	}
	hs.Press("enter")
	if m.mode != modeDiff || m.refs != [2]string{hs.sessionRef("cbfd55bd"), hs.sessionRef("d49fd546")} {
		t.Fatalf("pair %q", m.refs)
	}
	if m.cmp.cause == nil || m.cmp.cause.Kind != turndiff.CauseModel || m.cmp.usage == nil || !m.cmp.usage.Dropped {
		t.Fatalf("cause %+v usage %+v", m.cmp.cause, m.cmp.usage)
	}
}

// jumps runs a jump and returns the selection and panel it asked for.
func jumps(t *testing.T, hs *harness) (common.Selection, int) {
	t.Helper()
	panel := -1
	hs.Intercept = func(msg tea.Msg) bool {
		if p, ok := msg.(common.ShowPanelMsg); ok {
			panel = p.Index
			return true
		}
		return false
	}
	n := len(hs.Selections)
	hs.Press("o")
	hs.Intercept = nil
	if len(hs.Selections) != n+1 {
		t.Fatalf("no selection announced (status %q)", hs.m.status)
	}
	return hs.Selections[n], panel
}

func TestJumpToTheCause(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "c0430f5a")
	sel, panel := jumps(t, hs)
	if panel != common.PanelCapabilities || sel.CapabilityID != "project:write-access" || hs.m.auto {
		t.Fatalf("capability jump: panel %d %+v", panel, sel)
	}
	// A message block of a session request: its entry in panel 3.
	hs.Run(hs.m.view.Select(4))
	sel, panel = jumps(t, hs)
	if panel != common.PanelSession || sel.EntryID == "" || sel.SessionFile != hs.main {
		t.Fatalf("entry jump: panel %d %+v", panel, sel)
	}
	// A preset compiled at the entry: the item behind the system prompt.
	hs.m.picker = nil
	hs.Send(compareMsgFor(t, hs, [2]string{hs.sessionRef("c0430f5a"), "preset:project:guarded-worker@" + hs.main + "#c0430f5a"}))
	for i, b := range hs.m.view.Diff().Blocks {
		if b.Key == "system" {
			hs.Run(hs.m.view.Select(i))
		}
	}
	sel, panel = jumps(t, hs)
	if panel != common.PanelPresets || sel.PresetID != "project:guarded-worker" || sel.ItemID == "" {
		t.Fatalf("preset jump: panel %d %+v", panel, sel)
	}
}

// compareMsgFor computes a comparison as the panel's command would.
func compareMsgFor(t *testing.T, hs *harness, refs [2]string) compareMsg {
	t.Helper()
	hs.m.auto = false
	hs.m.gen++
	hs.m.refs = refs
	cmp, err := compare(hs.m.env, refs)
	if err != nil {
		t.Fatal(err)
	}
	return compareMsg{gen: hs.m.gen, cmp: cmp}
}

func TestLineDiffToggles(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "c0430f5a")
	hs.Press("enter")
	if hs.m.view.Focus() != requestdiff.Lines {
		t.Fatal("enter focuses the line diff")
	}
	caption := func() string { return hs.m.view.LineView().Caption() }
	hs.Press("v")
	if !strings.Contains(caption(), "split") {
		t.Errorf("caption %q", caption())
	}
	hs.Press("c")
	if !strings.Contains(caption(), "all") {
		t.Errorf("caption %q", caption())
	}
	hs.Press("w")
	if hs.m.view.LineView().Wrap() {
		t.Error("w turns wrapping off")
	}
	hs.Press("n", "esc")
	if hs.m.view.Focus() != requestdiff.Blocks {
		t.Error("esc goes back to the blocks")
	}
	hs.Press("j")
	b, _, _ := hs.m.view.Selected()
	if d := hs.m.view.LineView().Diff(); d == nil || d.Identical() && b.Before != b.After {
		t.Error("moving the cursor computes its line diff")
	}
}

// Text from payload files is sanitised: escape sequences in a capture
// never reach the screen.
func TestHostileCaptureIsSanitised(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "-")
	dir := hs.m.env.payloadDir()
	evil := `{"model":"m\u001b]52;c;ZXZpbA==\u0007","messages":[{"role":"user","content":"hi \u001b[2J\u001b]0;title\u0007 there\r\nnext"}]}`
	path := filepath.Join(dir, "03-evil.json")
	if err := os.WriteFile(path, []byte(evil), 0o644); err != nil {
		t.Fatal(err)
	}
	later := savedAt.Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	hs.Press("r")
	if !strings.HasSuffix(hs.m.refs[1], "03-evil.json") {
		t.Fatalf("refs %q", hs.m.refs)
	}
	// The user message holds real escape characters (the model name only
	// their JSON spelling); no row may put one on screen.
	for row := range hs.m.cmp.view.Blocks {
		hs.Run(hs.m.view.Select(row))
		v := hs.m.View()
		if sanitize.Screen(v) != v || strings.Contains(v, "\x1b]") || strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\r") {
			t.Fatalf("row %d: unsanitised text on screen: %q", row, v)
		}
	}
}

func TestCutCaptureIsOnePayloadTextBlock(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "-")
	req := jsonv.NewObject()
	var msgs []any
	for i := 0; i < 30; i++ {
		m := jsonv.NewObject()
		m.Set("role", "user")
		m.Set("content", strings.Repeat("lorem ipsum ", 800))
		msgs = append(msgs, m)
	}
	req.Set("messages", msgs)
	path := filepath.Join(hs.m.env.payloadDir(), "03-cut.json")
	if err := os.WriteFile(path, []byte(turndiff.FormatPayload(req).Text), 0o644); err != nil {
		t.Fatal(err)
	}
	hs.Send(compareMsgFor(t, hs, [2]string{"", path}))
	v := hs.view()
	if !strings.Contains(v, "payload text (not JSON)") || !strings.Contains(v, "saved payload (cut: not JSON) 03-cut.json") {
		t.Errorf("view:\n%s", v)
	}
	uitest.AssertFills(t, hs.m.View(), 120, 40)
}
