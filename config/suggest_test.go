package config

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/keymap"
)

// An unknown binding name is named with the nearest real names (at most
// five), not with every one of the ~250 names on one line (issue 23,
// item 7).
func TestUnknownBindingNameSuggestsTheNearest(t *testing.T) {
	cases := map[string][]string{
		"presets.sve":        {`"presets.save"`}, // a letter left out
		"presets.saev":       {`"presets.save"`}, // two swapped
		"presets.sabe":       {`"presets.save"`}, // one wrong
		"Quit":               {`"quit"`},         // case
		"save":               {`"presets.save"`}, // the group left out
		"sesion.tree":        {`"session.`},      // the group misspelt
		"form.txt.word-left": {`"form.text.word-left"`},
	}
	for name, want := range cases {
		_, err := Parse([]byte(`{"keys":{"` + name + `":["ctrl+s"]}}`))
		if err == nil {
			t.Fatalf("%s: accepted", name)
		}
		msg := err.Error()
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q does not suggest %s", name, msg, w)
			}
		}
		if !strings.Contains(msg, keymap.Quote(name)) {
			t.Errorf("%s: %q does not name the bad entry", name, msg)
		}
		if n := strings.Count(msg, `", "`) + 1; n > maxSuggestions {
			t.Errorf("%s: %d names suggested, at most %d: %q", name, n, maxSuggestions, msg)
		}
		if len(msg) > 400 {
			t.Errorf("%s: %d characters; the error lists far more than the nearest names: %q", name, len(msg), msg)
		}
	}
}

func TestUnknownBindingNameWithNothingNearSaysWhatNamesLookLike(t *testing.T) {
	_, err := Parse([]byte(`{"keys":{"zzzzzzzzzz":["x"]}}`))
	if err == nil {
		t.Fatal("accepted")
	}
	msg := err.Error()
	for _, want := range []string{`"zzzzzzzzzz"`, "did not match", `"presets"`, `"quit"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %s", msg, want)
		}
	}
	if strings.Contains(msg, "did you mean") || len(msg) > 400 {
		t.Errorf("nothing is near, nothing should be suggested: %q", msg)
	}
}

func TestSeveralUnknownNamesOneLineEach(t *testing.T) {
	_, err := Parse([]byte(`{"keys":{"presets.sve":["x"],"quitt":["Q"]}}`))
	if err == nil {
		t.Fatal("accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"presets.sve"`) || !strings.Contains(lines[2], `"quitt": did you mean "quit"`) {
		t.Fatalf("want a heading and one line per unknown name, sorted: %q", err.Error())
	}
}

func TestBadThemeListsTheThemes(t *testing.T) {
	for in, want := range map[string]string{
		`{"theme":"drak"}`:   `unknown theme "drak": did you mean "dark"? (themes: auto, dark, light)`,
		`{"theme":"purple"}`: `unknown theme "purple" (themes: auto, dark, light)`,
		`{"theme":""}`:       `unknown theme "" (themes: auto, dark, light)`,
	} {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	if got := ThemeNames(); strings.Join(got, ",") != "auto,dark,light" {
		t.Fatalf("ThemeNames %q", got)
	}
	for _, name := range ThemeNames() {
		if _, err := ParseTheme(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestUnknownSettingSuggests(t *testing.T) {
	_, err := Parse([]byte(`{"them":"dark"}`))
	if err == nil || !strings.Contains(err.Error(), `unknown setting "them": did you mean "theme"? (settings: keys, language, theme)`) {
		t.Fatalf("%v", err)
	}
}

func TestSuggestionsAreEscaped(t *testing.T) {
	_, err := Parse([]byte(`{"keys":{"quit\u001b":["x"]}}`))
	if err == nil || strings.ContainsRune(err.Error(), 0x1b) || !strings.Contains(err.Error(), `"quit\x1b": did you mean "quit"`) {
		t.Fatalf("%q", err)
	}
}
