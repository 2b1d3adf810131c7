// Package palette is the `:` switcher: one fuzzy-filtered list of the
// focused panel's actions and the places of the workbench (sessions,
// entries of the selected session, agents of its tree, Presets and
// capabilities). Choosing an action sends its message; choosing a place
// sends one common.JumpMsg (Common.Jump), which brings the place's panel
// to the front and moves its cursor and the selection there.
//
// Typing never waits for matching: every key edits the query at once,
// and the query is matched in a command once the keys rest
// (common.Debounce), over immutable snapshots of the sources; a newer
// query stops an older match. enter or a move on results older than the
// query matches at once first, so keys typed ahead all count.
package palette

import (
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// ClosedMsg is sent when the palette closes without running anything.
type ClosedMsg struct{}

// Places is what the root hands the palette when it opens, from the
// panels that hold it: the sessions the Session panel's picker lists and
// the agents of the Agents panel's tree (root: its root session).
type Places struct {
	Sessions  []session.ListItem
	AgentRoot string
	Agents    []*subagent.Agent
}

// Model is the palette dialog.
type Model struct {
	com      *common.Common
	input    textinput.Model
	open     bool
	maxItems int

	// srcs are the current rows of every kind; of what each was built
	// from (sourceMsg.of); problem why a kind could not be read.
	srcs    [kindCount]Source
	of      [kindCount]any
	problem string
	// offered is the sessions listing whose rows are being built.
	offered any

	// rows are the matches of query over shown (the sources as they were
	// when matched, so an index always finds its row); total counts every
	// match; cursor is the chosen row.
	rows   []result
	shown  [kindCount]Source
	total  int
	query  string
	cursor int
	// stale is true while rows do not answer the query typed over the
	// current sources.
	stale bool
	// search waits for typing to rest; gen numbers the matches asked (a
	// pointer: the Model is a value, and a match in flight reads it to
	// stop once superseded).
	search *common.Debounce
	gen    *atomic.Uint64
}

// matchedMsg carries the rows of one match.
type matchedMsg struct {
	gen   uint64
	query string
	srcs  [kindCount]Source
	rows  []result
	total int
}

// New returns a closed palette answering to the keys of com
// (keymap.Palette); its input edits with the workbench's one-line text
// keys (keymap.TextEditor).
func New(com *common.Common) Model {
	in := textinput.New()
	in.Prompt = ": "
	in.Placeholder = placeholder()
	common.ApplyTextKeys(&in, &com.Keys.Forms.Text)
	// A steady cursor, like every input of the workbench; View gives it
	// the theme's colour, so a theme switch reaches it.
	common.ApplyTextStyle(&in, nil)
	m := Model{com: com, input: in, maxItems: 10, search: &common.Debounce{}, gen: &atomic.Uint64{}}
	for k := range m.srcs {
		m.srcs[k].Kind = Kind(k)
	}
	return m
}

// Prefetch starts reading what the palette reads itself (the library),
// so the first `:` lists it at once.
func (m Model) Prefetch() tea.Cmd { return libraryCmd(m.com.Services(), false) }

// Open shows the palette over actions and the places, focuses its input
// and starts refreshing the sources it reads itself (the library and the
// selected session's entries); until they arrive, the last ones show.
func (m *Model) Open(actions []Action, places Places) tea.Cmd {
	m.open, m.cursor, m.problem = true, 0, ""
	m.input.Reset()
	m.input.Placeholder = placeholder() // the language may have changed since New
	m.srcs[KindAction] = actionSource(actions)
	m.srcs[KindAgent] = AgentRows(places.AgentRoot, places.Agents)
	cmds := []tea.Cmd{m.input.Focus(), libraryCmd(m.com.Services(), true), m.Offer(places.Sessions)}
	if sel := m.com.Selection; sel.SessionFile != "" {
		cmds = append(cmds, entriesCmd(sel.SessionFile, sel.SessionName))
	} else {
		m.srcs[KindEntry], m.of[KindEntry] = Source{Kind: KindEntry}, nil
	}
	m.matchNow()
	return tea.Batch(cmds...)
}

// placeholder is the input's text while it is empty.
func placeholder() string {
	return i18n.T("go to a session, entry, agent, preset, capability, or run an action")
}

// Owns reports whether msg is the palette's own (its sources and its
// matches): the root hands such a message to the palette alone.
func Owns(msg tea.Msg) bool {
	switch msg.(type) {
	case sourceMsg, sourcesMsg, matchedMsg:
		return true
	}
	return false
}

// Offer hands the palette the sessions the picker lists: a listing it
// has no rows of yet is built into rows in a command, so they are ready
// before `:` (the root offers the listing after every Update; an
// unchanged one costs a comparison).
func (m *Model) Offer(sessions []session.ListItem) tea.Cmd {
	of := listingOf(sessions)
	if of == m.of[KindSession] || of == m.offered {
		return nil
	}
	m.offered = of
	return sessionsCmd(sessions)
}

// IsOpen reports whether the palette is showing.
func (m Model) IsOpen() bool { return m.open }

// Query is what is typed.
func (m Model) Query() string { return m.input.Value() }

// Update handles keys while the palette is open, and the sources and
// matches that arrive (also while it is closed: sources are kept).
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case sourceMsg:
		if msg.err != nil {
			m.problem = msg.err.Error()
			return m, nil
		}
		if msg.of != nil && msg.of == m.of[msg.src.Kind] {
			return m, nil // the rows shown were built from the same data
		}
		if msg.src.Kind == KindSession && msg.of != m.offered {
			return m, nil // a newer listing is being built
		}
		m.srcs[msg.src.Kind], m.of[msg.src.Kind] = msg.src, msg.of
		return m, m.invalidate()
	case sourcesMsg:
		if msg.err != nil {
			m.problem = msg.err.Error()
			return m, nil
		}
		m.srcs[KindPreset], m.srcs[KindCapability] = msg.presets, msg.caps
		return m, m.invalidate()
	case matchedMsg:
		if msg.gen == m.gen.Load() {
			m.apply(msg)
		}
		return m, nil
	case common.DueMsg:
		if due, again := m.search.Due(msg); due {
			return m, m.matchCmd()
		} else if again != nil {
			return m, again
		}
		return m, nil
	}
	if !m.open {
		return m, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		keys := &m.com.Keys.CommandPalette
		switch {
		case key.Matches(k, keys.Close):
			m.close()
			return m, func() tea.Msg { return ClosedMsg{} }
		case key.Matches(k, keys.Up):
			m.freshen()
			m.cursor = max(0, m.cursor-1)
			return m, nil
		case key.Matches(k, keys.Down):
			m.freshen()
			m.cursor = max(0, min(len(m.rows)-1, m.cursor+1))
			return m, nil
		case key.Matches(k, keys.Run):
			m.freshen()
			it, ok := m.chosen()
			m.close()
			return m, m.run(it, ok)
		}
	}
	var cmd tea.Cmd
	before := m.input.Value()
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() != before {
		cmd = tea.Batch(cmd, m.invalidate())
	}
	return m, cmd
}

// run is what choosing it does: an action's message, or one jump.
func (m *Model) run(it Item, ok bool) tea.Cmd {
	switch {
	case !ok:
		return func() tea.Msg { return ClosedMsg{} }
	case it.Target != nil:
		return m.com.Jump(*it.Target)
	}
	chosen := it.Msg
	return func() tea.Msg { return chosen }
}

// close hides the palette; a match in flight comes to nothing.
func (m *Model) close() {
	m.open = false
	m.search.Cancel()
	m.gen.Add(1)
}

// chosen is the row under the cursor.
func (m *Model) chosen() (Item, bool) {
	if m.cursor < 0 || m.cursor >= len(m.rows) {
		return Item{}, false
	}
	r := m.rows[m.cursor]
	return m.shown[r.kind].Item(r.index), true
}

// invalidate marks the rows stale and asks for a match once typing (or a
// refresh of the sources) rests; a match in flight stops.
func (m *Model) invalidate() tea.Cmd {
	m.stale = true
	m.gen.Add(1)
	if !m.open {
		return nil
	}
	return m.search.Ask(m.com, common.RenderDelay)
}

// matchCmd matches the query over the sources as they are now.
func (m *Model) matchCmd() tea.Cmd {
	gen, query, srcs, counter := m.gen.Add(1), m.input.Value(), m.srcs, m.gen
	return func() tea.Msg {
		rows, total, ok := match(query, srcs[:], func() bool { return counter.Load() != gen })
		if !ok {
			return nil
		}
		return matchedMsg{gen: gen, query: query, srcs: srcs, rows: rows, total: total}
	}
}

// freshen matches at once when the rows do not answer what is typed (a
// key typed ahead of the match): enter and the moves act on the rows of
// the query the user sees.
func (m *Model) freshen() {
	if m.stale {
		m.matchNow()
	}
}

// matchNow matches in Update (Open, and keys that act on the rows).
func (m *Model) matchNow() {
	m.search.Cancel()
	gen, query := m.gen.Add(1), m.input.Value()
	rows, total, _ := match(query, m.srcs[:], nil)
	m.apply(matchedMsg{gen: gen, query: query, srcs: m.srcs, rows: rows, total: total})
}

// apply shows a match: a new query starts at the best row, a refresh of
// the same query keeps the cursor's place.
func (m *Model) apply(msg matchedMsg) {
	if msg.query != m.query {
		m.cursor = 0
	}
	m.rows, m.total, m.query, m.shown = msg.rows, msg.total, msg.query, msg.srcs
	m.cursor = max(0, min(m.cursor, len(m.rows)-1))
	m.stale = msg.query != m.input.Value()
}

// View renders the dialog no wider than width.
func (m Model) View(st themes.Styles, width int) string {
	inner := max(20, min(100, width-6))
	m.input = m.themedInput(st)
	m.input.SetWidth(inner - 3)
	keys := &m.com.Keys.CommandPalette
	count := i18n.T("%d matches", m.total)
	if len(m.rows) < m.total {
		count = i18n.T("%d of %d matches (type to narrow)", len(m.rows), m.total)
	}
	title := st.Dialog.Title.Render(i18n.T("Go to or run"))
	gap := max(1, inner-lipgloss.Width(title)-lipgloss.Width(count))
	lines := []string{title + strings.Repeat(" ", gap) + st.Text.Muted.Render(count), m.input.View()}
	if len(m.rows) == 0 {
		lines = append(lines, st.Text.Muted.Render(i18n.T("nothing matches")))
	}
	start := max(0, m.cursor-m.maxItems+1)
	kw := kindWidth()
	for i := start; i < len(m.rows) && i < start+m.maxItems; i++ {
		r := m.rows[i]
		lines = append(lines, rowView(&st, m.shown[r.kind].Item(r.index), inner, kw, i == m.cursor))
	}
	if m.problem != "" {
		lines = append(lines, st.Text.Warning.Render(ansi.Truncate(m.problem, inner, "…")))
	}
	hint := common.KeyHint([]key.Binding{keys.Run, keys.Up, keys.Down, keys.Close})
	lines = append(lines, st.Text.Muted.Render(ansi.Truncate(hint, inner, "…")))
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}

// rowView draws one row: the kind (in a column kindW cells wide), the id
// (whole), the title, the detail (muted) and the key (right-aligned), cut
// to width.
func rowView(st *themes.Styles, it Item, width, kindW int, selected bool) string {
	kind := it.Kind.String()
	kind += strings.Repeat(" ", max(0, kindW-ansi.StringWidth(kind))+1) // padded by cells: a Chinese name is two per character
	id := ""
	if it.ID != "" {
		id = it.ID + "  "
	}
	lead := kind + id
	room := width - 2 - ansi.StringWidth(lead)
	hint := ""
	if it.Hint != "" {
		hint = " " + it.Hint
		room -= ansi.StringWidth(hint)
	}
	text := it.Title
	if it.Detail != "" {
		text += "  " + it.Detail
	}
	text = ansi.Truncate(text, max(1, room), "…")
	pad := strings.Repeat(" ", max(0, room-ansi.StringWidth(text)))
	if selected {
		return st.List.Selected.Render("> " + lead + text + pad + hint)
	}
	title := ansi.Truncate(it.Title, max(1, room), "…")
	rest := ""
	if w := ansi.StringWidth(title); w < ansi.StringWidth(text) {
		rest = st.Text.Muted.Render(ansi.Cut(text, w, ansi.StringWidth(text)))
	}
	return st.List.Item.Render("  ") + st.Text.Muted.Render(kind) + st.List.Item.Render(id+title) + rest + pad + st.Text.Muted.Render(hint)
}

// themedInput is the input with the cursor of theme st: styled at render
// time, so a theme switch reaches an open palette.
func (m Model) themedInput(st themes.Styles) textinput.Model {
	in := m.input
	common.ApplyTextStyle(&in, &st)
	return in
}
