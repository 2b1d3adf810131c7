package sessions

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/transcript"
)

// contextLinesPerMessage bounds each message in the compact context view.
const contextLinesPerMessage = 4

// contextMessage is one LLM message of the rebuilt context, reduced to a
// role and display text.
type contextMessage struct {
	role string
	text string
}

// contextResult is the rebuilt model context at one entry.
type contextResult struct {
	gen, idx      int
	model         string
	thinkingLevel string
	messages      []contextMessage
	err           error
}

// contextMsg delivers a contextResult.
type contextMsg struct{ res contextResult }

// contextCmd rebuilds the context at entry idx in a command.
func contextCmd(gen int, ls *loadedSession, idx int, agentDir string) tea.Cmd {
	return func() tea.Msg {
		cat, _ := catalog.Shared(agentDir) // the root reports models.json problems
		return contextMsg{res: buildContext(gen, ls, idx, cat)}
	}
}

// buildContext lists what the provider receives at entry idx: the LLM
// messages with the system prompt rendered as Pi presents it to the model
// (collapsed into the leading message, or in-place updates when the model
// supports mid-conversation system messages).
func buildContext(gen int, ls *loadedSession, idx int, cat *catalog.Catalog) contextResult {
	res := contextResult{gen: gen, idx: idx}
	ctx, err := ls.sess.Context(idx)
	if err != nil {
		res.err = fmt.Errorf("rebuild context at entry %d: %w", idx, err)
		return res
	}
	if ctx.Model != nil {
		prov, _ := ctx.Model.Provider.Str()
		id, _ := ctx.Model.ModelID.Str()
		res.model = sanitize.Fold(prov + "/" + id)
	}
	if lvl, ok := ctx.ThinkingLevel.Str(); ok {
		res.thinkingLevel = sanitize.Fold(lvl)
	}
	messages, err := providerMessages(ls, idx, cat)
	if err != nil {
		res.err = err
		return res
	}
	for _, m := range messages {
		obj, ok := m.(*jsonv.Object)
		if !ok {
			continue
		}
		role, _ := obj.Get("role")
		rs, _ := role.(string)
		content, _ := obj.Get("content")
		res.messages = append(res.messages, contextMessage{role: sanitize.Fold(rs), text: sanitize.Text(contentText(content))})
	}
	return res
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
				parts = append(parts, fmt.Sprintf("[thinking, %d chars]", jsonv.UTF16Len(jsonv.ToString(t))))
			case session.BlockToolCall:
				name, _ := obj.Get("name")
				args, _ := obj.Get("arguments")
				parts = append(parts, "→ "+jsonv.ToString(name)+"("+jsonv.Stringify(args)+")")
			case session.BlockImage:
				parts = append(parts, "[image]")
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// renderContext lays the context out for a width: a summary line, then
// each message with a role header and, unless full, at most
// contextLinesPerMessage lines and a hint that expandKey shows the rest.
func renderContext(res contextResult, label string, width int, st themes.Styles, full bool, expandKey string) []string {
	width = max(10, width)
	if res.err != nil {
		return []string{st.Text.Danger.Render(ansi.Truncate(sanitize.Fold(res.err.Error()), width, "…"))}
	}
	head := fmt.Sprintf("context at %s · %d message(s) · model %s · thinking %s",
		label, len(res.messages), transcript.OrDash(res.model), transcript.OrDash(res.thinkingLevel))
	out := []string{st.Text.Subtle.Render(ansi.Truncate(head, width, "…"))}
	for i, m := range res.messages {
		out = append(out, roleStyle(st, m.role).Render(fmt.Sprintf("%d %s", i+1, m.role)))
		lines := strings.Split(ansi.Wrap(strings.TrimSpace(m.text), max(1, width-2), ""), "\n")
		shown := lines
		if !full && len(lines) > contextLinesPerMessage {
			shown = lines[:contextLinesPerMessage]
		}
		for _, l := range shown {
			out = append(out, "  "+st.Text.Normal.Render(l))
		}
		if n := len(lines) - len(shown); n > 0 {
			out = append(out, "  "+st.Text.Muted.Render(fmt.Sprintf("… %d more line(s) · %s shows all", n, expandKey)))
		}
	}
	return out
}

// idx is the entry the context view shows (-1 when none).
func (c *contextState) idx() int {
	if c.res == nil {
		return -1
	}
	return c.res.idx
}

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
	if m.context.res != nil && m.context.res.idx == idx && m.context.res.gen == m.gen {
		return nil
	}
	m.context = contextState{pending: true}
	return contextCmd(m.gen, m.ls, idx, m.com.Workspace.AgentDir)
}

func (m *Model) contextView(r rect, focused bool) string {
	st := m.com.Styles
	h, w := r.h-2, r.w-4
	c := &m.context
	if c.pending || c.res == nil {
		return m.frame(r, "Context", "", focused, []string{st.Pane.Placeholder.Render("rebuilding context…")})
	}
	label := "—"
	if c.res.idx >= 0 && c.res.idx < len(m.ls.rows) {
		label = m.ls.entryID(c.res.idx)
	}
	if theme := common.ThemeKey(&st); c.lines == nil || c.linesW != w || c.linesTheme != theme {
		c.lines, c.linesW, c.linesTheme = renderContext(*c.res, label, w, st, c.full, m.keys.Expand.Help().Key), w, theme
	}
	c.offset = clamp(c.offset, 0, max(0, len(c.lines)-h))
	info := joinInfo(scrollInfo(c.offset, h, len(c.lines)), m.statusView(paneDetail))
	return m.frame(r, "Context at "+label, info, focused, window(c.lines, c.offset, h))
}
