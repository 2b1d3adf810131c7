package common

import (
	tea "charm.land/bubbletea/v2"
	"image/color"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// NewTextInput returns a one-line text input with prompt before the text
// and value in it (cursor at its end), set up like every one-line input of
// the workbench: the keys of com.Keys.Forms.Text (the defaults when com
// has no keys) and the theme's steady cursor. It is not focused.
func NewTextInput(com *Common, prompt, value string) textinput.Model {
	ti := textinput.New()
	ti.Prompt = prompt
	ApplyTextKeys(&ti, TextKeys(com))
	if com != nil {
		ApplyTextStyle(&ti, &com.Styles)
	} else {
		ApplyTextStyle(&ti, nil)
	}
	ti.SetValue(value)
	ti.CursorEnd()
	return ti
}

// TextKeys are the one-line text keys of com.Keys (form.text.*), the
// defaults when com has no keys.
func TextKeys(com *Common) *keymap.TextEditor {
	if com != nil && com.Keys != nil {
		return &com.Keys.Forms.Text
	}
	d := keymap.DefaultTextEditor()
	return &d
}

// ApplyTextKeys maps the keymap's text keys onto a one-line text input, so
// a user's rebinding of a form.text.* key reaches every one-line input.
// The suggestion keys stay unbound: no input offers suggestions, and ↑/↓
// belong to the list or form around it.
func ApplyTextKeys(ti *textinput.Model, k *keymap.TextEditor) {
	none := key.NewBinding(key.WithDisabled())
	ti.KeyMap = textinput.KeyMap{
		CharacterForward: k.Right, CharacterBackward: k.Left,
		WordForward: k.WordRight, WordBackward: k.WordLeft,
		DeleteWordBackward: k.DeleteWordBefore, DeleteWordForward: k.DeleteWordAfter,
		DeleteAfterCursor: k.KillToEnd, DeleteBeforeCursor: k.KillToStart,
		DeleteCharacterBackward: k.DeleteBefore, DeleteCharacterForward: k.DeleteAfter,
		LineStart: k.LineStart, LineEnd: k.LineEnd, Paste: k.Paste,
		AcceptSuggestion: none, NextSuggestion: none, PrevSuggestion: none,
	}
}

// ApplyTextStyle gives a text input the theme's cursor: the colour of
// normal text (bubbles' grey default nearly vanishes on a light terminal)
// and no blinking, which would only add timer traffic and make views
// depend on time. st nil keeps bubbles' colour but still stops the blink.
func ApplyTextStyle(ti *textinput.Model, st *themes.Styles) {
	s := ti.Styles()
	s.Cursor.Blink = false
	if st != nil {
		s.Cursor.Color = TextCursorColor(st)
	}
	ti.SetStyles(s)
}

// TextCursorColor is the colour of the cursor of every text input under
// the theme st.
func TextCursorColor(st *themes.Styles) color.Color {
	return st.Text.Normal.GetForeground()
}

// LineInput is a one-line text field for a line the kit draws itself (a
// list's filter, a pane's search line, the global search query): a
// bubbles textinput with the keymap's text keys, given with each key so a
// rebinding applies at once, and the theme's cursor, given when drawn so
// a theme switch applies at once. The zero value is an empty line.
type LineInput struct {
	ti    textinput.Model
	ready bool
}

// init builds the text input on first use, so the zero value works.
func (l *LineInput) init() {
	if !l.ready {
		l.ti = textinput.New()
		l.ti.Prompt = ""
		ApplyTextStyle(&l.ti, nil)
		l.ti.Focus()
		l.ready = true
	}
}

// Value is the text.
func (l *LineInput) Value() string {
	if !l.ready {
		return ""
	}
	return l.ti.Value()
}

// SetValue replaces the text and puts the cursor at its end.
func (l *LineInput) SetValue(s string) {
	l.init()
	l.ti.SetValue(typedText(s))
	l.ti.CursorEnd()
}

// Key edits the text with one key under the text keys k (nil: the
// defaults) and reports whether the text changed. Text typed or pasted
// stays on one line (control characters dropped, tabs and newlines as
// spaces). The clipboard key's read is started by the returned command.
func (l *LineInput) Key(msg tea.Msg, k *keymap.TextEditor) (changed bool, cmd tea.Cmd) {
	l.init()
	if k == nil {
		d := keymap.DefaultTextEditor()
		k = &d
	}
	ApplyTextKeys(&l.ti, k)
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		if m.Text != "" {
			m.Text = typedText(m.Text)
			if m.Text == "" {
				return false, nil
			}
		}
		msg = m
	case tea.PasteMsg:
		msg = tea.PasteMsg{Content: typedText(m.Content)}
	}
	before := l.ti.Value()
	l.ti, cmd = l.ti.Update(msg)
	return l.ti.Value() != before, cmd
}

// View draws the text with the cursor of theme st when cursor is true,
// else the plain text, in st.Text.Normal.
func (l *LineInput) View(st *themes.Styles, cursor bool) string {
	if !cursor {
		return st.Text.Normal.Render(l.Value())
	}
	l.init() // a line just opened shows its cursor before the first key
	ti := l.ti
	s := ti.Styles()
	s.Focused.Text = st.Text.Normal
	s.Cursor.Blink = false
	s.Cursor.Color = TextCursorColor(st)
	ti.SetStyles(s)
	return ti.View()
}
