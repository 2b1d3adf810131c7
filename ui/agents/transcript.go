package agents

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/follower"
	"github.com/forgebench/forgebench/ui/components/transcript"
)

// transcriptState is the read-only transcript of one agent: the pages
// loaded so far (newest first), their rendered lines and the live tail.
// It scrolls, pages and draws itself (Update, View, ShortHelp); reading,
// rendering and tailing its file are the panel's commands, asked for
// through intents.
type transcriptState struct {
	gen  int
	path string
	file string
	tr   *subagent.Transcript
	// size is how much of the file has been read (where a tail starts).
	size     int64
	pages    int
	expanded bool
	loading  bool
	err      string

	lines     []string
	linesKey  string
	rendering string
	offset    int
	// fromBottom is how far the view was from the bottom when a new
	// rendering was asked for, so the same content stays on screen.
	fromBottom int

	// following is the live tail: new entries are appended and, while the
	// view is at the bottom, shown at once.
	following bool
	followed  int
	// wantEntry is the entry a jump scrolls to once rendered ("" = none),
	// and wantQuery the search hit to reveal in it: the transcript expands
	// when the collapsed rendering hides the match and scrolls to its line.
	wantEntry, wantQuery string
	// starts are the rendered entries' first lines, entries those entries.
	starts  []int
	entries []*session.Entry
	// markQuery is the hit whose words are marked on screen ("" = none);
	// marked memoises the marked window.
	markQuery string
	marked    markedWindow
}

// markedWindow is the last transcript window drawn with marks.
type markedWindow struct {
	key, query string
	off, h     int
	lines      []string
}

type (
	// transcriptLoadedMsg carries an agent's transcript.
	transcriptLoadedMsg struct {
		gen  int
		tr   *subagent.Transcript
		size int64
		err  error
	}
	// transcriptRenderedMsg carries the rendered lines of some pages.
	transcriptRenderedMsg struct {
		gen     int
		key     string
		lines   []string
		starts  []int
		entries []*session.Entry
	}
)

// openTranscript switches to the selected agent's transcript.
func (m *Model) openTranscript() tea.Cmd { return m.openTranscriptOf(m.selected()) }

// openTranscriptOf switches to agent a's transcript.
func (m *Model) openTranscriptOf(a *subagent.Agent) tea.Cmd {
	if a == nil {
		return nil
	}
	m.stopTranscript()
	gen := m.tr.gen + 1
	m.tr = transcriptState{gen: gen, path: a.Path, file: a.File, pages: 1, loading: true}
	m.screen = screenTranscript
	if a.File == "" {
		m.tr.loading, m.tr.err = false, i18n.T("The session file of %s is missing; there is no transcript to show.", a.Path)
		return nil
	}
	file := a.File
	return func() tea.Msg {
		s, err := session.OpenForDisplay(file) // a display path: runaway lines are skipped
		if err != nil {
			return transcriptLoadedMsg{gen: gen, err: i18n.Errorf("open transcript: %w", err)}
		}
		return transcriptLoadedMsg{gen: gen, tr: subagent.NewTranscript(s, subagent.DefaultPageSize), size: s.Size}
	}
}

// stopTranscript ends a live tail, if any.
func (m *Model) stopTranscript() {
	m.tail.Stop()
	m.tr.following = false
}

func (m *Model) applyTranscript(msg transcriptLoadedMsg) tea.Cmd {
	if msg.gen != m.tr.gen {
		return nil
	}
	m.tr.loading = false
	if msg.err != nil {
		m.tr.err = msg.err.Error()
		return nil
	}
	m.tr.tr, m.tr.size = msg.tr, msg.size
	m.tr.fromBottom = 0
	if m.tr.wantEntry != "" { // a jump: load the pages down to the entry
		m.tr.pages = max(m.tr.pages, pagesFor(m.tr.tr, m.tr.wantEntry))
	}
	return m.renderTranscript()
}

// transcriptHeight is the number of transcript lines on screen.
func (m *Model) transcriptHeight() int { return max(1, m.height-2) }

// renderKey names one rendering of the transcript.
func (m *Model) renderKey() string {
	return fmt.Sprintf("%d|%d|%d|%v|%d|%s", len(m.tr.tr.Items), m.tr.tr.PageSize, m.tr.pages, m.tr.expanded, m.width, common.ThemeKey(&m.com.Styles))
}

// renderTranscript renders the loaded pages in a command unless that
// rendering is on screen or on its way.
func (m *Model) renderTranscript() tea.Cmd {
	if m.tr.tr == nil {
		return nil
	}
	key := m.renderKey()
	if key == m.tr.linesKey || key == m.tr.rendering {
		return nil
	}
	m.tr.fromBottom = max(0, m.bottom()-m.tr.offset)
	if m.tr.following {
		m.tr.fromBottom = 0
	}
	m.tr.rendering = key
	var items []transcript.Item
	var entries []*session.Entry
	for _, it := range m.tr.tr.Newest(m.tr.pages) {
		h := transcript.Header{}
		if it.Inherited {
			h.Note = i18n.T("copied from parent")
		}
		items = append(items, transcript.Item{Entry: it.Entry, Header: h})
		entries = append(entries, it.Entry)
	}
	styles := m.com.Styles // a copy: a theme switch must not race the render
	r := transcript.Renderer{Styles: &styles, Markdown: m.com.Markdown()}
	opts := transcript.Options{Width: max(10, m.width-4), Expanded: m.tr.expanded, OmitThinking: true,
		ExpandKey: m.keys.Expand.Help().Key}
	gen, more := m.tr.gen, m.tr.pages < m.tr.tr.Pages()
	earlier := m.keys.Earlier.Help().Key
	return func() tea.Msg {
		lines, starts := r.PageWithStarts(items, opts)
		if more {
			lines = append([]string{styles.Text.Subtle.Render(i18n.T("… earlier entries: %s loads the previous page", earlier)), ""}, lines...)
			for i := range starts {
				starts[i] += 2
			}
		}
		return transcriptRenderedMsg{gen: gen, key: key, lines: lines, starts: starts, entries: entries}
	}
}

// applyRendered shows a rendering; after a jump it scrolls to the entry,
// and to the hit's line in it, expanding the transcript first when the
// collapsed rendering hides the match.
func (m *Model) applyRendered(msg transcriptRenderedMsg) tea.Cmd {
	if msg.gen != m.tr.gen || msg.key != m.tr.rendering {
		return nil
	}
	m.tr.rendering = ""
	m.tr.lines, m.tr.linesKey, m.tr.starts, m.tr.entries = msg.lines, msg.key, msg.starts, msg.entries
	m.tr.offset = max(0, m.bottom()-m.tr.fromBottom)
	at, ok := entryLine(msg.lines, m.tr.wantEntry)
	if !ok {
		m.tr.wantEntry, m.tr.wantQuery = "", ""
		return nil
	}
	m.tr.offset = min(at, m.bottom())
	if m.tr.wantQuery != "" {
		from, to := revealRange(msg.starts, at, len(msg.lines))
		line, found := transcript.MatchLine(msg.lines, m.tr.wantQuery, from, to)
		if !found && !m.tr.expanded {
			m.tr.expanded = true // the match is in collapsed output
			return m.renderTranscript()
		}
		if found {
			m.tr.offset = min(transcript.RevealOffset(line, at, m.transcriptHeight()), m.bottom())
		}
	}
	m.tr.wantEntry, m.tr.wantQuery = "", ""
	return nil
}

// window is the transcript's lines on screen with h rows, from the
// scroll, and where they start.
func (t *transcriptState) window(h int) ([]string, int) {
	end := min(len(t.lines), t.offset+h)
	from := min(t.offset, end)
	return t.lines[from:end], from
}

// layout marks the hit's words in the window on screen with h rows
// (memoised in marked per rendering, window and query); the panel calls
// it after every Update and resize (layoutParts), so View only reads it.
func (t *transcriptState) layout(h int, match lipgloss.Style) {
	if strings.TrimSpace(t.markQuery) == "" || t.lines == nil {
		return
	}
	lines, off := t.window(h)
	if !t.marked.holds(t.linesKey, t.markQuery, off, len(lines)) {
		t.marked = markedWindow{key: t.linesKey, query: t.markQuery, off: off, h: len(lines), lines: markWords(lines, t.markQuery, match)}
	}
}

// holds reports that the memo is of this rendering, query and window.
func (mw *markedWindow) holds(key, query string, off, h int) bool {
	return mw.lines != nil && mw.key == key && mw.query == query && mw.off == off && mw.h == h
}

// markedLines is the window lines starting at off with the hit's words
// marked: layout's memo when it is of this window, else marked anew
// (View never keeps them).
func (t *transcriptState) markedLines(lines []string, off int, match lipgloss.Style) []string {
	if strings.TrimSpace(t.markQuery) == "" {
		return lines
	}
	if t.marked.holds(t.linesKey, t.markQuery, off, len(lines)) {
		return t.marked.lines
	}
	return markWords(lines, t.markQuery, match)
}

// markWords marks the words of query in lines.
func markWords(lines []string, query string, match lipgloss.Style) []string {
	words := strings.Fields(query)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = transcript.MarkWords(l, words, match)
	}
	return out
}

// bottom is the offset that shows the last line.
func (m *Model) bottom() int { return m.tr.bottom(m.transcriptHeight()) }

// bottom is the offset that shows the last line with h lines on screen.
func (t *transcriptState) bottom(h int) int { return max(0, len(t.lines)-h) }

// scrollTranscript moves the view; leaving the bottom pauses following.
func (m *Model) scrollTranscript(delta int) { m.tr.scroll(delta, m.transcriptHeight()) }

// scroll moves the view of h lines; leaving the bottom pauses following.
func (t *transcriptState) scroll(delta, h int) {
	t.offset = min(max(0, t.offset+delta), t.bottom(h))
	if t.offset < t.bottom(h) {
		t.following = false
	}
}

// Update answers a key on the transcript screen (h lines on screen):
// scrolling, earlier pages and expanded output are its own; back,
// following the file, a new rendering and a message are asked of the
// panel.
func (t *transcriptState) Update(msg tea.KeyPressMsg, k *keymap.Agents, h int) intent {
	page := max(1, h-1)
	switch {
	case key.Matches(msg, k.Back):
		return backIntent{}
	case key.Matches(msg, k.Follow):
		return followIntent{}
	case key.Matches(msg, k.Earlier):
		if t.tr != nil && t.pages < t.tr.Pages() {
			t.pages++
			t.following = false
			return renderIntent{}
		}
		return statusIntent{text: i18n.T("this is the first page")}
	case key.Matches(msg, k.Expand):
		t.expanded = !t.expanded
		return renderIntent{}
	case key.Matches(msg, k.Up):
		t.scroll(-1, h)
	case key.Matches(msg, k.Down):
		t.scroll(1, h)
	case key.Matches(msg, k.PageUp):
		t.scroll(-page, h)
	case key.Matches(msg, k.PageDown):
		t.scroll(page, h)
	case key.Matches(msg, k.Top):
		t.scroll(-len(t.lines), h)
	case key.Matches(msg, k.Bottom):
		t.scroll(len(t.lines), h)
	}
	return nil
}

// View draws the transcript in a w×h frame; status stands in for the
// position when set, tailing says the file is still tailed.
func (t *transcriptState) View(st *themes.Styles, k *keymap.Agents, status string, tailing bool, w, h int) string {
	rows := max(1, h-2)
	var lines []string
	switch {
	case t.err != "":
		lines = wrap(st.Text.Danger.Render(t.err), w-4)
	case t.lines == nil:
		lines = []string{st.Pane.Placeholder.Render(i18n.T("reading the transcript…"))}
	default:
		window, off := t.window(rows)
		lines = t.markedLines(window, off, st.List.Match)
	}
	title := i18n.T("Transcript · %s", sanitize.Clip(t.path, 80))
	return common.Frame(*st, w, h, title, t.info(k, status, tailing, rows), true, lines)
}

// info is the transcript's bottom border: pages, follow state, position.
func (t *transcriptState) info(k *keymap.Agents, status string, tailing bool, rows int) string {
	if status != "" {
		return sanitize.Fold(status)
	}
	if t.tr == nil {
		return ""
	}
	parts := []string{i18n.T("page %d of %d", t.pages, t.tr.Pages())}
	if t.tr.Inherited > 0 {
		parts = append(parts, i18n.T("%d copied", t.tr.Inherited))
	}
	switch {
	case t.following && t.offset >= t.bottom(rows):
		parts = append(parts, i18n.T("following (+%d)", t.followed))
	case tailing:
		parts = append(parts, i18n.T("%s resumes following", k.Follow.Help().Key))
	}
	if n := len(t.lines); n > 0 {
		parts = append(parts, i18n.T("line %d/%d", min(n, t.offset+1), n))
	}
	return strings.Join(parts, " · ")
}

// ShortHelp is the transcript's keys.
func (t *transcriptState) ShortHelp(k *keymap.Agents, view key.Binding) []key.Binding {
	return []key.Binding{k.Follow, k.Earlier, k.Expand, view, k.Back, k.PageDown, k.Up, k.Down}
}

// followTranscript jumps to the newest page and follows the file.
func (m *Model) followTranscript() tea.Cmd {
	if m.tr.tr == nil {
		return nil
	}
	m.tr.offset = m.bottom()
	m.tr.fromBottom = 0
	var cmds []tea.Cmd
	if m.tr.pages != 1 {
		m.tr.pages = 1
		cmds = append(cmds, m.renderTranscript())
	}
	wasFollowing := m.tail.Running()
	m.tr.following = true
	if !wasFollowing && m.tr.file != "" {
		cmds = append(cmds, m.tail.Start(m.tr.file, m.tr.size, session.TailOptions{}))
	}
	return tea.Batch(cmds...)
}

func (m *Model) applyTailStarted(msg follower.StartedMsg) tea.Cmd {
	if mine := msg.Owner == tailOwner; mine && m.screen != screenTranscript {
		m.tail.Stop() // left the transcript meanwhile
	}
	_, current, wait, err := m.tail.Started(msg)
	if !current {
		return nil
	}
	if err != nil {
		m.setStatus(err.Error(), true)
		m.tr.following = false
		return nil
	}
	return wait
}

// applyTail appends followed entries and renders them.
func (m *Model) applyTail(msg follower.EventMsg) tea.Cmd {
	if !m.tail.Current(msg) || !m.tail.Running() {
		return nil
	}
	if !msg.OK {
		m.stopTranscript()
		m.setStatus(i18n.T("follow ended"), false)
		return nil
	}
	switch msg.Event.Kind {
	case session.TailLines:
		lines, _ := msg.Data.(tailLinesData)
		for _, e := range lines.entries {
			m.tr.tr.Append(e)
			m.tr.followed++
		}
		m.tr.size = max(m.tr.size, lines.end)
	case session.TailReset:
		m.setStatus(i18n.T("the session file was replaced; press %s to read it again", m.keys.Transcript.Help().Key), false)
	case session.TailError:
		m.setStatus(i18n.T("follow: %v", msg.Event.Err), true)
	}
	return tea.Batch(m.renderTranscript(), m.tail.Wait())
}
