package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Search are the keys of a search or filter line (the kit's List filter
// and Search): typing edits the query, these apply, cancel or clear it,
// and once a search is applied Next and Prev step through its matches.
type Search struct {
	Accept key.Binding
	Cancel key.Binding
	Clear  key.Binding
	Next   key.Binding
	Prev   key.Binding
}

// DefaultSearch returns the stock search-line keys (vi's n/N between
// matches, readline's ctrl+u to clear the line).
func DefaultSearch() Search {
	return Search{
		Accept: bind([]string{"enter"}, "enter", i18n.Mark("apply")),
		Cancel: bind([]string{"esc"}, "esc", i18n.Mark("cancel")),
		Clear:  bind([]string{"ctrl+u"}, "ctrl+u", i18n.Mark("clear")),
		Next:   bind([]string{"n"}, "n", i18n.Mark("next match")),
		Prev:   bind([]string{"N"}, "N", i18n.Mark("previous match")),
	}
}

// Named exposes the search keys for overrides.
func (s *Search) Named() map[string]*key.Binding {
	return map[string]*key.Binding{
		"search.accept": &s.Accept, "search.cancel": &s.Cancel, "search.clear": &s.Clear,
		"search.next": &s.Next, "search.prev": &s.Prev,
	}
}
