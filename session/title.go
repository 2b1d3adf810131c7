package session

import (
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
)

// TitleMax is how many runes of a first message a title keeps.
const TitleMax = 120

// Title is what forgebench calls a session everywhere — the TUI header,
// the session picker, the tree's title and `session list`: its name when
// it has one, else its first user message (as Pi's /resume lists unnamed
// sessions), else its id. The result is one sanitised line of at most
// TitleMax runes.
func Title(name, firstMessage, id string) string {
	for _, s := range []string{name, firstMessage, id} {
		if t := strings.TrimSpace(sanitize.Clip(s, TitleMax)); t != "" {
			// A copy: the text may be a view of a mapped file, and a
			// title outlives it (a file cut under it reads as zeros).
			return strings.Clone(t)
		}
	}
	return ""
}

// Title is the listed session's title (see Title).
func (it *ListItem) Title() string { return Title(it.Name, it.FirstMessage, it.ID) }

// Title is the loaded session's title (see Title).
func (s *Session) Title() string {
	name, _ := s.Name()
	return Title(name, s.FirstUserMessage(), s.Header.ID)
}

// FirstUserMessage is the plain text of the first user message in file
// order ("" when there is none), as discovery reads it for ListItem.
func (s *Session) FirstUserMessage() string {
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type != TypeMessage || e.Role != RoleUser {
			continue
		}
		var content Content
		if err := content.UnmarshalJSON(e.MessageField("content")); err != nil {
			return ""
		}
		return content.PlainText(" ")
	}
	return ""
}
