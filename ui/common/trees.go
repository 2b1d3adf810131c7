package common

import (
	"time"

	"github.com/forgebench/forgebench/i18n"
)

// SessionRef names a session for another panel: its file, what it is
// called everywhere (session.Title) and when it was last active, as the
// Session panel's picker shows it.
type SessionRef struct {
	File, Name string
	When       When
}

// When is a time as the session lists show it: the day and the time of
// day in the current year (local time), the day and the year in another
// (as ls(1) does), both 12 cells wide. It keeps the time, not the text, so
// a list drawn after a language switch shows it in the new language.
type When struct {
	At time.Time // zero: no time
	// OtherYear is true when At is in another year than the list's now.
	OtherYear bool
}

// NewWhen is at as a list drawn at now shows it.
func NewWhen(at, now time.Time) When {
	return When{At: at, OtherYear: !at.IsZero() && at.Local().Year() != now.Local().Year()}
}

// Label is the "when" text in the run's language ("" for no time).
func (w When) Label() string {
	if w.At.IsZero() {
		return ""
	}
	if w.OtherYear {
		return w.At.Local().Format(i18n.T("Jan 02  2006"))
	}
	return w.At.Local().Format(i18n.T("Jan 02 15:04"))
}

// AgentTreesMsg lists the sessions the Session panel's picker knows that
// have a pi-subagent tree, in the picker's order (newest first). The
// panel sends it whenever that list changes (discovery, a tree that
// appears); the Agents panel offers them where the selected session has
// no tree.
type AgentTreesMsg struct{ Sessions []SessionRef }
