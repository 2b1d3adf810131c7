package capabilities

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
)

// Window sizes of windowedArea, in logical lines.
const (
	// windowLines is how many lines the textarea holds at most around the
	// cursor (the rest waits in before/after).
	windowLines = 160
	// windowMargin is how close the cursor may come to either end of the
	// window before it is moved; it exceeds any page the editor shows.
	windowMargin = 50
)

// windowedArea is a bubbles textarea over a window of the text's lines.
// The textarea renders every line it holds on each update and frame, so a
// capability at pi-forge's 100,000-character limit made every keypress
// cost well over 100 ms; here it holds at most windowLines lines around the
// cursor and the window moves with the cursor, keeping a keypress at the
// cost of a few thousand characters.
type windowedArea struct {
	area          textarea.Model
	before, after []string // the lines outside the window
}

// newWindowedArea returns an empty area.
func newWindowedArea() windowedArea { return windowedArea{area: textarea.New()} }

// Focus gives the area the keyboard.
func (w *windowedArea) Focus() tea.Cmd { return w.area.Focus() }

// Blur takes the keyboard away.
func (w *windowedArea) Blur() { w.area.Blur() }

// SetWidth sets the width in cells.
func (w *windowedArea) SetWidth(width int) { w.area.SetWidth(width) }

// SetHeight sets the height in rows.
func (w *windowedArea) SetHeight(height int) { w.area.SetHeight(height) }

// View draws the visible rows of the window.
func (w *windowedArea) View() string { return w.area.View() }

// SetValue replaces the text and puts the cursor at its end, as the
// textarea's SetValue does.
func (w *windowedArea) SetValue(s string) {
	lines := strings.Split(s, "\n")
	w.load(lines, len(lines)-1, len([]rune(lines[len(lines)-1])))
}

// Value is the whole text.
func (w *windowedArea) Value() string {
	if len(w.before) == 0 && len(w.after) == 0 {
		return w.area.Value()
	}
	parts := make([]string, 0, 3)
	if len(w.before) > 0 {
		parts = append(parts, strings.Join(w.before, "\n"))
	}
	parts = append(parts, w.area.Value())
	if len(w.after) > 0 {
		parts = append(parts, strings.Join(w.after, "\n"))
	}
	return strings.Join(parts, "\n")
}

// cursor is the cursor's line in the whole text and its column.
func (w *windowedArea) cursor() (line, col int) {
	return len(w.before) + w.area.Line(), w.area.Column()
}

// Update routes msg to the textarea; a jump to the start or end of the
// input goes to the start or end of the whole text. The window follows.
func (w windowedArea) Update(msg tea.Msg) (windowedArea, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && (len(w.before) > 0 || len(w.after) > 0) {
		switch {
		case key.Matches(k, w.area.KeyMap.InputBegin):
			w.load(w.lines(), 0, 0)
			return w, nil
		case key.Matches(k, w.area.KeyMap.InputEnd):
			lines := w.lines()
			w.load(lines, len(lines)-1, len([]rune(lines[len(lines)-1])))
			return w, nil
		}
	}
	var cmd tea.Cmd
	w.area, cmd = w.area.Update(msg)
	row, n := w.area.Line(), w.area.LineCount()
	if (row < windowMargin && len(w.before) > 0) || (row >= n-windowMargin && len(w.after) > 0) || n > windowLines+windowMargin {
		line, col := w.cursor()
		w.load(w.lines(), line, col)
	}
	return w, cmd
}

// lines is the whole text split into lines.
func (w *windowedArea) lines() []string {
	return append(append(append([]string{}, w.before...), strings.Split(w.area.Value(), "\n")...), w.after...)
}

// load puts lines into the area with the window centred on line and the
// cursor at line, col.
func (w *windowedArea) load(lines []string, line, col int) {
	line = max(0, min(line, len(lines)-1))
	start := max(0, min(line-windowLines/2, len(lines)-windowLines))
	end := min(len(lines), start+windowLines)
	w.before = append([]string{}, lines[:start]...)
	w.after = append([]string{}, lines[end:]...)
	w.area.SetValue(strings.Join(lines[start:end], "\n"))
	w.area.MoveToBegin()
	// Each step moves one visual row down; the bound only guards the loop.
	for steps := w.area.Length() + end - start; w.area.Line() < line-start && steps > 0; steps-- {
		w.area.CursorDown()
	}
	w.area.SetCursorColumn(col)
	w.area, _ = w.area.Update(nil) // scroll the cursor into view
}
