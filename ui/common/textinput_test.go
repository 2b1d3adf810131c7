package common

import (
	"fmt"
	"strings"

	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

func sameColor(t *testing.T, what string, got, want interface{ RGBA() (r, g, b, a uint32) }) {
	t.Helper()
	if got == nil || want == nil {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	gr, gg, gb, ga := got.RGBA()
	wr, wg, wb, wa := want.RGBA()
	if gr != wr || gg != wg || gb != wb || ga != wa {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

// A rebinding in the keymap.Set reaches the kit's text input, and its
// cursor takes the theme's colour and does not blink.
func TestNewTextInputTakesTheSetsTextKeysAndTheThemesCursor(t *testing.T) {
	keys := keymap.DefaultSet()
	if err := keymap.Apply(&keys, map[string][]string{"form.text.word-left": {"ctrl+o"}}); err != nil {
		t.Fatal(err)
	}
	com := &Common{Styles: themes.For(themes.Light, true, false), Keys: &keys}
	ti := NewTextInput(com, "id: ", "one two")
	ti.Focus()
	if ti.Prompt != "id: " || ti.Value() != "one two" || ti.Position() != len("one two") {
		t.Fatalf("prompt %q value %q position %d", ti.Prompt, ti.Value(), ti.Position())
	}
	ti, _ = ti.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	if ti.Position() != len("one ") {
		t.Fatalf("rebound word-left moved the cursor to %d, want %d", ti.Position(), len("one "))
	}
	ti, _ = ti.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt})
	if ti.Position() != len("one ") {
		t.Fatalf("alt+b still moves after the rebinding (cursor %d)", ti.Position())
	}
	st := ti.Styles()
	if st.Cursor.Blink {
		t.Error("the cursor blinks")
	}
	sameColor(t, "cursor colour", st.Cursor.Color, com.Styles.Text.Normal.GetForeground())
	if key.Matches(tea.KeyPressMsg{Code: tea.KeyUp}, ti.KeyMap.PrevSuggestion) {
		t.Error("↑ is a suggestion key; it belongs to the list around the input")
	}
}

// Without keys (a panel built without a Set) the input has the default
// text keys, and without Common it still does not blink.
func TestNewTextInputFallsBackToTheDefaultTextKeys(t *testing.T) {
	for _, com := range []*Common{nil, {Styles: themes.For(themes.Dark, true, false)}} {
		ti := NewTextInput(com, "", "one two")
		ti.Focus()
		ti, _ = ti.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt})
		if ti.Position() != len("one ") {
			t.Fatalf("alt+b (default word-left) moved the cursor to %d", ti.Position())
		}
		if ti.Styles().Cursor.Blink {
			t.Error("the cursor blinks")
		}
	}
}

// A search line edits with the Set's text keys (a rebinding of
// form.text.word-left moves its cursor) and draws the theme's cursor.
func TestSearchLineEditsWithTheTextKeysAndShowsTheThemesCursor(t *testing.T) {
	keys := keymap.DefaultSet()
	if err := keymap.Apply(&keys, map[string][]string{"form.text.word-left": {"ctrl+o"}}); err != nil {
		t.Fatal(err)
	}
	var s Search
	s.Start()
	for _, r := range "fix bug" {
		s.Key(tea.KeyPressMsg{Code: r, Text: string(r)}, &keys)
	}
	s.Key(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}, &keys)
	s.Key(tea.KeyPressMsg{Code: 'x', Text: "x"}, &keys)
	if s.Query() != "fix xbug" {
		t.Fatalf("after ctrl+o (word left) and x: %q", s.Query())
	}
	s.Key(tea.KeyPressMsg{Code: tea.KeyBackspace, Mod: tea.ModAlt}, &keys) // delete word back
	if s.Query() != "fix bug" {
		t.Fatalf("after alt+backspace: %q", s.Query())
	}
	st := themes.For(themes.Light, true, false)
	r, g, b, _ := st.Text.Normal.GetForeground().RGBA()
	cursor := fmt.Sprintf("\x1b[7;38;2;%d;%d;%dmb", r>>8, g>>8, b>>8)
	if line := s.Line(&st); !strings.Contains(line, cursor) {
		t.Fatalf("search line %q lacks the themed cursor %q on b", line, cursor)
	}
}

// A line just opened shows the cursor before the first key.
func TestLineInputShowsItsCursorBeforeTheFirstKey(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	var s Search
	s.Start()
	if line := s.Line(&st); !strings.Contains(line, "\x1b[7;") {
		t.Fatalf("search line %q has no cursor", line)
	}
}
