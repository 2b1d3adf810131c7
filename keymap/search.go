package keymap

import "charm.land/bubbles/v2/key"

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
		Accept: bind([]string{"enter"}, "enter", "apply"),
		Cancel: bind([]string{"esc"}, "esc", "cancel"),
		Clear:  bind([]string{"ctrl+u"}, "ctrl+u", "clear"),
		Next:   bind([]string{"n"}, "n", "next match"),
		Prev:   bind([]string{"N"}, "N", "previous match"),
	}
}

// Named exposes the search keys for overrides.
func (s *Search) Named() map[string]*key.Binding {
	return map[string]*key.Binding{
		"search.accept": &s.Accept, "search.cancel": &s.Cancel, "search.clear": &s.Clear,
		"search.next": &s.Next, "search.prev": &s.Prev,
	}
}
