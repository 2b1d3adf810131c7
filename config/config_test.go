package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/themes"
)

func TestPathFollowsXDGThenHome(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": "/xdg"}
	if got := Path(func(k string) string { return env[k] }, "/home/ada"); got != "/xdg/forgebench/config.json" {
		t.Fatalf("got %s", got)
	}
	env["XDG_CONFIG_HOME"] = "relative/dir" // the XDG spec ignores relative paths
	if got := Path(func(k string) string { return env[k] }, "/home/ada"); got != "/home/ada/.config/forgebench/config.json" {
		t.Fatalf("got %s", got)
	}
}

func TestLoadAppliesThemeAndKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(`{"theme":"light","keys":{"presets.save":["alt+s"],"quit":["Q"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Theme != themes.Light {
		t.Fatalf("theme %q", s.Theme)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 's', Mod: tea.ModAlt}, s.Keys.Presets.Save) || s.Keys.Quit.Help().Key != "Q" {
		t.Fatal("the overrides are applied and the help follows them")
	}
	missing, err := Load(filepath.Join(t.TempDir(), "none.json"))
	if err != nil || missing.Theme != "" || !key.Matches(tea.KeyPressMsg{Code: 'q', Text: "q"}, missing.Keys.Quit) {
		t.Fatalf("a missing file means the defaults: %v", err)
	}
}

func TestLanguageSetting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(`{"language":"zh-CN","theme":"dark"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil || s.Language != i18n.SimplifiedChinese {
		t.Fatalf("language %q, %v", s.Language, err)
	}
	if got := LoadLanguage(path); got != i18n.SimplifiedChinese {
		t.Fatalf("LoadLanguage: %q", got)
	}
	if s, _ := Parse([]byte(`{}`)); s.Language != "" {
		t.Fatalf("no setting, no language: %q", s.Language)
	}
	// The commands' light reader falls back (""), whatever is wrong.
	for _, bad := range []string{`{"language":"fr"}`, `[`, `{"language":7}`, `{}`} {
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := LoadLanguage(path); got != "" {
			t.Errorf("%s: LoadLanguage %q", bad, got)
		}
	}
	if got := LoadLanguage(filepath.Join(t.TempDir(), "none.json")); got != "" {
		t.Errorf("missing file: %q", got)
	}
}

func TestBadSettingsSayWhich(t *testing.T) {
	cases := map[string]string{
		`{"theme":"solarized"}`:                 `unknown theme "solarized"`,
		`{"theme":7}`:                           "theme: want a string",
		`{"colour":"x","keys":{}}`:              `unknown setting "colour": it did not match any setting (settings: keys, language, theme)`,
		`{"language":"zh_CN"}`:                  `language: unknown language "zh_CN": did you mean "zh-CN"? (languages: en, zh-CN)`,
		`{"language":"fr"}`:                     `unknown language "fr"`,
		`{"language":["en"]}`:                   "language: want a string (en, zh-CN)",
		`{"language":"en","language":"zh-CN"}`:  `"language"`,
		`{"keys":{"presets.sve":["ctrl+s"]}}`:   "presets.sve",
		`{"keys":{"quit":[]}}`:                  `"quit": at least one key`,
		`{"keys":{"quit":"q"}}`:                 "keys: want an object",
		`{"keys":{"quit":["ctrl s"]}}`:          `"ctrl s" is not a key name`,
		`[1,2]`:                                 "not a JSON object",
		`null`:                                  "not a JSON object",
		`{"theme":"dark"} {"theme":"light"}`:    "unexpected data",
		`{"theme":"dark"} }`:                    "unexpected data",
		`{"keys":{}}]`:                          "unexpected data",
		`{"theme":"dark","keys":{"help":[""]}}`: `"" is not a key name`,
	}
	for in, want := range cases {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", in, err, want)
		}
	}
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(`{"theme":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("the error names the file: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{`{"theme":"light","keys":{"presets.save":["alt+s"]}}`, `{}`, `{"keys":{"x":[]}}`, `[`, `"`,
		`{"keys":{"quit":["1"]}}`, `{"keys":{"quit":["q"],"quit":["x"]}}`, `{"keys":{"\u001b[2J":["x"]}}`, `{"keys":{"find.case":["a"]}}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err == nil && len(s.Keys.Named()) == 0 {
			t.Fatal("accepted settings must keep every binding")
		}
		if err == nil && len(s.Keys.Conflicts()) > 0 {
			t.Fatalf("accepted settings with conflicts: %v", s.Keys.Conflicts())
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x1b\u009b\u202e\u2066") {
			t.Fatalf("error carries raw control characters: %q", err)
		}
	})
}
