// Package config reads the user's settings file,
// $XDG_CONFIG_HOME/forgebench/config.json (else
// ~/.config/forgebench/config.json):
//
//	{"theme": "light", "language": "zh-CN", "keys": {"presets.save": ["ctrl+s", "alt+s"], "quit": ["Q"]}}
//
// "theme" is auto, dark or light (ThemeNames); "language" is en or zh-CN
// (LanguageNames; --lang wins over it, it wins over the locale); "keys" rebinds bindings by the names of
// keymap.Set.Named. An unknown setting, an unknown binding name, a bad
// value, a name given twice in one object, and bindings that collide in
// one view (keymap.Set.Conflicts: two bindings live together on one key,
// a key that types text taken inside a text input, ctrl+c) are errors
// that say which, names quoted and escaped, so a typo never goes
// unnoticed; an unknown name comes with the nearest real ones (at most
// five) and an unknown theme with the list of themes. A missing file means the defaults.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// Settings are the user's choices with the defaults filled in.
type Settings struct {
	// Theme is the file's theme ("" when it sets none, so --theme and
	// the default decide).
	Theme themes.Mode
	// Language is the file's language ("" when it sets none, so --lang
	// and the locale decide).
	Language i18n.Lang
	// Keys are every binding with the file's overrides applied.
	Keys keymap.Set
}

// Defaults are the settings without a file.
func Defaults() Settings { return Settings{Keys: keymap.DefaultSet()} }

// Path is where the settings file lives: under $XDG_CONFIG_HOME when it
// is set (and absolute), else under home/.config.
func Path(getenv func(string) string, home string) string {
	base := getenv("XDG_CONFIG_HOME")
	if base == "" || !filepath.IsAbs(base) {
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "forgebench", "config.json")
}

// maxSettingsBytes bounds the settings file: a few KiB in practice.
const maxSettingsBytes = 1 << 20

// Load reads the settings file at path; a missing file gives Defaults. A
// path that is not a regular file (a FIFO would block the start, /dev/zero
// would never end) or a file above 1 MiB is an error.
func Load(path string) (Settings, error) {
	data, err := regfile.Read(path, maxSettingsBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), nil
	}
	if errors.Is(err, regfile.ErrNotRegular) || errors.Is(err, regfile.ErrTooLarge) {
		return Settings{}, i18n.Errorf("settings: %w", err) // the error names the path
	}
	if err != nil {
		return Settings{}, i18n.Errorf("read settings %s: %w", path, err)
	}
	s, err := Parse(data)
	if err != nil {
		return Settings{}, i18n.Errorf("settings %s: %w", path, err)
	}
	return s, nil
}

// known are the top-level settings.
var known = []string{"keys", "language", "theme"}

// Parse reads settings from the file's bytes.
func Parse(data []byte) (Settings, error) {
	s := Defaults()
	var top map[string]json.RawMessage
	if err := strictDecode(data, &top); err != nil {
		return s, i18n.Errorf("not a JSON object: %w", err)
	}
	if top == nil {
		return s, errors.New(i18n.T("not a JSON object"))
	}
	if err := checkDuplicateKeys(data); err != nil {
		return s, err
	}
	var unknown []string
	for name := range top {
		if !contains(known, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		return s, unknownSettingsError(unknown, known)
	}
	if raw, ok := top["theme"]; ok {
		var theme string
		if err := strictDecode(raw, &theme); err != nil {
			return s, i18n.Errorf("theme: want a string (%s): %w", strings.Join(ThemeNames(), ", "), err)
		}
		mode, err := ParseTheme(theme)
		if err != nil {
			return s, fmt.Errorf("theme: %w", err) //i18n:raw the setting's name, then the translated error
		}
		s.Theme = mode
	}
	if raw, ok := top["language"]; ok {
		lang, err := decodeLanguage(raw)
		if err != nil {
			return s, err
		}
		s.Language = lang
	}
	if raw, ok := top["keys"]; ok {
		var keys map[string][]string
		if err := strictDecode(raw, &keys); err != nil {
			return s, i18n.Errorf("keys: want an object of binding name → list of keys: %w", err)
		}
		if err := checkKeys(keys); err != nil {
			return s, err
		}
		if err := checkBindingNames(s.Keys, keys); err != nil {
			return s, err
		}
		if err := keymap.Apply(&s.Keys, keys); err != nil {
			return s, fmt.Errorf("keys: %w", err) //i18n:raw the setting's name, then the translated error
		}
		if err := conflictError(s.Keys.Conflicts()); err != nil {
			return s, err
		}
	}
	return s, nil
}

// maxConflictsShown bounds the conflicts one error lists.
const maxConflictsShown = 10

// conflictError lists the bindings that collide, nil when none do.
func conflictError(conflicts []keymap.Conflict) error {
	if len(conflicts) == 0 {
		return nil
	}
	lines := make([]string, 0, maxConflictsShown+1)
	for i, c := range conflicts {
		if i == maxConflictsShown {
			lines = append(lines, i18n.T("and %d more", len(conflicts)-i))
			break
		}
		lines = append(lines, c.String())
	}
	return i18n.Errorf("keys: conflicting bindings (a key does one thing per view):\n  %s", strings.Join(lines, "\n  "))
}

// checkKeys rejects empty or blank key names and names with control or
// format characters, which no key press is called (keymap.Apply checks
// the binding names and empty lists).
func checkKeys(keys map[string][]string) error {
	names := make([]string, 0, len(keys))
	for name := range keys {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, k := range keys[name] {
			if strings.TrimSpace(k) == "" || strings.ContainsAny(k, " \t\n") || hasControl(k) {
				return i18n.Errorf("keys: %s: %s is not a key name (write keys as \"ctrl+s\", \"alt+up\", \"q\")", keymap.Quote(name), keymap.Quote(k))
			}
		}
	}
	return nil
}

// checkBindingNames refuses names that are no binding, suggesting the
// nearest ones (keymap.Apply would list every name there is).
func checkBindingNames(set keymap.Set, keys map[string][]string) error {
	named := set.Named()
	var unknown []string
	for name := range keys {
		if _, ok := named[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	names := make([]string, 0, len(named))
	for n := range named {
		names = append(names, n)
	}
	sort.Strings(names)
	return fmt.Errorf("keys: %w", unknownBindingsError(unknown, names)) //i18n:raw the setting's name, then the translated error
}

// hasControl reports a control, format or invalid character in s.
func hasControl(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			return true
		}
	}
	return false
}

// strictDecode decodes exactly one JSON value into v. Anything after it
// but white space is an error (dec.More alone lets a stray "}" or "]"
// through).
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New(i18n.T("unexpected data after the JSON value"))
	}
	return nil
}

// decodeLanguage reads the "language" setting's value.
func decodeLanguage(raw json.RawMessage) (i18n.Lang, error) {
	var name string
	if err := strictDecode(raw, &name); err != nil {
		return "", i18n.Errorf("language: want a string (%s): %w", strings.Join(LanguageNames(), ", "), err)
	}
	lang, err := ParseLanguage(name)
	if err != nil {
		return "", fmt.Errorf("language: %w", err) //i18n:raw the setting's name, then the translated error
	}
	return lang, nil
}

// LoadLanguage reads only the "language" of the settings file at path, for
// the commands that need nothing else of it (every command but the TUI,
// which reads and checks the whole file with Load): "" when the file is
// missing, unreadable, not an object or sets no valid language — the TUI
// reports what is wrong with it, a command falls back to the locale.
func LoadLanguage(path string) i18n.Lang {
	data, err := regfile.Read(path, maxSettingsBytes)
	if err != nil {
		return ""
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return ""
	}
	raw, ok := top["language"]
	if !ok {
		return ""
	}
	lang, err := decodeLanguage(raw)
	if err != nil {
		return ""
	}
	return lang
}
