package capabilities

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// bigContent is about 100,000 characters in 1,000 numbered lines.
func bigContent() string {
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%04d %s", i, strings.Repeat("keep it small and run the tests ", 3))
	}
	return b.String()
}

func newBigArea(t *testing.T, text string) windowedArea {
	t.Helper()
	w := newWindowedArea()
	w.area.CharLimit = 0
	w.area.MaxHeight = 0
	w.SetWidth(120)
	w.SetHeight(30)
	w.Focus()
	w.SetValue(text)
	return w
}

func press(w windowedArea, keys ...string) windowedArea {
	for _, k := range keys {
		w, _ = w.Update(uitest.Key(k))
	}
	return w
}

// TestWindowedAreaHoldsAWindow: a 100,000-character text is not all in the
// textarea (which renders every line it holds on each keypress), and the
// whole text comes back unchanged.
func TestWindowedAreaHoldsAWindow(t *testing.T) {
	text := bigContent()
	w := newBigArea(t, text)
	if n := w.area.LineCount(); n > windowLines {
		t.Fatalf("the textarea holds %d lines, want at most %d", n, windowLines)
	}
	if w.Value() != text {
		t.Fatal("Value does not return the text set")
	}
	if line, col := w.cursor(); line != 999 || col != len("0999 ")+3*len("keep it small and run the tests ") {
		t.Fatalf("cursor at %d:%d, want the end like textarea.SetValue", line, col)
	}
}

// TestWindowedAreaEditsAcrossTheWindow: moving through the whole text and
// typing on the way edits the right lines; ctrl+home and ctrl+end reach
// the ends of the whole text, not of the window.
func TestWindowedAreaEditsAcrossTheWindow(t *testing.T) {
	text := bigContent()
	w := newBigArea(t, text)
	w = press(w, "ctrl+home")
	if line, col := w.cursor(); line != 0 || col != 0 {
		t.Fatalf("ctrl+home: cursor at %d:%d", line, col)
	}
	want := strings.Split(text, "\n")
	last := 0
	for i := 0; i < 25; i++ { // page down through most of the text, typing on the way
		w = press(w, "pgdown", "home", "X")
		line, _ := w.cursor()
		if line <= last {
			t.Fatalf("page down %d stayed on line %d", i, line)
		}
		last = line
		want[line] = "X" + want[line]
	}
	if last < 400 {
		t.Fatalf("25 pages reached line %d only", last)
	}
	if n := w.area.LineCount(); n > windowLines {
		t.Fatalf("the window grew to %d lines", n)
	}
	w = press(w, "ctrl+end", "Z")
	want[999] += "Z"
	// Up twice keeps the column at the end of line 997: enter adds an
	// empty line after it.
	w = press(w, "up", "up", "enter")
	if line, _ := w.cursor(); line != 998 {
		t.Fatalf("enter at the end of line 997 left the cursor on %d", line)
	}
	want = append(want[:998], append([]string{""}, want[998:]...)...)
	if got := w.Value(); got != strings.Join(want, "\n") {
		t.Fatalf("edits across the window went astray:\n%s", got[:200])
	}
}
