package common_test

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	. "github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

func TestStatusExpiresOnlyItsOwnMessage(t *testing.T) {
	var scheduled []tea.Msg
	var after []time.Duration
	com := &Common{Timer: func(d time.Duration, msg tea.Msg) tea.Cmd {
		scheduled, after = append(scheduled, msg), append(after, d)
		return nil
	}}
	var detail, timeline Status
	detail.Info(com, "copied a1")
	timeline.Error(com, "follow: file vanished")
	if len(scheduled) != 2 || after[0] != StatusTTL || after[1] != StatusErrorTTL {
		t.Fatalf("each message schedules its own expiry (note %v, error %v), got %v", StatusTTL, StatusErrorTTL, after)
	}
	first := scheduled[0].(StatusExpiredMsg)
	if timeline.Expire(first) || timeline.Text() == "" {
		t.Fatal("another pane's expiry must not clear this pane's message")
	}
	if !detail.Expire(first) || detail.Text() != "" {
		t.Fatal("a message ends when its own expiry arrives")
	}
	timeline.Info(com, "follow on")
	if timeline.Expire(scheduled[1].(StatusExpiredMsg)) || timeline.Text() != "follow on" {
		t.Fatal("the expiry of a replaced message must not clear its successor")
	}
	st := themes.For(themes.Dark, true, false)
	timeline.Error(com, "boom")
	if !timeline.IsError() || !strings.Contains(timeline.View(&st), "boom") {
		t.Fatal("an error renders as one")
	}
}

func TestHitMapAndRects(t *testing.T) {
	var hm HitMap[string]
	hm.Add("picker", Rect{0, 0, 40, 10})
	hm.Add("hidden", Rect{0, 0, 0, 5})
	hm.Add("timeline", Rect{40, 0, 40, 10})
	if k, _, ok := hm.At(39, 9); !ok || k != "picker" {
		t.Fatalf("(39,9) is in the picker, got %q %v", k, ok)
	}
	if k, r, ok := hm.At(40, 0); !ok || k != "timeline" || r.X != 40 {
		t.Fatalf("(40,0) is in the timeline, got %q", k)
	}
	if _, _, ok := hm.At(80, 0); ok {
		t.Fatal("nothing is drawn at x=80")
	}
	if _, ok := hm.Rect("hidden"); ok {
		t.Fatal("an empty rectangle is not recorded")
	}
	r := Rect{0, 5, 10, 6}
	if _, ok := r.Inner(5); ok {
		t.Fatal("the top border holds no content line")
	}
	if l, ok := r.Inner(6); !ok || l != 0 {
		t.Fatalf("the row under the border is line 0, got %d", l)
	}
	if _, ok := r.Inner(10); ok {
		t.Fatal("the bottom border holds no content line")
	}
	moved := Offset(tea.MouseClickMsg{X: 5, Y: 7, Button: tea.MouseLeft}, 0, 2).(tea.MouseClickMsg)
	if moved.X != 5 || moved.Y != 5 {
		t.Fatalf("offset by the chrome: got %d,%d", moved.X, moved.Y)
	}
	if WheelDelta(tea.MouseWheelMsg{Button: tea.MouseWheelUp}) >= 0 || WheelDelta(tea.MouseWheelMsg{Button: tea.MouseWheelDown}) <= 0 {
		t.Fatal("wheel up scrolls up, down scrolls down")
	}
}

func TestListRowAtAndScroll(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	l := NewList(func(it string, s RowState) string { return it })
	items := make([]string, 20)
	for i := range items {
		items[i] = string(rune('a' + i))
	}
	l.SetItems(items)
	l.View(&st, 10, 5, true)
	if row, ok := l.RowAt(2); !ok || row != 2 {
		t.Fatalf("line 2 shows row 2, got %d %v", row, ok)
	}
	l.Scroll(6)
	lines := l.View(&st, 10, 5, true)
	if lines[0] != "g" || l.Cursor() != 6 {
		t.Fatalf("the wheel scrolls the window and keeps the cursor in it: top %q cursor %d", lines[0], l.Cursor())
	}
	if row, _ := l.RowAt(1); row != 7 {
		t.Fatalf("after scrolling line 1 is row 7, got %d", row)
	}
	l.StartFilter()
	l.View(&st, 10, 5, true)
	if row, ok := l.RowAt(0); ok {
		t.Fatalf("line 0 is the filter line, not row %d", row)
	}
	if _, ok := l.RowAt(5); ok {
		t.Fatal("no row below the window")
	}
}

func TestFilterInputKeys(t *testing.T) {
	set := keymap.DefaultSet()
	keys := &set
	l := NewList(func(it string, s RowState) string { return it })
	l.SetIdentity(func(s string) string { return s })
	l.SetFilter(FilterWords(func(s string) string { return s }))
	l.SetItems([]string{"alpha", "beta", "gamma", "delta"})
	l.SetCursor(3) // delta
	l.StartFilter()
	for _, r := range "ta" {
		l.FilterInput(uitest.Key(string(r)), keys)
	}
	if l.Len() != 2 {
		t.Fatalf("'ta' keeps beta and delta, got %d", l.Len())
	}
	if it, _ := l.Selected(); it != "delta" {
		t.Fatalf("filtering keeps the cursor on its item, got %s", it)
	}
	if ev := l.FilterInput(uitest.Key("ctrl+u"), keys); ev != SearchEdited || l.Query() != "" || !l.Filtering() || l.Len() != 4 {
		t.Fatalf("ctrl+u clears the line and keeps it open: %v %q %v", ev, l.Query(), l.Filtering())
	}
	if it, _ := l.Selected(); it != "delta" {
		t.Fatalf("clearing keeps the cursor on the selected item, got %s", it)
	}
	l.FilterInput(uitest.Key("g"), keys)
	if ev := l.FilterInput(uitest.Key("enter"), keys); ev != SearchAccepted || l.Filtering() || l.Query() != "g" {
		t.Fatal("enter applies the filter and releases the keyboard")
	}
	if ev := l.FilterInput(uitest.Key("x"), keys); ev != SearchIgnored {
		t.Fatal("keys are ignored once the filter line is closed")
	}
}

func TestSearchStepsThroughMatches(t *testing.T) {
	set := keymap.DefaultSet()
	keys := &set
	rows := []string{"user hello", "assistant hi", "user fix the bug", "tool ls", "user thanks"}
	var s Search
	s.Start()
	for _, r := range "user" {
		if s.Key(uitest.Key(string(r)), keys) != SearchEdited {
			t.Fatal("typing edits the query")
		}
	}
	pos, ok := s.SetMatches(MatchWords(len(rows), func(i int) string { return rows[i] }, s.Query()), 1)
	if !ok || pos != 2 || s.Info() != "match 2/3" {
		t.Fatalf("the first match at or after the cursor (2) is current: %d %q", pos, s.Info())
	}
	if s.Key(uitest.Key("enter"), keys) != SearchAccepted || s.Typing() || !s.Active() {
		t.Fatal("enter applies the search and keeps it active")
	}
	if p, _ := s.Next(2); p != 4 {
		t.Fatalf("next after 2 is 4, got %d", p)
	}
	if p, _ := s.Next(4); p != 0 {
		t.Fatalf("next wraps to 0, got %d", p)
	}
	if p, _ := s.Prev(0); p != 4 || s.Info() != "match 3/3" {
		t.Fatalf("prev wraps to 4, got %d %q", p, s.Info())
	}
	if !s.IsMatch(2) || s.IsMatch(3) {
		t.Fatal("IsMatch tells matching positions")
	}
	st := themes.For(themes.Dark, true, false)
	if line := ansi.Strip(s.Line(&st)); line != "/ user  match 3/3" {
		t.Fatalf("search line %q", line)
	}
	s.Start()
	s.Key(uitest.Key("z"), keys)
	if _, ok := s.SetMatches(nil, 0); ok || s.Info() != "no match" {
		t.Fatal("no match is said")
	}
	if s.Key(uitest.Key("esc"), keys) != SearchCancelled || s.Active() {
		t.Fatal("esc drops the search")
	}
}

func TestFitHintsDropsByRankKeepsOrder(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	disabled := b("z", "never")
	disabled.SetEnabled(false)
	hints := append(Ranked(10, b("enter", "edit"), b("x", "delete"), b("ctrl+s", "save"), disabled),
		Hint{Binding: b("?", "help"), Rank: 0}, Hint{Binding: b("tab", "next pane"), Rank: 90})
	line, omitted := FitHints(&st, hints, 200)
	if got := ansi.Strip(line); got != "enter edit • x delete • ctrl+s save • ? help • tab next pane" || omitted != 0 {
		t.Fatalf("everything fits (disabled keys are never shown): %q", got)
	}
	line, omitted = FitHints(&st, hints, 40)
	if got := ansi.Strip(line); got != "enter edit • x delete • ? help" || omitted != 2 {
		t.Fatalf("the highest ranks go first, order kept: %q (%d omitted)", got, omitted)
	}
	line, _ = FitHints(&st, hints, 6)
	if got := ansi.Strip(line); got != "? help" {
		t.Fatalf("the most important hint stays: %q", got)
	}
}

func TestShorteningText(t *testing.T) {
	if got := MiddleEllipsis("0123456789", 5); got != "01…89" {
		t.Fatalf("MiddleEllipsis = %q", got)
	}
	p := "/tmp/forgebench-demo-1683967468/projects/demo-app"
	for w, want := range map[int]string{
		60: p, 40: "/tmp/forgebench-demo-…/projects/demo-app", 30: "/tmp/forgeb…/projects/demo-app",
		20: "/…/projects/demo-app", 12: "/…/demo-app", 8: "/tm…-app",
	} {
		if got := ShortenPath(p, w); got != want || ansi.StringWidth(got) > w {
			t.Errorf("ShortenPath(%d) = %q, want %q", w, got, want)
		}
	}
	if got := ShortenPath("~/projects/demo-app", 14); got != "~/…/demo-app" {
		t.Errorf("the home stays: %q", got)
	}
	// The "/…" form was one cell wider than asked at some widths, so the
	// header wrapped onto a second line and pushed the footer off screen.
	for _, p := range []string{p, "~/projects/demo-app", "/tmp/a15tmp/forgebench-demo-2337803594/projects/demo-app"} {
		for w := 1; w <= ansi.StringWidth(p); w++ {
			if got := ShortenPath(p, w); ansi.StringWidth(got) > w {
				t.Errorf("ShortenPath(%q, %d) = %q is %d cells wide", p, w, got, ansi.StringWidth(got))
			}
		}
	}
}

func TestFitFieldsShrinksThenDrops(t *testing.T) {
	plain := lipgloss.NewStyle()
	fields := []Field{
		{Value: "forgebench", Style: plain, Drop: 80},
		{Label: "cwd", Value: "/tmp/forgebench-demo-1683967468/projects/demo-app", Style: plain, Min: 12, Path: true, Cut: 90, Drop: 20},
		{Label: "trust", Value: "trusted", Short: "✓", Style: plain, Shorten: 95, Drop: 70},
		{Label: "session", Value: "Invoice rounding fix", Style: plain, Min: 8, Cut: 50},
		{Label: "entry", Value: "1212f568", Style: plain},
		{Label: "preset", Value: "project:guarded-worker", Style: plain, Min: 10, Cut: 40, Drop: 30},
	}
	full := FitFields(fields, plain, " │ ", 200)
	if !strings.Contains(full, "forgebench │ cwd /tmp/forgebench-demo-1683967468/projects/demo-app │ trust trusted") {
		t.Fatalf("at full width nothing shrinks: %q", full)
	}
	mid := FitFields(fields, plain, " │ ", 120)
	for _, want := range []string{"forgebench", "cwd /…/", "trust ✓", "session Invoice rounding fix", "entry 1212f568", "preset project:guarded-worker"} {
		if !strings.Contains(mid, want) {
			t.Errorf("at 100 cells %q lacks %q", mid, want)
		}
	}
	narrow := FitFields(fields, plain, " │ ", 78)
	if ansi.StringWidth(narrow) > 78 || strings.Contains(narrow, "forgebench │") {
		t.Fatalf("at 78 cells the least useful field goes first: %q", narrow)
	}
	for _, want := range []string{"cwd /…/demo-app", "session Invoice", "entry 1212f568", "preset project:"} {
		if !strings.Contains(narrow, want) {
			t.Errorf("at 78 cells %q lacks %q", narrow, want)
		}
	}
	tiny := FitFields(fields, plain, " │ ", 40)
	if ansi.StringWidth(tiny) > 40 || !strings.Contains(tiny, "entry 1212f568") || strings.Contains(tiny, "cwd") {
		t.Fatalf("a field without Drop stays: %q", tiny)
	}
}

func TestOverlayDimsTheScreenUnderneath(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	screen := strings.Repeat(st.Text.Danger.Render(strings.Repeat("x", 20))+"\n", 5) + st.Text.Danger.Render(strings.Repeat("x", 20))
	out := Overlay(screen, "+--+\n|ok|\n+--+", 20, 6)
	plain := ansi.Strip(out)
	lines := strings.Split(plain, "\n")
	if len(lines) != 6 || lines[0] != strings.Repeat("x", 20) || !strings.Contains(lines[2], "xxxxxxxx|ok|xxxxxxxx") {
		t.Fatalf("the box sits centred over the screen, which stays visible:\n%s", plain)
	}
	if strings.Contains(out, "\x1b[1;38") || !strings.Contains(out, "\x1b[2m") {
		t.Fatalf("the screen underneath is faint and loses its colours: %q", out[:60])
	}
	top := OverlayAt(screen, "box", 20, 6, -1, 0)
	if !strings.Contains(strings.Split(ansi.Strip(top), "\n")[0], "box") {
		t.Fatal("OverlayAt places the box at the row asked")
	}
}

// RowAt answers for every line of a row of several lines.
func TestListRowAtWithRowsOfSeveralLines(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	l := NewList(func(it string, s RowState) string { return it + "\n  detail of " + it })
	l.SetItems([]string{"a", "b", "c", "d"})
	lines := l.View(&st, 20, 5, true)
	if len(lines) != 5 {
		t.Fatalf("5 lines drawn, got %d", len(lines))
	}
	for line, want := range []int{0, 0, 1, 1, 2} {
		if row, ok := l.RowAt(line); !ok || row != want {
			t.Errorf("line %d shows row %d, got %d %v", line, want, row, ok)
		}
	}
}

func TestStatusClockExpiresTheNewestMessageOnce(t *testing.T) {
	var timers []StatusExpiredMsg
	com := &Common{Timer: func(_ time.Duration, msg tea.Msg) tea.Cmd {
		timers = append(timers, msg.(StatusExpiredMsg))
		return nil
	}}
	var c StatusClock
	if c.Schedule(com, false, false); len(timers) != 0 {
		t.Fatal("nothing shown: nothing to expire")
	}
	c.Set()
	c.Schedule(com, true, false)
	c.Schedule(com, true, false)
	if len(timers) != 1 || !c.Expired(timers[0]) {
		t.Fatalf("one expiry for the message shown: %v", timers)
	}
	c.Set()
	if c.Expired(timers[0]) {
		t.Fatal("an expiry for an older message ends the newer one")
	}
	var other StatusClock
	other.Set()
	if other.Expired(timers[0]) || c.Expired(StatusExpiredMsg{ID: 0}) {
		t.Fatal("another pane's expiry ends this one's message")
	}
}
