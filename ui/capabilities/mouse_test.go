package capabilities

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/ui/uitest"
)

func click(hs *harness, x, y int) { uitest.Click(hs.Harness, x, y) }

func wheel(hs *harness, x, y int, down bool) { uitest.Wheel(hs.Harness, x, y, down) }

// TestMouseActsOnThePaneUnderThePointer: in the wide layout a click
// selects a capability (a second click opens its editor, as enter does),
// the wheel scrolls the detail under the pointer whatever has focus, and a
// click on an active capability's card selects it (a second click expands
// it).
func TestMouseActsOnThePaneUnderThePointer(t *testing.T) {
	hs := newHarness(t, 160, 36, true) // both cards in view
	l := hs.m.layout()
	hs.focusOn(paneSession)
	click(hs, 5, 2) // the library's second row
	if hs.m.focus != paneLibrary || hs.m.list.Cursor() != 1 {
		t.Fatalf("click on the second capability: focus %d cursor %d", hs.m.focus, hs.m.list.Cursor())
	}
	// The session view at the leaf shows two active capabilities.
	starts := hs.m.view.starts
	if len(starts) != 2 {
		t.Fatalf("the demo leaf has %d cards", len(starts))
	}
	sessionTop := l.detail.h
	click(hs, l.library.w+5, sessionTop+1+starts[1]-hs.m.view.offset)
	if hs.m.focus != paneSession || hs.m.view.cursor != 1 {
		t.Fatalf("click on the second card: focus %d cursor %d", hs.m.focus, hs.m.view.cursor)
	}
	a, _ := hs.m.view.selectedActive()
	click(hs, l.library.w+5, sessionTop+1+starts[1]-hs.m.view.offset)
	if !hs.m.view.expanded[a.Snapshot.ActivationID] {
		t.Error("a click on the selected card does not expand it")
	}
	// A click on the selected capability opens its editor.
	click(hs, 5, 2)
	click(hs, 5, 2)
	if hs.m.edit == nil {
		t.Error("a click on the selected capability does not open its editor")
	}
}

// TestWheelScrollsTheDetail: on a short screen the wheel scrolls the
// capability's text under the pointer, whatever has focus, and stops at
// its last line.
func TestWheelScrollsTheDetail(t *testing.T) {
	hs := newHarness(t, 160, 14, true)
	l := hs.m.layout()
	for range 50 {
		wheel(hs, l.library.w+5, 2, true)
	}
	if hs.m.detail.maxOffset < 4 || hs.m.detail.offset != hs.m.detail.maxOffset || hs.m.focus == paneDetail {
		t.Fatalf("wheel over the detail: offset %d of %d, focus %d", hs.m.detail.offset, hs.m.detail.maxOffset, hs.m.focus)
	}
	wheel(hs, l.library.w+5, 2, false)
	if hs.m.detail.offset != hs.m.detail.maxOffset-3 {
		t.Errorf("wheel up over the detail: offset %d, want %d", hs.m.detail.offset, hs.m.detail.maxOffset-3)
	}
}

// TestMouseIgnoredUnderADialog: while a dialog is open the mouse does
// nothing.
func TestMouseIgnoredUnderADialog(t *testing.T) {
	hs := newHarness(t, 160, 30, true)
	hs.Press("a")
	if !hs.dialogOpen() {
		t.Fatal("a opens the new-capability dialog")
	}
	click(hs, 5, 2)
	if hs.m.list.Cursor() != 0 {
		t.Error("a click under a dialog moved the library's cursor")
	}
}

// The idle status line listed the panel's keys as a fixed string, cut with
// "…" at 80 columns and wrong once a key is rebound: it is generated from
// the keymap now and fitted whole hints at a time.
func TestIdleStatusLineComesFromTheKeymap(t *testing.T) {
	hs := newHarness(t, 80, 24, true)
	hs.m.keys.Reset = key.NewBinding(key.WithKeys("Z"), key.WithHelp("Z", "reset all"))
	line := ansi.Strip(hs.m.statusLine())
	if !strings.HasPrefix(line, "B enable binding • A add directive • Z reset all") || strings.Contains(line, "…") || ansi.StringWidth(line) != 80 {
		t.Fatalf("status line %q", line)
	}
}

// The idle status line and the footer listed the same keys (enter, a, n,
// b twice on one screen): the line keeps to the keys that act from any
// pane and the focused pane's footer (ShortHelp) does not show.
func TestIdleStatusLineRepeatsNoFooterKey(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	for _, p := range []pane{paneLibrary, paneDetail, paneSession} {
		hs.focusOn(p)
		line := strings.TrimSpace(ansi.Strip(hs.m.statusLine()))
		if p != paneSession && line == "" {
			t.Errorf("pane %d: the idle line shows none of the session actions", p)
		}
		for _, b := range hs.m.ShortHelp() {
			if hint := b.Help().Key + " " + b.Help().Desc; strings.Contains(line, hint) {
				t.Errorf("pane %d: %q is in the footer and in the status line %q", p, hint, line)
			}
		}
	}
}
