package sessions

import "github.com/forgebench/forgebench/session"

// ListedSessions are the sessions the picker lists, in its order (the
// project's, or every project's in the all scope): the `:` palette
// offers them. The listing is replaced whole when the picker discovers
// again and never changed in place.
func (m *Model) ListedSessions() []session.ListItem { return m.picker.raw }
