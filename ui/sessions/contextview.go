package sessions

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/transcript"
)

// The Context view shows the request at the selected entry the way the
// Payloads panel and `payload show session:FILE#ENTRY` show it: as the
// provider received it, pi-forge's rewrite included (sentrequest.At), or —
// one key away — as Pi alone built it. The rebuild runs in a command,
// once the cursor rests (sent.go), and is cached per file version and
// entry; Update and View only pick the cached result.

// contextLinesPerMessage bounds each message in the compact context view.
const contextLinesPerMessage = 4

// contextMessage is one message of a rebuilt request, reduced to a role
// and display text.
type contextMessage struct {
	role string
	text string
}

// contextSide is one rebuilt request as the view shows and copies it.
type contextSide struct {
	// payload is the request (replay.Request.Payload), copied as JSON.
	payload       *jsonv.Object
	model         string
	thinkingLevel string
	tools         []string
	// messages are the system prompt (when the request has one), then
	// the messages in order.
	messages []contextMessage
}

// contextResult is the request at one entry, as sent and as Pi built it.
type contextResult struct {
	key contextKey
	idx int
	// entry is the entry's id; contextEntry the entry its context was
	// built at ("" for an empty one), which for an assistant message
	// (forAssistant) is its parent.
	entry, contextEntry string
	forAssistant        bool
	// sent is the request as the provider received it; pi as Pi built
	// it (the same value when same). sentErr says why sent is missing.
	sent, pi *contextSide
	sentErr  string
	same     bool
	// presetID is the Preset that compiled the request sent ("" none);
	// inferred what its rebuild assumed.
	presetID string
	inferred []string
	err      error
}

// side is the request the view shows: Pi's when pi is set, else the one
// sent (nil when it could not be rebuilt).
func (r *contextResult) side(pi bool) *contextSide {
	if pi || r.same {
		return r.pi
	}
	return r.sent
}

// newContextSide reduces a rebuilt request to what the view draws; every
// text from the session is sanitised here, in the command.
func newContextSide(q *replay.Request) *contextSide {
	c := &contextSide{payload: q.Payload, thinkingLevel: sanitize.Fold(q.ThinkingLevel)}
	if q.Provider != "" || q.Model != "" {
		c.model = sanitize.Fold(q.Provider + "/" + q.Model)
	}
	for _, t := range q.Tools {
		c.tools = append(c.tools, sanitize.Fold(t))
	}
	if sys, ok := q.Payload.Get("system"); ok {
		c.messages = append(c.messages, contextMessage{role: session.RoleSystem, text: sanitize.Text(jsonv.ToString(sys))})
	}
	msgs, _ := q.Payload.Get("messages")
	list, _ := msgs.([]any)
	for _, m := range list {
		obj, ok := m.(*jsonv.Object)
		if !ok {
			continue
		}
		role, _ := obj.Get("role")
		rs, _ := role.(string)
		content, _ := obj.Get("content")
		c.messages = append(c.messages, contextMessage{role: sanitize.Fold(rs), text: sanitize.Text(contentText(content))})
	}
	return c
}

// contentText flattens message content for the compact view: text as is,
// thinking and images as placeholders, tool calls as name(arguments).
func contentText(c any) string {
	switch v := c.(type) {
	case string:
		return v
	case []any:
		parts := make([]string, 0, len(v))
		for _, b := range v {
			obj, ok := b.(*jsonv.Object)
			if !ok {
				continue
			}
			typ, _ := obj.Get("type")
			switch typ {
			case session.BlockText:
				t, _ := obj.Get("text")
				parts = append(parts, jsonv.ToString(t))
			case session.BlockThinking:
				t, _ := obj.Get("thinking")
				parts = append(parts, i18n.T("[thinking, %d chars]", jsonv.UTF16Len(jsonv.ToString(t))))
			case session.BlockToolCall:
				name, _ := obj.Get("name")
				args, _ := obj.Get("arguments")
				parts = append(parts, "→ "+jsonv.ToString(name)+"("+jsonv.Stringify(args)+")")
			case session.BlockImage:
				parts = append(parts, i18n.T("[image]"))
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// contextLayout is what renderContext needs besides the result.
type contextLayout struct {
	width int
	// pi shows Pi's context instead of the request as sent; full shows
	// every line of every message.
	pi, full bool
	// expandKey and switchKey are the keys the hints name.
	expandKey, switchKey string
}

// modeLine says which request the view shows and, when the other one
// differs, the key that switches to it.
func modeLine(res *contextResult, lay contextLayout) string {
	switch {
	case res.same && res.presetID != "":
		return i18n.T("as sent · Preset %s · the same request as Pi's context", res.presetID)
	case res.same:
		return i18n.T("as sent · the same as Pi's context: nothing rewrote this request")
	case res.sentErr != "" && lay.pi:
		return i18n.T("Pi's context · the request as sent could not be rebuilt (%s shows why)", lay.switchKey)
	case res.sentErr != "":
		return i18n.T("as sent: not rebuilt · %s Pi's context", lay.switchKey)
	}
	by := i18n.T("rewritten by pi-forge")
	if res.presetID != "" {
		by = i18n.T("Preset %s", res.presetID)
	}
	if lay.pi {
		return i18n.T("Pi's context · %s as sent (%s)", lay.switchKey, by)
	}
	return i18n.T("as sent · %s · %s Pi's context", by, lay.switchKey)
}

// modeTitle is the mode in the pane's title.
func modeTitle(res *contextResult, pi bool) string {
	if pi && !res.same {
		return i18n.T("Pi's context")
	}
	return i18n.T("as sent")
}

// renderContext lays a result out for a width: which request it is, the
// model, thinking level and tools, what the rebuild inferred, then each message
// with a role header and, unless full, at most contextLinesPerMessage
// lines and a hint that the expand key shows the rest.
func renderContext(res *contextResult, lay contextLayout, st themes.Styles) []string {
	width := max(10, lay.width)
	cut := func(s string) string { return ansi.Truncate(s, width, "…") }
	if res.err != nil {
		return []string{st.Text.Danger.Render(cut(sanitize.Fold(res.err.Error())))}
	}
	out := []string{st.Text.Info.Render(cut(modeLine(res, lay)))}
	side := res.side(lay.pi)
	if side == nil {
		return append(out, wrapped(st.Text.Danger, res.sentErr, width)...)
	}
	what := i18n.T("next request from entry %s", res.entry)
	if res.forAssistant {
		what = i18n.T("request for assistant entry %s", res.entry)
		if res.contextEntry != "" {
			what = i18n.T("request for assistant entry %s (context at %s)", res.entry, res.contextEntry)
		}
	}
	out = append(out, wrapped(st.Text.Subtle, what, width)...)
	tools := i18n.T("no tools")
	if len(side.tools) > 0 {
		tools = i18n.T("%d tool(s): %s", len(side.tools), strings.Join(side.tools, ", "))
	}
	out = append(out, wrapped(st.Text.Subtle, i18n.T("model %s · thinking %s · %d message(s) · %s",
		transcript.OrDash(side.model), transcript.OrDash(side.thinkingLevel), len(side.messages), tools), width)...)
	if !lay.pi || res.same {
		for _, note := range res.inferred {
			if lay.full {
				out = append(out, wrapped(st.Text.Muted, i18n.T("inferred: %s", note), width)...)
			} else {
				out = append(out, st.Text.Muted.Render(cut(i18n.T("inferred: %s", note))))
			}
		}
	}
	for i, m := range side.messages {
		out = append(out, roleStyle(st, m.role).Render(fmt.Sprintf("%d %s", i+1, m.role)))
		lines := strings.Split(ansi.Wrap(strings.TrimSpace(m.text), max(1, width-2), ""), "\n")
		shown := lines
		if !lay.full && len(lines) > contextLinesPerMessage {
			shown = lines[:contextLinesPerMessage]
		}
		for _, l := range shown {
			out = append(out, "  "+st.Text.Normal.Render(l))
		}
		if n := len(lines) - len(shown); n > 0 {
			out = append(out, "  "+st.Text.Muted.Render(i18n.T("… %d more line(s) · %s shows all", n, lay.expandKey)))
		}
	}
	return out
}

// wrapped is text wrapped to width, each line in style.
func wrapped(style lipgloss.Style, text string, width int) []string {
	lines := strings.Split(ansi.Wrap(text, width, ""), "\n")
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

// openContext shows the Context view at the selected entry; its request
// is rebuilt at once unless it is cached or on its way.
func (m *Model) openContext() tea.Cmd {
	idx := m.currentEntry()
	if m.ls == nil || idx < 0 {
		return nil
	}
	if m.focus == paneTree {
		m.showEntry(idx) // the detail pane follows the timeline cursor
	}
	m.mode = modeContext
	m.focus = paneDetail
	m.context.offset = 0
	return m.rebuildNow(idx)
}

// togglePiContext switches the Context view between the request as sent
// and Pi's context; the choice stays for the next entries. Where the two
// are one request the view stays and the detail's border says why.
func (m *Model) togglePiContext() tea.Cmd {
	m.sent.pi = !m.sent.pi
	m.context.offset = 0
	if res := m.sent.shown; res != nil && res.same {
		return m.setStatus(paneDetail, i18n.T("here the request as sent is Pi's context"), false)
	}
	return nil
}

// contextLinesKey names one layout of a result: the result, the layout
// and the theme.
type contextLinesKey struct {
	res   *contextResult
	lay   contextLayout
	theme string
}

// contextLinesMsg delivers the lines of one layout.
type contextLinesMsg struct {
	key   contextLinesKey
	lines []string
}

// wantedLines is the layout the Context view should show now: the shown
// result at the detail pane's width, in the chosen mode and theme.
func (m *Model) wantedLines() (contextLinesKey, bool) {
	res := m.sent.shown
	if m.ls == nil || m.mode != modeContext || res == nil || res.key.file != m.ls.file {
		return contextLinesKey{}, false
	}
	_, w := m.detailSize()
	lay := contextLayout{width: w, pi: m.sent.pi, full: m.context.full,
		expandKey: m.keys.Expand.Help().Key, switchKey: m.keys.PiContext.Help().Key}
	return contextLinesKey{res: res, lay: lay, theme: common.ThemeKey(&m.com.Styles)}, true
}

// ensureContextLines lays the wanted layout out in a command unless it is
// on screen or on its way; meanwhile the last lines stay.
func (m *Model) ensureContextLines() tea.Cmd {
	want, ok := m.wantedLines()
	c := &m.context
	if !ok || (c.lines != nil && c.linesKey == want) || c.laying == want {
		return nil
	}
	c.laying = want
	st := m.com.Styles
	return func() tea.Msg { return contextLinesMsg{key: want, lines: renderContext(want.res, want.lay, st)} }
}

// applyContextLines puts the lines of the layout asked for last on screen.
func (m *Model) applyContextLines(msg contextLinesMsg) {
	c := &m.context
	if msg.key != c.laying {
		return // a newer layout is on its way
	}
	if c.linesKey.res == nil || c.linesKey.res.idx != msg.key.res.idx {
		c.offset = 0 // another entry's request: from the top
	}
	c.lines, c.linesKey, c.laying = msg.lines, msg.key, contextLinesKey{}
}

func (m *Model) contextView(r rect, focused bool) string {
	st := m.com.Styles
	h := r.h - 2
	c := m.context
	res := c.linesKey.res
	if c.lines == nil || res == nil || res.key.file != m.ls.file {
		return m.frame(r, i18n.T("Context"), m.statusView(paneDetail), focused, []string{st.Pane.Placeholder.Render(i18n.T("rebuilding the request…"))})
	}
	info := scrollInfo(c.offset, h, len(c.lines))
	// The last request stays on screen (also from the file's previous
	// version, as follow mode re-reads it) until the one wanted arrives.
	if idx := m.currentEntry(); idx >= 0 && m.contextKeyFor(idx) != res.key {
		info = joinInfo(i18n.T("rebuilding at %s…", m.ls.entryID(idx)), info)
	}
	info = joinInfo(info, m.statusView(paneDetail))
	return m.frame(r, i18n.T("Context at %s · %s", res.entry, modeTitle(res, c.linesKey.lay.pi)), info, focused, window(c.lines, c.offset, h))
}
