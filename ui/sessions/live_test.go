package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/follower"
	"github.com/forgebench/forgebench/ui/uitest"
)

// realTail is the tail the panel starts on its own (EnableWatch), taken
// from it before it waits on the channel: the test reads the real events
// (fsnotify on the test's files) and hands them to the panel, which a
// harness must do since a command that waits never returns to it.
type realTail struct {
	started follower.StartedMsg
}

// newLiveHarness opens the test sessions with the panel watching files.
func newLiveHarness(t *testing.T, w, h int) (*harness, map[string]string, *realTail) {
	t.Helper()
	rt := &realTail{}
	hs, paths := newHarnessWith(t, w, h, func(hs *harness, _ map[string]string) {
		hs.m.EnableWatch()
		hs.Intercept = func(msg tea.Msg) bool {
			if s, ok := msg.(follower.StartedMsg); ok {
				if rt.started.Cancel != nil {
					rt.started.Cancel()
				}
				rt.started = s
				return true
			}
			return false
		}
	})
	t.Cleanup(func() {
		if rt.started.Cancel != nil {
			rt.started.Cancel()
		}
	})
	return hs, paths, rt
}

// next waits for the tail's next event of kind (others are dropped) and
// wraps it as the panel's message.
func (rt *realTail) next(t *testing.T, kind session.TailEventKind) follower.EventMsg {
	t.Helper()
	if rt.started.Events == nil {
		t.Fatal("no tail runs")
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-rt.started.Events:
			if !ok {
				t.Fatal("the tail ended")
			}
			if ev.Kind == kind {
				return follower.EventMsg{Owner: tailOwner, Gen: rt.started.Gen, Event: ev, OK: true}
			}
		case <-deadline:
			t.Fatalf("no %v event within 10 s", kind)
		}
	}
}

// until hands the panel the tail's events (of any kind) until cond holds:
// one change on disk may make several (create, write).
func (rt *realTail) until(t *testing.T, hs *harness, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case ev, ok := <-rt.started.Events:
			if !ok {
				t.Fatal("the tail ended")
			}
			hs.sendTail(follower.EventMsg{Owner: tailOwner, Gen: rt.started.Gen, Event: ev, OK: true})
		case <-deadline:
			t.Fatalf("not within 10 s: %s", what)
		}
	}
}

// sendTail hands the panel a tail event and lets a re-read that waits for
// its turn run (on a loaded machine a small session's read may count as
// slow).
func (hs *harness) sendTail(msg follower.EventMsg) {
	hs.TB().Helper()
	hs.Send(msg)
	for range 3 {
		var due []uitest.Timer
		kept := hs.Timers[:0:0]
		for _, tm := range hs.Timers {
			if _, ok := tm.Msg.(followReloadMsg); ok {
				due = append(due, tm)
			} else {
				kept = append(kept, tm)
			}
		}
		hs.Timers = kept
		for _, tm := range due {
			hs.Send(tm.Msg)
		}
	}
}

func entryLine(id, parent, text string) string {
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-11-27T10:04:00.000Z","message":{"role":"user","content":%q,"timestamp":1795773840000}}`, id, parent, text)
}

// The defect (issue 21): a live session was not followed until F was
// pressed, although the README says the selection follows the leaf; off
// the leaf the label still said FOLLOW. Now opening a session starts its
// tail: at the leaf each appended entry becomes the selection (so the
// header and the panels that follow it move), off the leaf the selection
// stays and the timeline says where it is held; F at the leaf pauses, F
// and L follow again.
func TestALiveSessionIsFollowedWithoutAKey(t *testing.T) {
	hs, paths, rt := newLiveHarness(t, 160, 48)
	file := paths["rounding"]
	if rt.started.Events == nil || rt.started.Err != nil || hs.m.follow.tail.File() != file {
		t.Fatalf("opening a session starts its tail (started %+v, tailing %q)", rt.started, hs.m.follow.tail.File())
	}
	hs.focusOn(paneTimeline)
	timeline := func() string { return ansi.Strip(hs.view()) }
	if sel := hs.com.Selection; sel.EntryID != "e19" || !sel.AtLeaf || sel.Paused || !strings.Contains(timeline(), "FOLLOW") {
		t.Fatalf("at the leaf the selection follows: %+v\n%s", sel, timeline())
	}

	appendLine(t, file, entryLine("e20", "e19", "And the docs?"))
	hs.sendTail(rt.next(t, session.TailLines))
	if sel := hs.com.Selection; sel.EntryID != "e20" || !sel.AtLeaf || sel.Paused {
		t.Fatalf("no key pressed: the selection moves to the new leaf e20, got %+v", sel)
	}

	hs.Press("up")
	held := hs.com.Selection.EntryID
	v := timeline()
	if strings.Contains(v, "FOLLOW") || !strings.Contains(v, "paused at entry "+held+" · F follow") {
		t.Fatalf("off the leaf the label says where the selection is, never FOLLOW:\n%s", v)
	}
	appendLine(t, file, entryLine("e21", "e20", "And the changelog?"))
	hs.sendTail(rt.next(t, session.TailLines))
	if sel := hs.com.Selection; sel.EntryID != held || sel.AtLeaf || len(hs.m.ls.rows) != 21 {
		t.Fatalf("off the leaf the selection stays on %s while the timeline grows (rows %d): %+v", held, len(hs.m.ls.rows), sel)
	}

	hs.Press("F")
	if sel := hs.com.Selection; sel.EntryID != "e21" || !sel.AtLeaf || sel.Paused || !strings.Contains(timeline(), "FOLLOW") {
		t.Fatalf("F goes back to the leaf and follows: %+v", sel)
	}
	hs.Press("F")
	if sel := hs.com.Selection; sel.EntryID != "e21" || !sel.Paused || !strings.Contains(timeline(), "paused at entry e21 · F follow") {
		t.Fatalf("F at the leaf pauses there: %+v\n%s", sel, timeline())
	}
	appendLine(t, file, entryLine("e22", "e21", "And the release notes?"))
	hs.sendTail(rt.next(t, session.TailLines))
	if sel := hs.com.Selection; sel.EntryID != "e21" || sel.AtLeaf {
		t.Fatalf("paused, the selection stays on e21: %+v", sel)
	}
	hs.Press("L")
	if sel := hs.com.Selection; sel.EntryID != "e22" || !sel.AtLeaf || sel.Paused {
		t.Fatalf("L goes back to the leaf and follows: %+v", sel)
	}
	if n := hs.m.follow.updates; n != 3 {
		t.Errorf("three appends, %d re-reads", n)
	}
}

// Tail events are applied in order and only the current tail's: an
// older tail's event is ignored, lines that arrive during a re-read are
// read once more after it, an error shows in the timeline's border, and a
// tail that ends leaves the selection held (no FOLLOW) until F starts it
// again.
func TestTailEventsAreCoalescedAndAnEndedTailHolds(t *testing.T) {
	hs, paths, rt := newLiveHarness(t, 120, 40)
	m, file := hs.m, paths["rounding"]
	gen := rt.started.Gen
	appendLine(t, file, entryLine("e20", "e19", "And the docs?"))
	hs.Send(follower.EventMsg{Owner: tailOwner, Gen: gen - 1, OK: true, Event: session.TailEvent{Kind: session.TailLines}})
	if len(m.ls.rows) != 19 {
		t.Fatal("events of an older tail must be ignored")
	}
	m.follow.reloading = true
	hs.Send(follower.EventMsg{Owner: tailOwner, Gen: gen, OK: true, Event: session.TailEvent{Kind: session.TailLines}})
	if !m.follow.dirty || len(m.ls.rows) != 19 {
		t.Fatal("an event during a re-read marks the session dirty, it does not start another read")
	}
	m.follow.reloading, m.follow.dirty = false, false
	hs.Send(follower.EventMsg{Owner: tailOwner, Gen: gen, OK: true, Event: session.TailEvent{Kind: session.TailError, Err: os.ErrClosed}})
	if st := &m.status[paneTimeline]; !st.IsError() || !strings.Contains(st.Text(), "follow") {
		t.Fatalf("a tail error shows in the timeline's status, got %q", st.Text())
	}
	hs.Send(follower.EventMsg{Owner: tailOwner, Gen: gen, OK: false})
	if m.follow.tail.File() != "" || !hs.com.Selection.Paused || strings.Contains(ansi.Strip(hs.view()), "FOLLOW") {
		t.Fatalf("an ended tail holds the selection (tailing %q): %+v", m.follow.tail.File(), hs.com.Selection)
	}
	old := rt.started.Events
	hs.focusOn(paneTimeline)
	hs.Press("F")
	if rt.started.Events == nil || rt.started.Events == old || hs.com.Selection.Paused || hs.com.Selection.EntryID != "e19" {
		t.Fatalf("F starts the tail again and follows from the leaf: %+v", hs.com.Selection)
	}
	// The new tail starts where the panel's read ended: e20, which the
	// ignored events announced, arrives.
	hs.sendTail(rt.next(t, session.TailLines))
	if sel := hs.com.Selection; sel.EntryID != "e20" || !sel.AtLeaf {
		t.Fatalf("the new tail brings the entry the old one missed: %+v", sel)
	}
}

// A big session that is being written is not re-read back to back: the
// next re-read waits twice as long as the last one took, so following it
// leaves the machine most of its time.
func TestReReadsOfABigSessionAreSpaced(t *testing.T) {
	hs, paths, rt := newLiveHarness(t, 120, 40)
	m, file := hs.m, paths["rounding"]
	m.follow.took, m.follow.doneAt = 400*time.Millisecond, hs.now.Add(-100*time.Millisecond)
	if m.follow.took <= followGapFrom {
		t.Fatal("the test's re-read must count as slow")
	}
	appendLine(t, file, entryLine("e20", "e19", "And the docs?"))
	hs.Timers = nil
	hs.Send(follower.EventMsg{Owner: tailOwner, Gen: rt.started.Gen, OK: true, Event: session.TailEvent{Kind: session.TailLines}})
	if len(m.ls.rows) != 19 || !m.follow.delayed {
		t.Fatal("a re-read 100 ms after one that took 400 ms waits")
	}
	var wait time.Duration
	for _, tm := range hs.Timers {
		if _, ok := tm.Msg.(followReloadMsg); ok {
			wait = tm.After
		}
	}
	if wait != 700*time.Millisecond {
		t.Fatalf("the re-read waits until 800 ms after the last: %v", wait)
	}
	hs.Send(follower.EventMsg{Owner: tailOwner, Gen: rt.started.Gen, OK: true, Event: session.TailEvent{Kind: session.TailLines}})
	hs.FireTimers()
	if len(m.ls.rows) != 20 || m.follow.delayed || m.follow.updates != 1 {
		t.Fatalf("the waiting re-read ran once (rows %d, re-reads %d)", len(m.ls.rows), m.follow.updates)
	}
}

// The context view at the leaf follows the session as it grows: a re-read
// asks for the context again (at the new leaf while following) instead of
// leaving "rebuilding context…" on screen.
func TestContextViewFollowsTheGrowingSession(t *testing.T) {
	hs, paths, rt := newLiveHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.Press("c")
	if !strings.Contains(hs.view(), "Context at e19") {
		t.Fatalf("context at the leaf:\n%s", ansi.Strip(hs.view()))
	}
	appendLine(t, paths["rounding"], entryLine("e20", "e19", "And the docs?"))
	hs.sendTail(rt.next(t, session.TailLines))
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "Context at e20") || !strings.Contains(v, "And the docs?") {
		t.Fatalf("the context follows to the new leaf:\n%s", v)
	}
	// The stats on screen are counted again (they stayed pending before).
	hs.Press("esc", "esc", "s")
	before := hs.m.stats.session.Entries
	appendLine(t, paths["rounding"], entryLine("e21", "e20", "And the changelog?"))
	hs.sendTail(rt.next(t, session.TailLines))
	if hs.m.stats.pending || hs.m.stats.session == nil || hs.m.stats.session.Entries != before+1 {
		t.Fatalf("the stats follow the growing session: %+v", hs.m.stats)
	}
}

// The picker marks the sessions being written (their file changed within
// LiveWindow) and the sessions with a pi-subagent tree, and keeps both
// current through the open session's watch of its directory: another
// session written, a new session, a tree directory made, a session
// removed. A live mark goes when its window has passed, by one timer that
// is not set again while time stands still.
func TestPickerMarksLiveSessionsAndAgentTrees(t *testing.T) {
	hs, paths, rt := newLiveHarness(t, 160, 48)
	dir := filepath.Dir(paths["rounding"])
	picker := func() string {
		hs.focusOn(panePicker)
		return ansi.Strip(hs.view())
	}
	if v := picker(); strings.Contains(v, " live ") || strings.Contains(v, "agents") {
		t.Fatalf("nothing is live or has a tree yet:\n%s", v)
	}
	// Pi writes the other session now.
	currency := paths["currency"]
	appendLine(t, currency, `{"type":"message","id":"f99","parentId":"f02","timestamp":"2026-12-01T11:59:50.000Z","message":{"role":"user","content":"One more thing","timestamp":1796126390000}}`)
	must(t, os.Chtimes(currency, hs.now.Add(-10*time.Second), hs.now.Add(-10*time.Second)))
	rt.until(t, hs, "the written session is read again", func() bool { return rowOf(t, hs, currency).count == 3 })
	row := rowOf(t, hs, currency)
	if !row.live || !strings.Contains(picker(), "Sessions (2) · 1 live") {
		t.Fatalf("the session written 10 s ago is live: %+v\n%s", row, picker())
	}
	// A pi-subagent tree appears next to the open session.
	must(t, os.Mkdir(filepath.Join(dir, hs.m.ls.sess.Header.ID+".subagents"), 0o755))
	rt.until(t, hs, "the tree is seen", func() bool { return rowOf(t, hs, paths["rounding"]).tree })
	if row := rowOf(t, hs, paths["rounding"]); !row.tree || !strings.Contains(picker(), "agents") {
		t.Fatalf("the open session has a tree now: %+v\n%s", row, picker())
	}
	// A session started in the project.
	fresh := filepath.Join(dir, "2026-12-01T11-59-00-000Z_01a2f000-0000-7000-8000-000000000003.jsonl")
	must(t, os.WriteFile(fresh, []byte(`{"type":"session","version":3,"id":"01a2f000-0000-7000-8000-000000000003","timestamp":"2026-12-01T11:59:00.000Z","cwd":"`+testCwd+`"}`+"\n"+
		`{"type":"message","id":"f01","parentId":null,"timestamp":"2026-12-01T11:59:01.000Z","message":{"role":"user","content":"A fresh start","timestamp":1796126341000}}`+"\n"), 0o644))
	must(t, os.Chtimes(fresh, hs.now.Add(-5*time.Second), hs.now.Add(-5*time.Second)))
	rt.until(t, hs, "the new session is listed", func() bool { return hs.m.picker.list.Total() == 3 && hs.m.picker.live == 2 })
	if v := picker(); !strings.Contains(v, "Sessions (3) · 2 live") || !strings.Contains(v, "A fresh start") {
		t.Fatalf("a new session of the project is listed, live:\n%s", v)
	}
	// The marks go when their window has passed: one timer, for the
	// first to go (the currency session's, written 10 s ago).
	expiry := liveTimers(hs)
	if len(expiry) != 1 || expiry[0].After != LiveWindow-10*time.Second+liveExpirySlack {
		t.Fatalf("one timer for the first mark to go, %v after now: %+v", LiveWindow-10*time.Second+liveExpirySlack, expiry)
	}
	hs.Timers = nil
	hs.Send(liveExpiryMsg{at: hs.now}) // not the panel's own timer
	if !rowOf(t, hs, currency).live {
		t.Fatal("a timer that is not the panel's own changed the marks")
	}
	hs.now = hs.now.Add(LiveWindow + 2*liveExpirySlack)
	hs.Send(expiry[0].Msg)
	if v := picker(); strings.Contains(v, " live") || !strings.Contains(v, "agents") || len(liveTimers(hs)) != 0 {
		t.Fatalf("two minutes later nothing is live and no timer waits; the tree stays:\n%s", v)
	}
	// Time standing still (the timer fired, the mark is still due): the
	// timer is not set again for the same moment, so nothing loops.
	appendLine(t, currency, `{"type":"custom","id":"f98","parentId":"f99","timestamp":"2026-12-01T12:03:00.000Z"}`)
	must(t, os.Chtimes(currency, hs.now.Add(-10*time.Second), hs.now.Add(-10*time.Second)))
	rt.until(t, hs, "the session written again is live", func() bool { return rowOf(t, hs, currency).live })
	if !rowOf(t, hs, currency).live || len(liveTimers(hs)) != 1 {
		t.Fatalf("written again, the session is live with one timer: %+v", liveTimers(hs))
	}
	if left := hs.Quiesce(5); len(left) != 0 {
		t.Fatalf("with the clock standing still the timer is not set again: %+v", left)
	}
	// A session removed from the directory leaves the picker.
	must(t, os.Remove(fresh))
	rt.until(t, hs, "the removed session leaves", func() bool { return hs.m.picker.list.Total() == 2 })
	if v := picker(); strings.Contains(v, "A fresh start") || !strings.Contains(v, "Sessions (2)") {
		t.Fatalf("the removed session is gone from the picker:\n%s", v)
	}
}

// liveTimers are the pending timers that take live marks away.
func liveTimers(hs *harness) []uitest.Timer {
	var out []uitest.Timer
	for _, tm := range hs.Timers {
		if _, ok := tm.Msg.(liveExpiryMsg); ok {
			out = append(out, tm)
		}
	}
	return out
}

// rowOf is the picker row of file.
func rowOf(t *testing.T, hs *harness, file string) pickerItem {
	t.Helper()
	for _, it := range hs.m.picker.list.Items() {
		if it.path == file {
			return it
		}
	}
	t.Fatalf("%s is not listed", file)
	return pickerItem{}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Picker dates carried no year, so a session of last year read as this
// year's: a date of another year shows the year instead of the time, in
// the same width.
func TestPickerDatesCarryTheYearWhenNotThisYear(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 11, 27, 9, 17, 0, 0, time.UTC), "Nov 27 09:17"},
		{time.Date(2025, 11, 27, 9, 17, 0, 0, time.UTC), "Nov 27  2025"},
		{time.Date(2027, 1, 2, 9, 17, 0, 0, time.UTC), "Jan 02  2027"},
	} {
		if got := common.NewWhen(c.at, now).Label(); got != c.want || len(got) != 12 {
			t.Errorf("%v: %q, want %q", c.at, got, c.want)
		}
	}
	hs, _ := newHarness(t, 160, 48)
	hs.now = time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	hs.m.picker.refresh(hs.m.ls, hs.now)
	hs.focusOn(panePicker)
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "Nov 27  2026") || !strings.Contains(v, "Nov 26  2026") {
		t.Fatalf("a year later the picker names the year:\n%s", v)
	}
}

// The selection says whether it is held, so the header can: a jump that
// lands off the leaf, F at the leaf and a move back onto the leaf each
// say so at once.
func TestTheSelectionSaysWhetherItFollows(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	if sel := hs.com.Selection; !sel.AtLeaf || sel.Paused {
		t.Fatalf("opened at the leaf, following: %+v", sel)
	}
	hs.Press("F")
	if sel := hs.com.Selection; !sel.AtLeaf || !sel.Paused || hs.Selections[len(hs.Selections)-1] != sel {
		t.Fatalf("F at the leaf holds the selection, announced: %+v", sel)
	}
	hs.Press("up", "down")
	if sel := hs.com.Selection; !sel.AtLeaf || sel.Paused {
		t.Fatalf("back on the leaf by moving, it follows again: %+v", sel)
	}
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelSession, SessionFile: hs.m.ls.file, EntryID: "e10"}})
	if sel := hs.com.Selection; sel.AtLeaf || sel.EntryID != "e10" || !strings.Contains(ansi.Strip(hs.view()), "paused at entry e10") {
		t.Fatalf("a jump off the leaf: %+v", sel)
	}
}

// The picker's marks and dates as goldens: a session written 30 s ago is
// live, the open one has a pi-subagent tree, and a month into the next
// year every date names its year.
func TestGoldenPickerMarks(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		hs, _ := newHarnessWith(t, size[0], size[1], func(hs *harness, paths map[string]string) {
			hs.now = time.Date(2027, 1, 5, 12, 0, 0, 0, time.UTC)
			must(t, os.Chtimes(paths["currency"], hs.now.Add(-30*time.Second), hs.now.Add(-30*time.Second)))
			must(t, os.Mkdir(filepath.Join(filepath.Dir(paths["rounding"]), "01a2f000-0000-7000-8000-000000000001.subagents"), 0o755))
		})
		hs.focusOn(panePicker)
		view := hs.view()
		uitest.AssertFills(t, view, size[0], size[1])
		uitest.Golden(t, fmt.Sprintf("picker_marks_%dx%d", size[0], size[1]), view)
		if v := ansi.Strip(view); !strings.Contains(v, "· 1 live") || !strings.Contains(v, "agents") || !strings.Contains(v, "Nov 27  2026") {
			t.Fatalf("marks and years:\n%s", v)
		}
	}
}

// Following a 100 MB session decoded every entry's summary again for each
// entry Pi wrote (seconds of every core each time): a re-read of the
// growing file keeps the summaries of the entries it still holds and
// decodes only the appended ones.
func TestAReReadDecodesOnlyTheAppendedSummaries(t *testing.T) {
	hs, paths, rt := newLiveHarness(t, 160, 48)
	var asked [][]int
	intercept := hs.Intercept
	hs.Intercept = func(msg tea.Msg) bool {
		if s, ok := msg.(summariesMsg); ok {
			asked = append(asked, s.idxs)
		}
		return intercept(msg)
	}
	before := hs.m.ls
	for i := range before.sums {
		if !before.sums[i].ready {
			t.Fatalf("entry %d has no summary after the load", i)
		}
	}
	appendLine(t, paths["rounding"], entryLine("e20", "e19", "And the docs?"))
	hs.sendTail(rt.next(t, session.TailLines))
	ls := hs.m.ls
	if ls == before || len(ls.rows) != 20 {
		t.Fatal("the session was not read again")
	}
	if len(asked) != 1 || len(asked[0]) != 1 || asked[0][0] != 19 {
		t.Fatalf("only the appended entry's summary is decoded, asked for %v", asked)
	}
	for i := range ls.sums {
		if ls.sums[i] != describeForTest(&ls.sess.Entries[i]) {
			t.Fatalf("entry %d's summary %+v, want %+v", i, ls.sums[i], describeForTest(&ls.sess.Entries[i]))
		}
	}
	// A file replaced under the same name shares nothing: every summary
	// is decoded again.
	data, err := os.ReadFile(paths["currency"])
	must(t, err)
	must(t, os.WriteFile(paths["rounding"]+".new", data, 0o644))
	must(t, os.Rename(paths["rounding"]+".new", paths["rounding"]))
	asked = nil
	rt.until(t, hs, "the replaced file is read", func() bool { return len(hs.m.ls.rows) == 2 })
	if len(asked) == 0 || asked[len(asked)-1] != nil {
		t.Fatalf("a replaced file's summaries are all decoded again: %v", asked)
	}
}

// describeForTest is the summary cell the panel's summary command makes
// for one entry.
func describeForTest(e *session.Entry) summaryCell {
	sum := session.DescribeEntry(e)
	return summaryCell{text: sum.Text, tokens: sum.Tokens, ready: true}
}
