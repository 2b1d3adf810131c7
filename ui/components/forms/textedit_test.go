package forms

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/uitest"
)

func newTestEditor(text string) *textEditor {
	km := keymap.DefaultTextEditor()
	return newTextEditor(&km, text)
}

func (e *textEditor) press(keys ...string) *textEditor {
	for _, k := range keys {
		e.update(uitest.Key(k))
	}
	return e
}

func (e *textEditor) typeText(s string) *textEditor {
	for _, r := range s {
		e.update(uitest.Key(string(r)))
	}
	return e
}

func TestTextEditorEdits(t *testing.T) {
	e := newTestEditor("{\n  \"a\": 1\n}")
	e.press("down", "end").typeText(",")
	e.press("enter").typeText(`  "b": 2`)
	if got := e.Value(); got != "{\n  \"a\": 1,\n  \"b\": 2\n}" {
		t.Fatalf("typing: %q", got)
	}
	// backspace at a line start joins it to the line before
	e.press("home", "backspace")
	if got := e.Value(); got != "{\n  \"a\": 1,  \"b\": 2\n}" || e.row != 1 || e.col != len(`  "a": 1,`) {
		t.Fatalf("join: %q at %d:%d", got, e.row, e.col)
	}
	// delete at a line end joins the next line
	e.press("end", "delete")
	if got := e.Value(); got != "{\n  \"a\": 1,  \"b\": 2}" {
		t.Fatalf("delete: %q", got)
	}
	// ctrl+k cuts to the end, ctrl+u to the start
	e.press("home", "right", "right", "ctrl+k")
	if got := e.Value(); got != "{\n  " {
		t.Fatalf("kill to end: %q", got)
	}
	e.press("ctrl+u")
	if got := e.Value(); got != "{\n" || e.col != 0 {
		t.Fatalf("kill to start: %q", got)
	}
	// a paste splits at its newlines and leaves the cursor after it
	e.update(tea.PasteMsg{Content: "x\r\ny"})
	if got := e.Value(); got != "{\nx\ny" || e.row != 2 || e.col != 1 {
		t.Fatalf("paste: %q at %d:%d", got, e.row, e.col)
	}
	// nothing to delete before the start or after the end
	e.press("ctrl+home")
	if e.update(uitest.Key("backspace")) || e.row != 0 || e.col != 0 {
		t.Fatal("backspace at the start changed something")
	}
	e.press("ctrl+end")
	if e.update(uitest.Key("delete")) || e.row != 2 || e.col != 1 {
		t.Fatal("delete at the end changed something")
	}
	// control keys do not type
	if e.update(uitest.Key("ctrl+x")) || e.Value() != "{\nx\ny" {
		t.Fatal("ctrl+x typed")
	}
}

// TestTextEditorColumnMemory: up and down aim at the column the cursor
// was at, through shorter lines.
func TestTextEditorColumnMemory(t *testing.T) {
	e := newTestEditor("abcdef\nab\nabcdef")
	e.press("end", "down")
	if e.col != 2 {
		t.Fatalf("col %d on the short line", e.col)
	}
	e.press("down")
	if e.col != 6 {
		t.Fatalf("col %d, want back at 6", e.col)
	}
}

// TestTextEditorShowsOnlyTheWindow: the view is height lines around the
// cursor, a long line scrolls sideways to keep the cursor, and wide
// characters count as two cells.
func TestTextEditorShowsOnlyTheWindow(t *testing.T) {
	st := themes.For(themes.Dark, true, true)
	lines := make([]string, 1000)
	for i := range lines {
		lines[i] = "line"
	}
	lines[500] = strings.Repeat("x", 300) + "END"
	e := newTestEditor(strings.Join(lines, "\n"))
	e.setSize(40, 10) // as the raw form's SetSize does
	for range 500 {
		e.press("down")
	}
	e.press("end")
	view := e.view(&st, 40, 10)
	if len(view) != 10 {
		t.Fatalf("%d lines drawn for a height of 10", len(view))
	}
	cur := ""
	for _, l := range view {
		if w := ansi.StringWidth(l); w > 40 {
			t.Fatalf("a line of %d cells in 40: %q", w, ansi.Strip(l))
		}
		if strings.HasPrefix(strings.TrimSpace(ansi.Strip(l)), "501 ") {
			cur = ansi.Strip(l)
		}
	}
	if !strings.Contains(cur, "END") {
		t.Fatalf("the cursor's line does not show the cursor's end: %q", cur)
	}
	w := newTestEditor("日本語のテキスト")
	w.setSize(12, 1)
	w.press("end")
	if got := ansi.Strip(strings.Join(w.view(&st, 12, 1), "")); !strings.Contains(got, "キスト") || ansi.StringWidth(got) > 12 {
		t.Fatalf("wide text: %q", got)
	}
}

// FuzzTextEditor: any sequence of keys and pastes keeps the cursor inside
// the text and the view inside its box.
func FuzzTextEditor(f *testing.F) {
	f.Add("{\n  \"a\": 1\n}", []byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add("", []byte{9, 9, 10, 11, 12})
	keys := []string{"left", "right", "up", "down", "home", "end", "ctrl+home", "ctrl+end", "enter", "tab",
		"backspace", "delete", "ctrl+k", "ctrl+u", "pgup", "pgdown", "x", "日", " ", "alt+b", "alt+f", "ctrl+w", "alt+d"}
	st := themes.For(themes.Dark, true, true)
	f.Fuzz(func(t *testing.T, text string, ops []byte) {
		e := newTestEditor(text)
		e.setSize(20, 5)
		for _, op := range ops {
			if int(op) < len(keys) {
				e.update(uitest.Key(keys[op]))
			} else {
				e.update(tea.PasteMsg{Content: string(rune(op)) + "\n"})
			}
			if e.row < 0 || e.row >= len(e.lines) || e.col < 0 || e.col > len(e.lines[e.row]) {
				t.Fatalf("cursor %d:%d outside the text", e.row, e.col)
			}
		}
		for _, l := range e.view(&st, 20, 5) {
			if ansi.StringWidth(l) > 20 {
				t.Fatalf("line wider than the box: %q", l)
			}
		}
	})
}

// Issue 21: with the cursor at the end of a long line, the editor
// scrolled every line sideways and the short ones went blank. Only the
// cursor's line scrolls; the others keep their start on screen.
func TestTextEditorScrollsOnlyTheCursorLineSideways(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	long := `  "description": "` + strings.Repeat("sonnet at medium thinking ", 6) + `",`
	e := newTestEditor("{\n  \"id\": \"tdd-worker\",\n" + long + "\n  \"autoActivate\": true\n}")
	e.setSize(40, 10)
	e.press("down", "down", "end")
	lines := e.view(&st, 40, 10)
	for i, want := range []string{"{", `"id": "tdd-worker"`, "", `"autoActivate": true`, "}"} {
		got := ansi.Strip(lines[i])
		if want != "" && !strings.Contains(got, want) {
			t.Errorf("line %d lost its text while the cursor's line scrolls: %q", i+1, got)
		}
	}
	if got := ansi.Strip(lines[2]); !strings.Contains(got, `thinking ",`) {
		t.Errorf("the cursor's line shows its end: %q", got)
	}
	if got := ansi.Strip(lines[1]); ansi.StringWidth(got) > 40 {
		t.Errorf("a line is wider than the editor: %q", got)
	}
}
