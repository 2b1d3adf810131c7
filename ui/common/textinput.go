package common

import (
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
	keys := keymap.DefaultTextEditor()
	if com != nil && com.Keys != nil {
		keys = com.Keys.Forms.Text
	}
	ApplyTextKeys(&ti, &keys)
	if com != nil {
		ApplyTextStyle(&ti, &com.Styles)
	} else {
		ApplyTextStyle(&ti, nil)
	}
	ti.SetValue(value)
	ti.CursorEnd()
	return ti
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
