package payloads

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/test/hostile"
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
	hs.Press("[")
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
	hs.Press("~")
	if !strings.HasSuffix(m.refs[1], "01-before-write-access.json") || m.refs[0] != hs.sessionRef("c0430f5a") {
		t.Fatalf("swap: %q", m.refs)
	}
	// Typing a reference; a malformed one keeps the picker open.
	hs.Press("]", "G", "enter")
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
	if m.picker != nil || m.cmp == nil || m.cmp.sides[1].Stack == nil {
		t.Fatalf("typed preset reference: %q", m.refs)
	}
	// Back to following the selection.
	hs.Press("]")
	m.picker.list.Select(func(it pickItem) bool { return it.kind == pickFollow })
	hs.Press("enter")
	if !m.auto || m.refs[1] != hs.sessionRef("c0430f5a") {
		t.Fatalf("follow again: %q", m.refs)
	}
}

// TestTypedMissingPresetFile: a preset selector written as a path that
// does not exist says so, not that it is an invalid library id.
func TestTypedMissingPresetFile(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "c0430f5a")
	hs.Press("]", "G", "enter")
	hs.m.picker.input.SetValue("")
	missing := filepath.Join(t.TempDir(), "gone.json")
	hs.Type("preset:" + missing + "@" + hs.main + "#c0430f5a")
	hs.Press("enter")
	if v := hs.view(); !strings.Contains(v, "gone.json: no such file") || strings.Contains(v, "Invalid resource id") {
		t.Errorf("view:\n%s", v)
	}
}

// TestTypedPresetFIFOIsRefused: a preset path naming a FIFO is refused at
// once, never opened (the compare command used to block on it for ever).
func TestTypedPresetFIFOIsRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "preset.fifo")
	hostile.MakeSpecial(t, fifo, "fifo")
	hs := newHarness(t, 160, 48, true, "c0430f5a")
	hs.Press("]", "G", "enter")
	hs.m.picker.input.SetValue("")
	hs.Type("preset:" + fifo + "@" + hs.main + "#c0430f5a")
	done := make(chan struct{})
	go func() {
		hs.Press("enter")
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("comparing a preset FIFO still runs after 10s")
	}
	if v := hs.view(); !strings.Contains(v, "not a regular file") {
		t.Errorf("view:\n%s", v)
	}
}

// TestPickerRequestTimesAreWhole: a request row of the picker shows the
// entry's time to the second, not clipped one cell short ("10:04:1…").
func TestPickerRequestTimesAreWhole(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "c0430f5a")
	hs.Press("]")
	if hs.m.picker == nil {
		t.Fatal("picker did not open")
	}
	whole := regexp.MustCompile(`request for c0430f5a  2026-11-27 \d\d:\d\d:\d\d · read`)
	if v := hs.view(); !whole.MatchString(v) {
		t.Errorf("request row without a whole time:\n%s", v)
	}
}

func TestRequestsViewPicksAPair(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "")
	hs.Press("s", "s")
	m := hs.m
	if m.mode != modeRequests || m.reqs.list.Total() != 12 {
		t.Fatalf("mode %v rows %d", m.mode, m.reqs.list.Total())
	}
	if !m.reqs.list.Select(func(r requestRow) bool { return r.dropped }) {
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

// jumps runs a jump and returns its target: one common.JumpMsg, and the
// selection left as it was (the target panel owns what it selects).
func jumps(t *testing.T, hs *harness) common.JumpTarget {
	t.Helper()
	n, sel := len(hs.Jumps), hs.com.Selection
	hs.Press(">")
	if len(hs.Jumps) != n+1 {
		t.Fatalf("no jump sent (status %q)", hs.m.status)
	}
	if hs.com.Selection != sel {
		t.Fatalf("the jump changed the selection itself: %+v", hs.com.Selection)
	}
	return hs.Jumps[n].Target
}

func TestJumpToTheCause(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "c0430f5a")
	to := jumps(t, hs)
	if to.Panel != common.PanelCapabilities || to.CapabilityID != "project:write-access" || hs.m.auto {
		t.Fatalf("capability jump: %+v", to)
	}
	// A message block of a session request: its entry in panel 3.
	hs.Run(hs.m.view.Select(4))
	to = jumps(t, hs)
	if to.Panel != common.PanelSession || to.EntryID == "" || to.SessionFile != hs.main {
		t.Fatalf("entry jump: %+v", to)
	}
	// The capability update pi-forge inserted: its capability in panel 2.
	last := len(hs.m.view.Diff().Blocks) - 1
	hs.Run(hs.m.view.Select(last))
	to = jumps(t, hs)
	if to.Panel != common.PanelCapabilities || to.CapabilityID != "project:write-access" {
		t.Fatalf("update jump: %+v (row %s)", to, hs.m.view.Diff().Blocks[last].Label)
	}
	// A preset compiled at the entry: the item behind the system prompt.
	hs.m.picker = nil
	hs.Send(compareMsgFor(t, hs, [2]string{hs.sessionRef("c0430f5a"), "preset:project:guarded-worker@" + hs.main + "#c0430f5a"}))
	for i, b := range hs.m.view.Diff().Blocks {
		if b.Key == "system" {
			hs.Run(hs.m.view.Select(i))
		}
	}
	to = jumps(t, hs)
	if to.Panel != common.PanelPresets || to.PresetID != "project:guarded-worker" || to.ItemID == "" {
		t.Fatalf("preset jump: %+v", to)
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
	hs.Press("|")
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

// TestBrokenCaptureIsNotCalledCut: a payload file that is not JSON but does
// not end with pi-forge's truncation note (empty, hand-edited, cut by a
// crash) is labelled "not JSON", not "cut" — only pi-forge's note says the
// capture was cut.
func TestBrokenCaptureIsNotCalledCut(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "-")
	path := filepath.Join(hs.m.env.payloadDir(), "04-empty.json")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	hs.Send(compareMsgFor(t, hs, [2]string{"", path}))
	v := hs.view()
	if !strings.Contains(v, "saved payload (not JSON) 04-empty.json") || strings.Contains(v, "cut") {
		t.Errorf("view:\n%s", v)
	}
}

// dropsSession writes a session of n user prompts and answers where every
// answer writes the cache and reads nothing back: each request after the
// first is a drop.
func dropsSession(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"drops","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n")
	parent := "null"
	for i := 0; i < n; i++ {
		u, a := fmt.Sprintf("u%03d", i), fmt.Sprintf("a%03d", i)
		fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"question %d","timestamp":1}}`+"\n", u, parent, i)
		fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"answer %d"}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":100,"totalTokens":115},"timestamp":2}}`+"\n", a, u, i)
		parent = `"` + a + `"`
	}
	file := filepath.Join(t.TempDir(), "drops.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestRequestsViewPredictsEveryDrop: the most recent drops come predicted
// with the rows, the older ones follow in the background, batch by batch.
func TestRequestsViewPredictsEveryDrop(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "-")
	file := dropsSession(t, 14)
	hs.com.Selection = common.Selection{SessionFile: file}
	hs.Send(common.SelectionChangedMsg{Selection: hs.com.Selection})
	hs.Press("s", "s")
	rows := hs.m.reqs.list.Items()
	drops := 0
	for _, r := range rows {
		if !r.dropped {
			continue
		}
		drops++
		if !strings.HasPrefix(r.predicted, "predicted: ") {
			t.Errorf("drop %s: %q", r.entry, r.predicted)
		}
	}
	if len(rows) != 14 || drops != 13 {
		t.Fatalf("%d rows, %d drops", len(rows), drops)
	}
	if hs.m.reqs.list.SelectedIndex() != 13 || hs.m.reqs.busy || len(hs.m.reqs.drops.pending) != 0 {
		t.Errorf("cursor %d busy %v pending %v", hs.m.reqs.list.SelectedIndex(), hs.m.reqs.busy, hs.m.reqs.drops.pending)
	}
}

// TestRequestsViewPredictsAroundTheCursor: on a long branch only the drops
// within a screen of the cursor are predicted, and moving the cursor
// predicts the ones it reaches.
func TestRequestsViewPredictsAroundTheCursor(t *testing.T) {
	hs := newHarness(t, 80, 24, true, "-")
	file := dropsSession(t, 120)
	hs.com.Selection = common.Selection{SessionFile: file}
	hs.Press("s", "s")
	predicted := func(k int) bool { return strings.HasPrefix(hs.m.reqs.list.Items()[k].predicted, "predicted: ") }
	if !predicted(119) || !predicted(119-23) || predicted(1) || predicted(50) {
		t.Fatalf("near the newest only: %v %v %v %v", predicted(119), predicted(96), predicted(1), predicted(50))
	}
	hs.Press("g") // top
	if !predicted(1) || !predicted(20) || predicted(60) {
		t.Errorf("after moving to the top: %v %v %v", predicted(1), predicted(20), predicted(60))
	}
}

// TestSharesTheSessionPanelsSession: the panel compares entries of the
// very session the Session panel holds (session.Shared), not a copy.
func TestSharesTheSessionPanelsSession(t *testing.T) {
	hs := newHarness(t, 80, 24, true, "")
	held, err := session.Shared(hs.main)
	if err != nil {
		t.Fatal(err)
	}
	if hs.m.cmp == nil || hs.m.cmp.sides[1].Session != held || hs.m.cmp.sides[0].Session != held {
		t.Fatal("the panel parsed its own copy of the session")
	}
}

// TestTypedReferenceBySessionID: a typed session reference may name the
// session by an id prefix, as the CLI takes it.
func TestTypedReferenceBySessionID(t *testing.T) {
	hs := newHarness(t, 120, 40, true, "")
	cmp, err := compare(hs.m.env, [2]string{"session:01a21c48#fa181dba", "session:01a21c48#c0430f5a"})
	if err != nil || cmp.sides[1].Session.Path != hs.main {
		t.Fatalf("%v", err)
	}
	if _, err := compare(hs.m.env, [2]string{"", "session:zzz#x"}); err == nil || !strings.Contains(err.Error(), "no such session") {
		t.Errorf("unknown id: %v", err)
	}
}
