package sessions

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
)

// focusPart is the part of the panel that has the keys: it takes the key
// presses, says which keys act (the footer) and whether it captures typed
// text. The panel asks focused for it and routes there, so which part
// that is is decided in one place.
type focusPart interface {
	// Key handles a key press.
	Key(msg tea.KeyPressMsg) tea.Cmd
	// ShortHelp is the footer: the keys that act, most important first.
	ShortHelp() []key.Binding
	// CapturesInput is true while typed text goes to the part.
	CapturesInput() bool
}

// focused is the part that has the keys, in this order: a dialog (the
// fork's question), the entry prompt, the search line, a list's filter
// line (each takes every key while it is open), else the focused pane.
func (m *Model) focused() focusPart {
	switch {
	case m.dialogs.Open():
		return dialogFocus{m}
	case m.gotoID != nil:
		return promptFocus{m}
	case m.search.Typing():
		return searchFocus{m}
	case m.filtering():
		return filterFocus{m}
	}
	return m.focusedPane()
}

// focusedPane is the pane part that has the focus.
func (m *Model) focusedPane() paneKeys {
	switch m.focus {
	case panePicker:
		return pickerPart{m}
	case paneTree:
		return treePart{m}
	case paneTimeline:
		return timelinePart{m}
	}
	return detailPart{m}
}

// handleKey routes a key to the focused part.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd { return m.focused().Key(msg) }

// CapturesInput implements common.Panel: true while a filter, the tree
// search or the entry prompt takes typed keys, or the fork dialog asks.
func (m *Model) CapturesInput() bool { return m.focused().CapturesInput() }

// ShortHelp implements common.Panel: the keys that act in the focused
// part, the most important first.
func (m *Model) ShortHelp() []key.Binding { return m.focused().ShortHelp() }

// dialogFocus: the dialog stack takes every key; its top dialog gives
// the footer.
type dialogFocus struct{ m *Model }

func (f dialogFocus) Key(msg tea.KeyPressMsg) tea.Cmd { return f.m.dialogKey(msg) }
func (f dialogFocus) ShortHelp() []key.Binding        { return f.m.dialogs.ShortHelp() }
func (f dialogFocus) CapturesInput() bool             { return f.m.dialogs.CapturesInput() }

// promptFocus: the "go to entry" prompt (find.go).
type promptFocus struct{ m *Model }

func (f promptFocus) Key(msg tea.KeyPressMsg) tea.Cmd { return f.m.gotoKey(msg) }
func (f promptFocus) ShortHelp() []key.Binding        { return f.m.typingHelp() }
func (f promptFocus) CapturesInput() bool             { return true }

// searchFocus: the search line of the tree or the timeline (find.go).
type searchFocus struct{ m *Model }

func (f searchFocus) Key(msg tea.KeyPressMsg) tea.Cmd { return f.m.searchKey(msg) }
func (f searchFocus) ShortHelp() []key.Binding        { return f.m.typingHelp() }
func (f searchFocus) CapturesInput() bool             { return true }

// filterFocus: the picker's or the timeline's filter line.
type filterFocus struct{ m *Model }

func (f filterFocus) Key(msg tea.KeyPressMsg) tea.Cmd { return f.m.filterKey(msg) }
func (f filterFocus) ShortHelp() []key.Binding        { return f.m.typingHelp() }
func (f filterFocus) CapturesInput() bool             { return true }

// typingHelp is the footer while a line takes typed text.
func (m *Model) typingHelp() []key.Binding {
	sk := &m.com.Keys.Search
	return []key.Binding{sk.Accept, sk.Clear, sk.Cancel}
}

// paneKeys is a pane part: the panel's keys act in every pane first
// (panelKey), then the pane's own (nav); it draws itself in its rect.
type paneKeys interface {
	focusPart
	// nav handles the keys that move and act in the pane.
	nav(msg tea.KeyPressMsg) tea.Cmd
	// View draws the pane at its outer size r.
	View(r rect) string
}

// paneKey is a key in a pane: the panel's keys, then the pane's.
func (m *Model) paneKey(p paneKeys, msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.panelKey(msg); ok {
		return cmd
	}
	return p.nav(msg)
}

// pickerPart is the session picker pane.
type pickerPart struct{ m *Model }

func (p pickerPart) Key(msg tea.KeyPressMsg) tea.Cmd { return p.m.paneKey(p, msg) }
func (p pickerPart) CapturesInput() bool             { return false }

// ShortHelp: open, filter, scope, and following the open session.
func (p pickerPart) ShortHelp() []key.Binding {
	m := p.m
	k := &m.keys
	var bs []key.Binding
	if m.picker.list.Len() > 0 {
		bs = append(bs, k.Open)
	}
	bs = append(bs, k.Filter, k.Scope, m.com.Keys.View)
	if m.ls != nil {
		bs = append(bs, m.followHint()) // follows the open session
	}
	return bs
}

// treePart is the branch tree pane.
type treePart struct{ m *Model }

func (p treePart) Key(msg tea.KeyPressMsg) tea.Cmd { return p.m.paneKey(p, msg) }
func (p treePart) CapturesInput() bool             { return false }

// ShortHelp: moving and searching the tree, then what acts on its entry.
func (p treePart) ShortHelp() []key.Binding {
	m := p.m
	k := &m.keys
	sk := &m.com.Keys.Search
	bs := []key.Binding{k.Open, m.treeSearchKey()}
	if m.search.Active() && m.searchPane == paneTree {
		bs = append(bs, sk.Next, sk.Prev)
	}
	// The comparison's keys come last: the footer drops what does not
	// fit, and moving, going to the leaf and copying are used more.
	return append(bs, k.Fold, k.Unfold, k.TreeFilter, k.GotoEntry, k.ToLeaf, k.Context, m.com.Keys.Copy, k.ContinueInPi, k.Composition, k.Mark, k.Compare)
}

// timelinePart is the timeline pane: one branch's entries.
type timelinePart struct{ m *Model }

func (p timelinePart) Key(msg tea.KeyPressMsg) tea.Cmd { return p.m.paneKey(p, msg) }
func (p timelinePart) CapturesInput() bool             { return false }

// ShortHelp: moving and searching the branch, then what acts on its entry.
func (p timelinePart) ShortHelp() []key.Binding {
	m := p.m
	k := &m.keys
	sk := &m.com.Keys.Search
	bs := []key.Binding{k.Open, m.treeSearchKey()}
	if m.search.Active() && m.searchPane == paneTimeline {
		bs = append(bs, sk.Next, sk.Prev, k.MatchesOnly)
	}
	if m.mode == modeContext {
		bs = append(bs, k.PiContext) // the Context view beside follows this cursor
	}
	// The skipped lines' key is in the timeline's mark (skippedMark).
	return append(bs, k.Context, m.followHint(), k.GotoEntry, k.ToLeaf, m.com.Keys.Copy, k.CopyContext, k.Stats, m.com.Keys.View, k.ContinueInPi, k.Composition, k.Mark, k.Compare)
}

// detailPart is the detail pane: the entry, or the view mode names.
type detailPart struct{ m *Model }

func (p detailPart) Key(msg tea.KeyPressMsg) tea.Cmd { return p.m.paneKey(p, msg) }
func (p detailPart) CapturesInput() bool             { return false }

// ShortHelp: the keys of the view the pane shows.
func (p detailPart) ShortHelp() []key.Binding {
	m := p.m
	k := &m.keys
	switch m.mode {
	case modeEntry:
		return []key.Binding{k.Expand, k.Thinking, m.com.Keys.Copy, m.com.Keys.View, k.CopyContext, k.Context, k.Back, k.ContinueInPi}
	case modeContext:
		return []key.Binding{k.PiContext, k.Up, k.Down, k.Expand, m.com.Keys.Copy, m.com.Keys.View, k.Back}
	case modeCompare:
		return []key.Binding{keymap.WithHelp(k.Open, i18n.Mark("request diff")), k.Up, k.Down, m.com.Keys.View, k.Back}
	}
	return []key.Binding{k.Up, k.Down, m.com.Keys.View, k.Back}
}
