package palette

import (
	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// Kind is what a palette row is: an action to run or a place to go.
type Kind int

// The kinds, in the order rows of equal score are listed (and the order
// of the rows for an empty query).
const (
	KindAction Kind = iota
	KindSession
	KindEntry
	KindAgent
	KindPreset
	KindCapability
	kindCount
)

// kindNames are the kinds as every row shows them (catalog keys).
var kindNames = [kindCount]string{i18n.Mark("action"), i18n.Mark("session"), i18n.Mark("entry"), i18n.Mark("agent"),
	i18n.Mark("preset"), i18n.Mark("capability")}

// String is the kind as its rows show it ("session", "entry", …), in the
// current language.
func (k Kind) String() string {
	if k < 0 || k >= kindCount {
		return "?"
	}
	return i18n.T(kindNames[k])
}

// kindWidth is the width in cells of the kind column: the widest name in
// the current language.
func kindWidth() int {
	w := 0
	for k := range kindCount {
		w = max(w, ansi.StringWidth(k.String()))
	}
	return w
}

// Item is one row of the palette: an action (Msg is sent when it is
// chosen) or a place (Target is jumped to through Common.Jump).
type Item struct {
	Kind Kind
	// ID is a short id the row shows before its title, whole (a session's
	// first id block, an entry's id; "" none). Title follows it; Detail
	// follows the title, muted (a role, a label, a first message). All
	// are terminal-safe, one line.
	ID, Title, Detail string
	// Hint is the key that does the same outside the palette ("" none).
	Hint string
	// Msg is what an action sends.
	Msg tea.Msg
	// Target is where a place takes the user (nil for an action).
	Target *common.JumpTarget
}

// Action is an action a panel or the root contributes (ui.ActionProvider).
type Action struct {
	Title string // what the user searches and reads, in the current language
	// Keywords are matched as well as the title: the English title
	// (Titled fills it), so an English query finds an action whatever
	// the language.
	Keywords string
	Hint     string // usually the key that does the same outside the palette
	Msg      tea.Msg
}

// Source is one kind of row as an immutable snapshot: what the query is
// matched against and how a row is drawn, both read by index. Matching
// runs in a command, so the functions must only read data nobody
// changes.
type Source struct {
	Kind Kind
	// Len is the number of rows.
	Len int
	// Fields are the texts the query is fuzzy-matched against, each on its
	// own (a title and a first message; a path and a role): a row scores
	// its best field. A field may be "" for a row.
	Fields []func(i int) string
	// ID is matched as a case-insensitive substring, not fuzzily (ids are
	// not words: "a1" would match most hex ids letter by letter); nil or
	// "" for none.
	ID func(i int) string
	// Item draws row i (called only for the rows on screen and the one
	// chosen).
	Item func(i int) Item
}

// ItemsSource is a source over a slice of items, matched on their titles
// and details.
func ItemsSource(kind Kind, items []Item) Source {
	return Source{
		Kind:   kind,
		Len:    len(items),
		Fields: []func(int) string{func(i int) string { return items[i].Title }, func(i int) string { return items[i].Detail }},
		Item:   func(i int) Item { return items[i] },
	}
}

// Titled is an action whose title is the catalog's key (a literal marked
// with i18n.Mark) formatted with args in the current language, matched in
// English too.
func Titled(key string, msg tea.Msg, hint string, args ...any) Action {
	a := Action{Title: i18n.T(key, args...), Hint: hint, Msg: msg}
	if en := i18n.In(i18n.English, key, args...); en != a.Title {
		a.Keywords = en
	}
	return a
}

// actionSource is the actions as rows, matched on their titles and
// keywords.
func actionSource(actions []Action) Source {
	return Source{
		Kind:   KindAction,
		Len:    len(actions),
		Fields: []func(int) string{func(i int) string { return actions[i].Title }, func(i int) string { return actions[i].Keywords }},
		Item: func(i int) Item {
			a := actions[i]
			return Item{Kind: KindAction, Title: a.Title, Hint: a.Hint, Msg: a.Msg}
		},
	}
}
