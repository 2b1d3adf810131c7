package common

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// SearchEvent is what a key did to a search or filter line.
type SearchEvent int

// The events of a search or filter line.
const (
	// SearchIgnored: the line is not taking keys.
	SearchIgnored SearchEvent = iota
	// SearchEdited: the query changed (or a key was swallowed).
	SearchEdited
	// SearchAccepted: the user applied the query (enter).
	SearchAccepted
	// SearchCancelled: the user left the line and the query is gone (esc).
	SearchCancelled
)

// Search is find-in-pane: a query typed on a search line, the positions
// that match it and the match under the cursor, with next and previous
// that wrap around. It does not own the rows: the pane computes the
// matches (MatchWords) when the query or its rows change and moves its
// own cursor to the position Search returns, so a tree, a timeline or a
// transcript use it alike. Positions are whatever order the pane walks
// (display rows, entries in tree order, lines).
type Search struct {
	query   string
	line    LineInput // the query while typing, with its cursor
	typing  bool
	matches []int // ascending positions
	current int   // index into matches, -1 when none is current
}

// Start opens the search line for a new query.
func (s *Search) Start() {
	*s = Search{typing: true, current: -1}
}

// Typing is true while the search line takes typed keys.
func (s *Search) Typing() bool { return s.typing }

// Active is true while a query is set: its matches are marked and
// Next/Prev step through them.
func (s *Search) Active() bool { return s.query != "" }

// Query is the search text.
func (s *Search) Query() string { return s.query }

// Clear ends the search.
func (s *Search) Clear() { *s = Search{current: -1} }

// Key edits the query while Typing: keys.Search.Accept applies it,
// keys.Search.Cancel drops it, keys.Search.Clear empties the line, and any
// other key edits it with the text keys (keys.Forms.Text: word motions,
// delete word …; keys nil: the defaults). The caller recomputes the
// matches on SearchEdited (incremental search) and SearchAccepted.
func (s *Search) Key(msg tea.KeyPressMsg, keys *keymap.Set) SearchEvent {
	if !s.typing {
		return SearchIgnored
	}
	ev := s.line.PromptKey(msg, keys)
	switch ev {
	case SearchAccepted:
		s.typing = false
		if s.query == "" {
			s.Clear()
		}
	case SearchCancelled:
		s.Clear()
	default:
		s.query = s.line.Value()
	}
	return ev
}

// PromptKey applies one key of a search, filter or prompt line: keys.Search.Cancel
// empties it (SearchCancelled), keys.Search.Accept applies it, keys.Search
// .Clear empties it, any other key edits it with keys.Forms.Text. A
// clipboard read the paste key would start is not available here (a
// terminal's own paste is).
func (l *LineInput) PromptKey(msg tea.KeyPressMsg, keys *keymap.Set) SearchEvent {
	if keys == nil {
		d := keymap.DefaultSet()
		keys = &d
	}
	switch {
	case key.Matches(msg, keys.Search.Cancel):
		l.SetValue("")
		return SearchCancelled
	case key.Matches(msg, keys.Search.Accept):
		return SearchAccepted
	case key.Matches(msg, keys.Search.Clear):
		l.SetValue("")
		return SearchEdited
	case key.Matches(msg, keys.Forms.Text.Paste):
		return SearchEdited
	}
	l.Key(msg, &keys.Forms.Text)
	return SearchEdited
}

// SetMatches stores the positions that match the query (any order) and
// makes current the first one at or after from, wrapping around; it
// returns that position, ok false when nothing matches.
func (s *Search) SetMatches(matches []int, from int) (pos int, ok bool) {
	s.matches = append(s.matches[:0], matches...)
	sort.Ints(s.matches)
	s.current = -1
	if len(s.matches) == 0 {
		return -1, false
	}
	k := sort.SearchInts(s.matches, from) % len(s.matches)
	s.current = k
	return s.matches[k], true
}

// Next makes current the first match after position from, wrapping.
func (s *Search) Next(from int) (pos int, ok bool) {
	if len(s.matches) == 0 {
		return -1, false
	}
	k := sort.SearchInts(s.matches, from+1) % len(s.matches)
	s.current = k
	return s.matches[k], true
}

// Prev makes current the last match before position from, wrapping.
func (s *Search) Prev(from int) (pos int, ok bool) {
	if len(s.matches) == 0 {
		return -1, false
	}
	k := sort.SearchInts(s.matches, from) - 1
	if k < 0 {
		k = len(s.matches) - 1
	}
	s.current = k
	return s.matches[k], true
}

// IsMatch reports whether position pos matches the query.
func (s *Search) IsMatch(pos int) bool {
	k := sort.SearchInts(s.matches, pos)
	return k < len(s.matches) && s.matches[k] == pos
}

// Count is the number of matches.
func (s *Search) Count() int { return len(s.matches) }

// Info is the match counter for a pane's border: "match 2/5", "no match"
// ("" without a query).
func (s *Search) Info() string {
	switch {
	case s.query == "":
		return ""
	case len(s.matches) == 0:
		return i18n.T("no match")
	case s.current < 0:
		return i18n.T("%d matches", len(s.matches))
	}
	return i18n.T("match %d/%d", s.current+1, len(s.matches))
}

// Line is the search line: "/ query" with the theme's cursor while
// typing, then the match counter.
func (s *Search) Line(st *themes.Styles) string {
	query := st.Text.Normal.Render(s.query)
	if s.typing {
		query = s.line.View(st, true)
	}
	line := st.Text.Info.Render("/ ") + query
	if info := s.Info(); info != "" {
		line += "  " + st.Text.Muted.Render(info)
	}
	return line
}

// MatchWords returns the positions 0..n-1 whose text holds every word of
// query, case-insensitively (the kit's one notion of "matches", shared
// with FilterWords).
func MatchWords(n int, text func(pos int) string, query string) []int {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return nil
	}
	var out []int
	for i := 0; i < n; i++ {
		if containsAll(strings.ToLower(text(i)), words) {
			out = append(out, i)
		}
	}
	return out
}
