package sessions

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/forgebench/forgebench/ui/common"

	"github.com/charmbracelet/x/ansi"
)

// A long message in the context view is cut to a few lines; the expand key
// shows it whole, and the footer offers that key.
func TestContextViewExpandsLongMessages(t *testing.T) {
	side := &contextSide{messages: []contextMessage{{role: "user", text: "l1\nl2\nl3\nl4\nl5\nl6\nl7"}}}
	res := &contextResult{idx: 0, entry: "e1", sent: side, pi: side, same: true}
	st := hsStyles()
	lay := contextLayout{width: 60, expandKey: "space", switchKey: "p"}
	cut := ansi.Strip(strings.Join(renderContext(res, lay, st), "\n"))
	if strings.Contains(cut, "l7") || !strings.Contains(cut, "3 more line(s)") || !strings.Contains(cut, "space") {
		t.Fatalf("a long message should be cut with a hint naming the key:\n%s", cut)
	}
	lay.full = true
	full := ansi.Strip(strings.Join(renderContext(res, lay, st), "\n"))
	if !strings.Contains(full, "l7") || strings.Contains(full, "more line") {
		t.Fatalf("expanded, the whole message shows:\n%s", full)
	}

	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.Press("c")
	found := false
	for _, b := range hs.m.ShortHelp() {
		found = found || b.Help().Key == hs.m.keys.Expand.Help().Key
	}
	if !found {
		t.Error("the context view's footer does not offer the expand key")
	}
	before := len(hs.m.context.lines)
	hs.Press("space")
	hs.view()
	if !hs.m.context.full || len(hs.m.context.lines) < before {
		t.Fatalf("space in the context view should show every line (lines %d → %d)", before, len(hs.m.context.lines))
	}
}

// A note belongs to the pane that produced it and expires by itself; an
// error stays longer but expires too.
func TestStatusBelongsToItsPaneAndExpires(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneDetail)
	clip := pressCopy(t, hs, "y")
	if clip == "" {
		t.Fatal("y in the detail copies the entry")
	}
	view := ansi.Strip(hs.view())
	detailAt := strings.Index(view, "Detail · ")
	if at := strings.Index(view, "copied entry"); at < detailAt || detailAt < 0 {
		t.Fatalf("the copy note must show in the Detail pane's border, not the timeline's:\n%s", view)
	}
	if hs.m.status[paneTimeline].Text() != "" {
		t.Fatal("the timeline has no note of its own")
	}
	hs.Press("up") // moving on does not erase it…
	if hs.m.status[paneDetail].Text() == "" {
		t.Fatal("a note stays for its time to live, not one key")
	}
	if len(hs.Timers) == 0 || hs.Timers[0].After != common.StatusTTL {
		t.Fatalf("the note schedules its expiry after %v, got %+v", common.StatusTTL, hs.Timers)
	}
	hs.FireTimers() // …its time does
	if strings.Contains(ansi.Strip(hs.view()), "copied entry") {
		t.Fatal("the copy note is still shown after it expired")
	}
	hs.Run(hs.m.setStatus(paneTimeline, "open x: broken", true))
	if hs.Timers[len(hs.Timers)-1].After != common.StatusErrorTTL {
		t.Fatal("an error stays longer")
	}
	hs.FireTimers()
	if hs.m.status[paneTimeline].Text() != "" {
		t.Fatal("an error expires too")
	}
}

// With only the matches of a search that matches nothing shown, enter has
// no entry to open: focus stays on the timeline instead of moving to an
// empty detail pane.
func TestEnterOnAnEmptyTimelineFilterKeepsFocus(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.Press("/")
	hs.Type("zzzz-no-such-text")
	hs.Press("enter", "m", "enter")
	if hs.m.focus != paneTimeline {
		t.Fatalf("focus moved to pane %d with nothing selected", hs.m.focus)
	}
}

// With no session for the directory, enter and F have nothing to act on.
func TestEmptyPickerFooterOffersOnlyWhatWorks(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	hs.m.picker.setItems(nil, nil, hs.com.Clock()) // as discovery leaves it for a directory without sessions
	hs.m.ls = nil
	hs.m.focus = panePicker
	for _, h := range helpKeysOf(hs.m.ShortHelp()) {
		if h == hs.m.keys.Open.Help().Key || h == hs.m.keys.Follow.Help().Key {
			t.Errorf("the empty picker's footer offers %q", h)
		}
	}
}

func helpKeysOf(bs []key.Binding) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Help().Key)
	}
	return out
}
