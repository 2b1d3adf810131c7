package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// locales holds each language's catalog: locales/<lang>.json and, so that
// parts of the workbench can be translated on their own branches without
// touching one file, any locales/<lang>/*.json beside it. A key in two
// files of a language must be translated the same in both.
//
//go:embed locales
var locales embed.FS

// catalogFiles returns the files of l's catalog, the main file first and
// the rest in name order (fs.Glob sorts).
func catalogFiles(fsys fs.FS, l Lang) []string {
	files := []string{"locales/" + string(l) + ".json"}
	more, _ := fs.Glob(fsys, "locales/"+string(l)+"/*.json")
	return append(files, more...)
}

// readCatalog parses and merges the files of l's catalog in fsys (the
// embedded locales, or a test's); a key translated differently in two files
// is an error naming both (which one wins must never depend on file order).
func readCatalog(fsys fs.FS, l Lang) (map[string]Entry, error) {
	merged := map[string]Entry{}
	from := map[string]string{}
	for _, name := range catalogFiles(fsys, l) {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", name, err)
		}
		entries, err := ParseCatalog(data)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", name, err)
		}
		for key, e := range entries {
			if prev, dup := from[key]; dup {
				if reflect.DeepEqual(merged[key], e) {
					continue // the same translation twice: parts share a word
				}
				return nil, fmt.Errorf("catalog: key %q is in both %s and %s, translated differently", key, prev, name)
			}
			from[key] = name
			merged[key] = e
		}
	}
	return merged, nil
}

// Entry is one catalog entry: a plain translation (Text), or plural forms
// (Forms, selected by the argument at position Arg, 1-based).
type Entry struct {
	Text  string
	Arg   int
	Forms []Form
}

// Form is one case of a plural entry: a CLDR category ("zero", "one",
// "two", "few", "many", "other") or an exact value ("=0", "=1" …).
type Form struct {
	Case string
	Text string
}

// Plural reports whether the entry selects among plural forms.
func (e Entry) Plural() bool { return e.Forms != nil }

// Texts are every message text of the entry, for the tests that compare
// them with their key.
func (e Entry) Texts() []string {
	if !e.Plural() {
		return []string{e.Text}
	}
	out := make([]string, len(e.Forms))
	for i, f := range e.Forms {
		out[i] = f.Text
	}
	return out
}

// caseOrder sorts the forms as plural.Selectf wants them: exact values
// first (the first matching case wins), then the categories, "other" last.
var caseOrder = map[string]int{"zero": 1, "one": 2, "two": 3, "few": 4, "many": 5, "other": 6}

// ParseCatalog reads a catalog file: one JSON object from key to either a
// translation string or a plural object {"arg": N (optional, default 1),
// "one": "…", "other": "…", "=0": "…"} with "other" required. It rejects
// anything else with an error naming the key.
func ParseCatalog(data []byte) (map[string]Entry, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	out := make(map[string]Entry, len(raw))
	for key, v := range raw {
		e, err := parseEntry(v)
		if err != nil {
			return nil, fmt.Errorf("catalog: key %q: %w", key, err)
		}
		out[key] = e
	}
	return out, nil
}

func parseEntry(v json.RawMessage) (Entry, error) {
	var s string
	if string(v) == "null" {
		return Entry{}, fmt.Errorf("want a string or a plural object, not null")
	}
	if err := json.Unmarshal(v, &s); err == nil {
		return Entry{Text: s}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(v, &obj); err != nil || obj == nil {
		return Entry{}, fmt.Errorf("want a string or a plural object")
	}
	e := Entry{Arg: 1, Forms: []Form{}}
	for c, raw := range obj {
		if c == "arg" {
			if err := json.Unmarshal(raw, &e.Arg); err != nil || string(raw) == "null" || e.Arg < 1 || e.Arg > 9 {
				return Entry{}, fmt.Errorf(`"arg" must be an argument position 1..9`)
			}
			continue
		}
		if err := validCase(c); err != nil {
			return Entry{}, err
		}
		var text string
		if err := json.Unmarshal(raw, &text); err != nil || string(raw) == "null" {
			return Entry{}, fmt.Errorf("plural form %q: want a string", c)
		}
		e.Forms = append(e.Forms, Form{Case: c, Text: text})
	}
	if !hasOther(e.Forms) {
		return Entry{}, fmt.Errorf(`a plural object needs an "other" form`)
	}
	sort.Slice(e.Forms, func(i, j int) bool {
		a, b := caseOrder[e.Forms[i].Case], caseOrder[e.Forms[j].Case]
		if a != b {
			return a < b
		}
		return e.Forms[i].Case < e.Forms[j].Case
	})
	return e, nil
}

func validCase(c string) error {
	if _, ok := caseOrder[c]; ok {
		return nil
	}
	if n, ok := strings.CutPrefix(c, "="); ok {
		if v, err := strconv.Atoi(n); err == nil && v >= 0 && strconv.Itoa(v) == n {
			return nil
		}
	}
	return fmt.Errorf("unknown plural form %q (want zero, one, two, few, many, other or =N)", c)
}

func hasOther(forms []Form) bool {
	for _, f := range forms {
		if f.Case == "other" {
			return true
		}
	}
	return false
}

// book is one language's catalog, built on first use.
type book struct {
	once    sync.Once
	lang    Lang
	tag     language.Tag
	entries map[string]Entry
	cat     *catalog.Builder
	err     error
}

var books = map[Lang]*book{
	English:           {lang: English, tag: language.English},
	SimplifiedChinese: {lang: SimplifiedChinese, tag: language.Make("zh-CN")},
}

// load parses the book's files and builds its x/text catalog, once.
func (b *book) load() {
	b.once.Do(func() {
		b.entries, b.err = readCatalog(locales, b.lang)
		if b.err != nil {
			return // every key prints as itself; the tests catch a bad file
		}
		b.cat = catalog.NewBuilder()
		for key, e := range b.entries {
			if err := b.cat.Set(b.tag, key, message(e)); err != nil {
				b.err = fmt.Errorf("catalog: key %q: %w", key, err)
				return
			}
		}
	})
}

// message is the entry as an x/text catalog message.
func message(e Entry) catalog.Message {
	if !e.Plural() {
		return catalog.String(e.Text)
	}
	cases := make([]any, 0, 2*len(e.Forms))
	for _, f := range e.Forms {
		cases = append(cases, f.Case, f.Text)
	}
	return plural.Selectf(e.Arg, "", cases...)
}

// Entries returns the parsed catalog of l and the error its file has, if
// any (the tests check both catalogs with it).
func Entries(l Lang) (map[string]Entry, error) {
	b := books[l]
	b.load()
	return b.entries, b.err
}

// renderer collects the message x/text selects; fmt formats it afterwards.
type renderer struct {
	args []any
	out  strings.Builder
}

// Render implements x/text's catmsg.Renderer.
func (r *renderer) Render(s string) { r.out.WriteString(s) }

// Arg implements x/text's catmsg.Renderer: the i-th argument, 1-based.
func (r *renderer) Arg(i int) any {
	if i--; i >= 0 && i < len(r.args) {
		return r.args[i]
	}
	return nil
}

// lookup returns the message of key in l before formatting: the plain
// translation, or the plural form args select.
func lookup(l Lang, key string, args []any) (string, bool) {
	b, ok := books[l]
	if !ok {
		return "", false
	}
	b.load()
	if b.cat == nil {
		return "", false
	}
	r := &renderer{args: args}
	if err := b.cat.Context(b.tag, r).Execute(key); err != nil {
		return "", false
	}
	return r.out.String(), true
}

// catalogFor builds an x/text catalog of entries in English (the fuzz test
// checks that whatever ParseCatalog accepts builds).
func catalogFor(entries map[string]Entry) *catalog.Builder {
	b := catalog.NewBuilder()
	for key, e := range entries {
		_ = b.Set(language.English, key, message(e))
	}
	return b
}
