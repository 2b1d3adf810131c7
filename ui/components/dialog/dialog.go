// Package dialog is the panel kit's stack of modal dialogs: a panel
// pushes a dialog over its panes, the dialog on top takes every key and
// paste (the stack captures input), the footer and the key hint are its keys,
// and the dismiss key pops it. What a dialog decides it hands back as an
// answer, a value of the owner's own type, which the owner acts on: a
// dialog never reaches into the panel that opened it.
//
// The owner keeps one Stack, routes input to it while it is open (Open),
// draws it over its screen (View) and asks it for help (ShortHelp).
package dialog

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// Dialog is one modal on a Stack.
type Dialog interface {
	// Update takes a key press or a paste while the dialog is on top. It
	// returns whether the dialog is done (the stack pops it), the answer
	// for the owner (nil: none) and a command.
	Update(msg tea.Msg) (done bool, answer any, cmd tea.Cmd)
	// View is the dialog's box for a screen of width×height cells (not
	// placed: the Stack centres it over the screen).
	View(width, height int) string
	// ShortHelp are the keys that answer the dialog, most important
	// first: the footer and the dialog's key hint.
	ShortHelp() []key.Binding
}

// Dismisser is a Dialog that answers when the dismiss key pops it (a
// status to report, say). A Dialog without it is popped with no answer.
type Dismisser interface {
	Dismissed() (answer any)
}

// Stack is a panel's dialogs, the last pushed on top. The zero value is
// empty and dismisses nothing: set Dismiss (the panel's esc binding).
type Stack struct {
	// Dismiss pops the top dialog, whatever it is.
	Dismiss key.Binding
	dialogs []Dialog
}

// Push opens d over the dialogs already open.
func (s *Stack) Push(d Dialog) { s.dialogs = append(s.dialogs, d) }

// Replace puts d in place of the top dialog (or opens it when none is).
// An owner whose answers act on state that may have moved under an older
// question replaces it rather than stacking it.
func (s *Stack) Replace(d Dialog) {
	if len(s.dialogs) == 0 {
		s.Push(d)
		return
	}
	s.dialogs[len(s.dialogs)-1] = d
}

// Pop closes the top dialog and returns it (nil when none is open).
func (s *Stack) Pop() Dialog {
	if len(s.dialogs) == 0 {
		return nil
	}
	top := s.dialogs[len(s.dialogs)-1]
	s.dialogs[len(s.dialogs)-1] = nil
	s.dialogs = s.dialogs[:len(s.dialogs)-1]
	return top
}

// Clear closes every dialog.
func (s *Stack) Clear() {
	clear(s.dialogs)
	s.dialogs = s.dialogs[:0]
}

// Top is the dialog on top, nil when none is open.
func (s *Stack) Top() Dialog {
	if len(s.dialogs) == 0 {
		return nil
	}
	return s.dialogs[len(s.dialogs)-1]
}

// Open reports whether a dialog is open.
func (s *Stack) Open() bool { return len(s.dialogs) > 0 }

// Len is the number of open dialogs.
func (s *Stack) Len() int { return len(s.dialogs) }

// Update hands msg to the top dialog: the dismiss key pops it (with its
// Dismissed answer, if it has one); otherwise the dialog decides, and a
// dialog that is done is popped before its answer is returned, so the
// owner acting on the answer may push the next one. Nothing is open: no
// answer, no command.
func (s *Stack) Update(msg tea.Msg) (answer any, cmd tea.Cmd) {
	top := s.Top()
	if top == nil {
		return nil, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, s.Dismiss) {
		s.Pop()
		if d, ok := top.(Dismisser); ok {
			return d.Dismissed(), nil
		}
		return nil, nil
	}
	done, answer, cmd := top.Update(msg)
	if done {
		s.remove(top)
	}
	return answer, cmd
}

// remove closes d wherever it is on the stack (the top, unless d pushed
// another dialog while it handled its last key).
func (s *Stack) remove(d Dialog) {
	for i := len(s.dialogs) - 1; i >= 0; i-- {
		if s.dialogs[i] == d {
			s.dialogs = slices.Delete(s.dialogs, i, i+1)
			return
		}
	}
}

// ShortHelp is the top dialog's keys (nil when none is open).
func (s *Stack) ShortHelp() []key.Binding {
	if top := s.Top(); top != nil {
		return top.ShortHelp()
	}
	return nil
}

// CapturesInput is true while a dialog is open: the top one takes every
// key, the letters the panes and the root would act on too.
func (s *Stack) CapturesInput() bool { return s.Open() }

// View draws the top dialog centred over screen (width×height cells,
// common.Overlay); with none open it is screen.
func (s *Stack) View(screen string, width, height int) string {
	top := s.Top()
	if top == nil {
		return screen
	}
	return common.Overlay(screen, top.View(width, height), width, height)
}
