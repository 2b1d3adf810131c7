package capabilities

import (
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// observed is what a user sees move: the focus, the library's cursor, the
// detail's scroll, the session view's card and scroll, and the editor's
// field and tool cursor.
func observed(m *Model) string {
	s := fmt.Sprintf("focus %d mode %d lib %d detail %d/%d view %d/%d", m.focus, m.mode, m.list.Cursor(),
		m.detail.offset, m.detail.maxOffset, m.view.cursor, m.view.offset)
	if m.edit != nil {
		s += fmt.Sprintf(" edit %d/%d", m.edit.field, m.edit.toolCursor)
	}
	return s
}

// checkPure draws the panel twice: the model is the same after as before
// (uitest.DumpState, which leaves out only the kit's list frame caches),
// and both screens are the same.
func checkPure(t *testing.T, hs *harness, step string) {
	t.Helper()
	seen := observed(hs.m)
	uitest.AssertDrawOnly(t, hs.m, hs.m.View, step)
	if got := observed(hs.m); got != seen {
		t.Fatalf("%s: View moved what the user sees: %s → %s", step, seen, got)
	}
}

// TestViewChangesNothing: in every state the panel is walked through —
// the library, the detail scrolled, the bindings view, the session view
// with a card expanded and scrolled, the editor on a text field and on
// the tool picker, a preview, a prompt — View only draws, at both sizes
// and after a resize (SetSize lays the panes out again, View still only
// draws).
func TestViewChangesNothing(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}, {160, 14}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			hs := newHarness(t, size.w, size.h, true)
			check := func(step string) {
				t.Helper()
				checkPure(t, hs, step)
				hs.m.SetSize(size.w+7, size.h+5)
				checkPure(t, hs, step+" (resized)")
				hs.m.SetSize(size.w, size.h)
				checkPure(t, hs, step+" (resized back)")
			}
			check("library")
			hs.focusOn(paneDetail)
			hs.Press("j", "j", "j", "j", "j", "j", "j", "j")
			check("the detail scrolled")
			hs.Press("b")
			check("the bindings view")
			hs.Press("j")
			check("the bindings view, moved")
			hs.Press("b")
			hs.focusOn(paneSession)
			check("the session view")
			hs.Press("j", "space")
			check("a card expanded")
			hs.Press("k", "j")
			check("a card expanded, moved")
			hs.focusOn(paneLibrary)
			hs.selectCapability("project:review-mode")
			hs.Press("enter")
			if hs.m.edit == nil {
				t.Fatal("the editor did not open")
			}
			check("the editor")
			hs.Type("x")
			check("the editor, typed in")
			hs.Press("tab", "tab", "tab")
			check("the editor's tool picker")
			hs.Press("j", "j", "j")
			check("the editor's tool picker, moved")
			hs.Press("esc")
			if hs.dialogOpen() {
				hs.Press("y")
			}
			hs.focusOn(paneLibrary)
			hs.selectCapability("project:test-runner")
			hs.Press("+")
			if hs.preview() == nil {
				t.Fatal("no preview")
			}
			check("a preview")
			hs.Press("esc", "A")
			if hs.prompt() == nil {
				t.Fatal("no prompt")
			}
			check("a prompt")
		})
	}
}

// TestDetailScrollsBackAtOnce: keys pressed past the end of a
// capability's text are not owed back — the first key up after them
// moves the text (the offset grew without bound in Update and only the
// drawing was clamped, so after twenty keys down past the end the next
// twenty keys up did nothing on screen).
func TestDetailScrollsBackAtOnce(t *testing.T) {
	hs := newHarness(t, 160, 14, true)
	hs.focusOn(paneDetail)
	last := hs.m.detail.maxOffset
	if last < 3 {
		t.Fatalf("the detail fits its pane (last offset %d): nothing to scroll", last)
	}
	for range last + 20 {
		hs.Press("j")
	}
	atEnd := hs.m.View()
	hs.Press("k")
	if hs.m.detail.offset != last-1 {
		t.Fatalf("one key up from the end: offset %d, want %d", hs.m.detail.offset, last-1)
	}
	if hs.m.View() == atEnd {
		t.Error("one key up from the end does not move the text")
	}
}
