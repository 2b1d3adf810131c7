package common_test

import (
	"strings"
	"sync"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
	. "github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

func TestMarkdownSharesOneRendererPerThemeAndWidth(t *testing.T) {
	dark, light := themes.For(themes.Dark, true, false), themes.For(themes.Light, false, false)
	md := NewMarkdown()
	var wg sync.WaitGroup
	for range 8 { // commands render concurrently
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, ok := md.Render(&dark, 40, "# Title\n\nsome **bold** text"); !ok || !strings.Contains(ansi.Strip(out), "bold") {
				t.Errorf("render failed: %q", out)
			}
		}()
	}
	wg.Wait()
	if md.Renderers() != 1 {
		t.Fatalf("%d renderers for one theme and width", md.Renderers())
	}
	d40, _ := md.Render(&dark, 40, "some **bold** text")
	l40, _ := md.Render(&light, 40, "some **bold** text")
	md.Warm(&dark, 60)
	if md.Renderers() != 3 {
		t.Fatalf("want a renderer per theme and width (3), got %d", md.Renderers())
	}
	if d40 == l40 {
		t.Fatal("the light theme must not reuse the dark rendering")
	}
	if again, _ := md.Render(&dark, 40, "some **bold** text"); again != d40 {
		t.Fatal("the same text at the same width and theme renders the same")
	}
	if strings.HasPrefix(d40, "\n") || strings.HasSuffix(d40, "\n") {
		t.Fatalf("renders are trimmed: %q", d40)
	}
}

func TestConfirmAnswersAndOverlayIsClampedToTheScreen(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	c := Confirm{Title: "Quit?", Body: "Quit and discard the draft of project:review?",
		Yes: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "quit")),
		No:  key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "keep working"))}
	for k, want := range map[string]Answer{"y": Yes, "n": No, "esc": No, "q": Pending, "enter": Pending} {
		if got := c.Answer(uitest.Key(k)); got != want {
			t.Errorf("%s answered %v, want %v", k, got, want)
		}
	}
	screen := strings.TrimSuffix(strings.Repeat(strings.Repeat("·", 40)+"\n", 10), "\n")
	for _, size := range [][2]int{{40, 10}, {20, 4}} {
		w, h := size[0], size[1]
		under := lipgloss.NewStyle().MaxWidth(w).MaxHeight(h).Render(screen)
		out := Overlay(under, c.View(&st, w, h), w, h)
		uitest.AssertFills(t, out, w, h)
		plain := ansi.Strip(out)
		if !strings.Contains(plain, "Quit?") && w >= 40 {
			t.Fatalf("the dialog is not drawn:\n%s", plain)
		}
		if w >= 40 && (!strings.Contains(plain, "y quit · n/esc keep working") || !strings.HasPrefix(plain, "····")) {
			t.Fatalf("the hint comes from the bindings and the screen shows around the dialog:\n%s", plain)
		}
	}
}

func TestWrapAndDialogInner(t *testing.T) {
	if got := Wrap("one two three four", 9); strings.Join(got, "|") != "one two|three|four" {
		t.Fatalf("Wrap = %q", got)
	}
	if Wrap("x", 0) != nil {
		t.Fatal("no width, no lines")
	}
	for _, c := range [][2]int{{20, 26}, {80, 68}, {200, 68}} {
		if got := DialogInner(c[0]); got != c[1] {
			t.Errorf("DialogInner(%d) = %d, want %d", c[0], got, c[1])
		}
	}
}

// A dialog never cuts what a user must copy (issue 21): WrapWhole breaks
// only at spaces and newlines, so "-edit -write" and a UUID stay whole
// on a line where they fit, and splits only a word longer than a line;
// a Confirm and a DialogBox line longer than the dialog wrap instead of
// ending in "…".
func TestDialogsWrapIDsWhole(t *testing.T) {
	id := "7ed8f881-250e-4e40-9b73-13327dde9dcc"
	for _, c := range []struct {
		text  string
		width int
		want  string
	}{
		{"tools -edit -write -bash; a notice", 20, "tools -edit -write|-bash; a notice"},
		{"stop " + id + " later", 40, "stop|" + id + "|later"},
		{"a " + id, 20, "a|7ed8f881-250e-4e40-9|b73-13327dde9dcc"},
		{"one\n\ntwo  three", 20, "one||two three"},
		{"  --session 01a21c48 \\", 30, "  --session 01a21c48 \\"},
	} {
		if got := strings.Join(WrapWhole(c.text, c.width), "|"); got != c.want {
			t.Errorf("WrapWhole(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
	st := themes.For(themes.Dark, true, true)
	c := Confirm{Title: "Disable?", Body: "Run forgebench capability disable " + id + " --session 01a21c48-87b8-7bf2-bec6-d1b0faeb6b39 later.",
		Yes: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")), No: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "no"))}
	box := ansi.Strip(DialogBox(&st, 80, 24, "t", []string{"x " + strings.Repeat(id, 3)}, ""))
	for _, view := range []string{ansi.Strip(c.View(&st, 80, 24)), box} {
		if strings.Contains(view, "…") {
			t.Errorf("a dialog cut a line:\n%s", view)
		}
	}
	if !strings.Contains(ansi.Strip(c.View(&st, 80, 24)), "│ "+id+" ") {
		t.Errorf("the id is not whole on a line:\n%s", ansi.Strip(c.View(&st, 80, 24)))
	}
}

// The focused pane is marked by its border's shape, not only its colour:
// with NO_COLOR (no colour at all) it still stands out.
func TestFrameMarksTheFocusWithoutColour(t *testing.T) {
	st := themes.For(themes.Dark, true, true) // NO_COLOR
	plain := ansi.Strip(Frame(st, 20, 4, "Tree", "3/9", false, []string{"row"}))
	focused := ansi.Strip(Frame(st, 20, 4, "Tree", "3/9", true, []string{"row"}))
	if plain == focused {
		t.Fatalf("focused and unfocused panes look the same without colour:\n%s", plain)
	}
	for _, f := range []string{plain, focused} {
		lines := strings.Split(f, "\n")
		if len(lines) != 4 {
			t.Fatalf("%d lines:\n%s", len(lines), f)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w != 20 {
				t.Fatalf("a line is %d cells wide, want 20: %q", w, l)
			}
		}
	}
	if !strings.HasPrefix(focused, "┏━ Tree ━") || !strings.HasSuffix(focused, "━ 3/9 ━┛") || !strings.Contains(focused, "┃ row") {
		t.Fatalf("the focused pane has a heavy border:\n%s", focused)
	}
	if !strings.HasPrefix(plain, "╭─ Tree ─") || !strings.HasSuffix(plain, "─ 3/9 ─╯") {
		t.Fatalf("the other panes keep the light one:\n%s", plain)
	}
}
