package common

import (
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/themes"
)

// How long a status message stays: a note ("copied …") briefly, an error
// long enough to be read twice.
const (
	StatusTTL      = 4 * time.Second
	StatusErrorTTL = 10 * time.Second
)

// statusSeq numbers every message set anywhere, so an expiry reaches only
// the message it was scheduled for, whichever pane holds it.
var statusSeq atomic.Uint64

// StatusExpiredMsg ends the message with the same ID. It is broadcast like
// every command result; a Status ignores the IDs of other messages.
type StatusExpiredMsg struct{ ID uint64 }

// Status is one pane's transient message. A pane owns its Status and
// draws it in its own border or line, so a note appears where the action
// happened and not in another pane; each message expires by itself after
// StatusTTL (StatusErrorTTL for errors) or when the pane replaces it.
type Status struct {
	text  string
	isErr bool
	id    uint64
}

// Info shows a note and returns the command that expires it. The caller
// sanitises text that comes from files.
func (s *Status) Info(c *Common, text string) tea.Cmd { return s.set(c, text, false, StatusTTL) }

// Error shows an error and returns the command that expires it.
func (s *Status) Error(c *Common, text string) tea.Cmd {
	return s.set(c, text, true, StatusErrorTTL)
}

func (s *Status) set(c *Common, text string, isErr bool, ttl time.Duration) tea.Cmd {
	s.text, s.isErr, s.id = text, isErr, statusSeq.Add(1)
	if text == "" {
		return nil
	}
	return c.Later(ttl, StatusExpiredMsg{ID: s.id})
}

// Clear removes the message now.
func (s *Status) Clear() { s.text, s.isErr = "", false }

// Expire clears the message when msg was scheduled for it and reports
// whether it did.
func (s *Status) Expire(msg StatusExpiredMsg) bool {
	if msg.ID != s.id || s.text == "" {
		return false
	}
	s.Clear()
	return true
}

// Text is the message ("" when none).
func (s *Status) Text() string { return s.text }

// IsError reports whether the message is an error.
func (s *Status) IsError() bool { return s.isErr && s.text != "" }

// View is the message styled as a note or an error ("" when none).
func (s *Status) View(st *themes.Styles) string {
	switch {
	case s.text == "":
		return ""
	case s.isErr:
		return st.Text.Danger.Render(s.text)
	}
	return st.App.Status.Render(s.text)
}

// StatusClock gives a pane that keeps its message in fields of its own
// (set from many places without a command at hand) the expiry Status has:
// Set numbers each message as it is shown, Schedule (after Update) returns
// the command that expires the newest one once, and Expired tells whether
// a StatusExpiredMsg is for the message still shown.
type StatusClock struct{ id, timed uint64 }

// Set numbers a message that was just shown (or cleared).
func (c *StatusClock) Set() { c.id = statusSeq.Add(1) }

// Schedule returns the expiry of the message numbered last, once, when one
// is shown (StatusErrorTTL for an error, else StatusTTL); nil otherwise.
func (c *StatusClock) Schedule(com *Common, shown, isErr bool) tea.Cmd {
	if c.timed == c.id || !shown {
		return nil
	}
	c.timed = c.id
	ttl := StatusTTL
	if isErr {
		ttl = StatusErrorTTL
	}
	return com.Later(ttl, StatusExpiredMsg{ID: c.id})
}

// Expired reports whether msg ends the message shown now.
func (c *StatusClock) Expired(msg StatusExpiredMsg) bool { return c.id != 0 && msg.ID == c.id }
