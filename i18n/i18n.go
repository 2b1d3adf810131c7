// Package i18n is the workbench's message catalog: every human-readable
// string of the TUI's chrome and of the CLI's own output goes through T, so
// it prints in the language of the process — English or Simplified Chinese.
//
// Keys are the English source strings themselves, written as fmt format
// strings (gettext style): T("Quit forgebench?"), T("%d sessions", n).
// English prints the key unless the English catalog holds a plural entry for
// it; the Simplified Chinese catalog (locales/zh-CN.json, embedded) is parsed
// the first time Chinese is used, so the English path costs start-up nothing.
// Lookup and CLDR plural selection are golang.org/x/text's catalog and
// feature/plural; the selected message is then formatted with fmt, so numbers
// print exactly as fmt prints them in every language (x/text's own printer
// would group digits, "12,345", which changes output that is contract).
//
// What is contract never goes through T: pi-forge's and Pi's messages that
// forgebench reproduces, JSON keys and values, exit codes, key names.
package i18n

import (
	"fmt"
	"sync/atomic"
)

// Lang is a language the workbench speaks. Its value is the name the
// --lang flag and the settings file's "language" accept.
type Lang string

// The languages with a catalog.
const (
	English           Lang = "en"
	SimplifiedChinese Lang = "zh-CN"
)

// Langs lists the languages in the order the `:` switcher offers them.
func Langs() []Lang { return []Lang{English, SimplifiedChinese} }

// String returns the language's name as --lang spells it.
func (l Lang) String() string { return string(l) }

// Name is the language's own name for itself, as a menu shows it.
func (l Lang) Name() string {
	switch l {
	case SimplifiedChinese:
		return "简体中文"
	default:
		return "English"
	}
}

// ParseLang returns the language named exactly s ("en" or "zh-CN"), as the
// --lang flag and the settings file spell it.
func ParseLang(s string) (Lang, bool) {
	for _, l := range Langs() {
		if string(l) == s {
			return l, true
		}
	}
	return English, false
}

// current is the process's language: 0 English, 1 Simplified Chinese. It is
// read by every View, so it is an atomic rather than a field threaded
// through every renderer.
var current atomic.Int32

// Current returns the language T prints in. Render caches that hold
// translated text add it to their keys.
func Current() Lang {
	if current.Load() == 1 {
		return SimplifiedChinese
	}
	return English
}

// SetLanguage switches the process to l. The TUI announces a switch with a
// message so that every cached rendering is drawn again.
func SetLanguage(l Lang) {
	if l == SimplifiedChinese {
		current.Store(1)
		return
	}
	current.Store(0)
}

// T returns the message for key in the current language, formatted with
// args as fmt.Sprintf formats them. key must be a string literal (the
// catalog tests collect them from the source), or a value that was a literal
// marked with Mark. A key the catalog lacks prints as itself.
func T(key string, args ...any) string {
	return In(Current(), key, args...)
}

// In is T in a given language rather than the current one.
func In(l Lang, key string, args ...any) string {
	if l == English && len(args) == 0 {
		return key // the fast path: no catalog, no plural without an argument
	}
	msg, ok := lookup(l, key, args)
	if !ok {
		msg = key
	}
	if len(args) == 0 {
		return msg
	}
	return fmt.Sprintf(msg, args...)
}

// Errorf is fmt.Errorf with the format translated: T for errors, so %w
// wraps as it does in fmt.Errorf (T would print it as %!w).
func Errorf(key string, args ...any) error {
	msg, ok := lookup(Current(), key, args)
	if !ok {
		msg = key
	}
	return fmt.Errorf(msg, args...)
}

// Mark returns key unchanged. It marks a literal that is declared now and
// translated where it is shown (a key's help text built when the keymap is,
// a label in a table built at init), so the catalog tests find the key:
// keep the literal in Mark and call T on the value when rendering it.
func Mark(key string) string { return key }
