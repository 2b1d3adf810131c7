package payloads

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// part is a sub-model of the panel that can have the keys: it takes the
// key presses (and pastes, where it has a line to put them in), says
// which keys act (the footer) and whether it captures typed text. The
// panel asks focused for it, so which part that is is decided in one
// place.
type part interface {
	// Update takes a key press or a paste; what it asks of the panel
	// comes back as an intent.
	Update(msg tea.Msg) (tea.Cmd, intent)
	// ShortHelp is the footer: the keys that act, most important first.
	ShortHelp() []key.Binding
	// CapturesInput is true while typed text goes to the part.
	CapturesInput() bool
}

// focused is the part that has the keys: the picker while it is open
// (over everything else, y, v and o too), else the view the mode shows —
// the branch's requests, the project's breaks, or the pair.
func (m *Model) focused() part {
	switch {
	case m.picker != nil:
		return m.picker
	case m.mode == modeRequests:
		return requestsPart{m}
	case m.mode == modeBreaks:
		return breaksPart{m}
	}
	return &m.pairView
}

// CapturesInput implements common.Panel: while a reference is typed or a
// list is filtered.
func (m *Model) CapturesInput() bool { return m.focused().CapturesInput() }

// ShortHelp implements common.Panel: the keys of the focused part.
func (m *Model) ShortHelp() []key.Binding { return m.focused().ShortHelp() }

// requestsPart is the branch's requests as the part with the keys: a move
// of its cursor predicts the drops around it.
type requestsPart struct{ m *Model }

func (p requestsPart) Update(msg tea.Msg) (tea.Cmd, intent) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	cmd, in, moved := p.m.reqs.Update(k, p.m.keys, p.m.com, p.m.env)
	if moved {
		cmd = tea.Batch(cmd, p.m.nextPredictions())
	}
	return cmd, in
}
func (p requestsPart) ShortHelp() []key.Binding { return p.m.reqs.ShortHelp(p.m.keys, p.m.com) }
func (p requestsPart) CapturesInput() bool      { return p.m.reqs.list.Filtering() }

// breaksPart is the project's cache breaks as the part with the keys.
type breaksPart struct{ m *Model }

func (p breaksPart) Update(msg tea.Msg) (tea.Cmd, intent) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	return p.m.brk.Update(k, p.m.keys, p.m.com, p.m.env)
}
func (p breaksPart) ShortHelp() []key.Binding { return p.m.brk.ShortHelp(p.m.keys, p.m.com) }
func (p breaksPart) CapturesInput() bool      { return p.m.brk.list.Filtering() }
