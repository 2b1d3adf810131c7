// Package transcript draws Pi session entries as screen lines: a header
// (kind, id, time, label), role-specific bodies, markdown through the
// shared renderer, tool calls on one line and tool output capped at
// OutputCap lines with "… N lines hidden" until expanded, and thinking
// behind a toggle (or left out). The Session panel's entry detail uses it
// and the Agents transcript reuses it for read-only pages.
//
// Rendering decodes the entry and runs glamour, so callers run it in a
// tea.Cmd and cache the lines. Every text from the file is sanitised.
package transcript

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// OutputCap is how many lines of tool output show while collapsed.
const OutputCap = 10

// Options say how entries are drawn. They belong in the caller's cache
// key: the same entry with other options is another rendering.
type Options struct {
	// Width is the width of the lines in cells (at least 10 is used).
	Width int
	// Expanded shows tool output and tool-call arguments in full.
	Expanded bool
	// Thinking shows thinking blocks; otherwise one line says how long
	// they are.
	Thinking bool
	// OmitThinking leaves thinking blocks out entirely (pi-subagent
	// transcripts show none).
	OmitThinking bool
	// ExpandKey and ThinkingKey name the keys in the hints ("space",
	// "t"); an empty name leaves the hint out.
	ExpandKey, ThinkingKey string
}

// Header is what the caller knows of an entry beyond its body.
type Header struct {
	// Label is the user's label of the entry ("" for none).
	Label string
	// Note is a badge after the header, such as "copied from parent" for
	// the inherited history of a subagent ("" for none).
	Note string
}

// Renderer draws entries in a theme with the shared markdown renderer.
type Renderer struct {
	Styles   *themes.Styles
	Markdown *common.Markdown
}

// Item is one entry of a page with its header.
type Item struct {
	Entry  *session.Entry
	Header Header
}

// Page draws entries one after another, a blank line between them: the
// read-only transcript pages of the Agents panel.
func (r Renderer) Page(items []Item, o Options) []string {
	lines, _ := r.PageWithStarts(items, o)
	return lines
}

// PageWithStarts is Page and the index of each item's first line, so a
// caller can tell which lines belong to which entry (a search hit's).
func (r Renderer) PageWithStarts(items []Item, o Options) (lines []string, starts []int) {
	for i, it := range items {
		if i > 0 {
			lines = append(lines, "")
		}
		starts = append(starts, len(lines))
		lines = append(lines, r.Entry(it.Entry, it.Header, o)...)
	}
	return lines, starts
}

// Entry draws one entry. It never fails: an entry that does not decode is
// shown with the reason and its raw line.
func (r Renderer) Entry(e *session.Entry, h Header, o Options) []string {
	st := r.Styles
	d := &doc{r: r, o: o, width: max(10, o.Width)}
	head := []string{st.Text.Strong.Render(Kind(e)), st.Text.Muted.Render(OrDash(sanitize.Text(e.ID)))}
	if h.Note != "" { // before the time, so a narrow page keeps it
		head = append(head, st.Badge.Info.Render(sanitize.Fold(h.Note)))
	}
	if ts := sanitize.Fold(e.Timestamp); ts != "" {
		head = append(head, st.Text.Muted.Render(ts))
	}
	if h.Label != "" {
		head = append(head, st.Badge.Active.Render("["+sanitize.Fold(h.Label)+"]"))
	}
	d.add(ansi.Truncate(strings.Join(head, st.Text.Muted.Render(" · ")), d.width, "…"))
	payload, err := e.Payload()
	if err != nil {
		d.add(st.Text.Danger.Render(i18n.T("cannot decode: %s", sanitize.Fold(err.Error()))))
		d.capped(string(e.Raw), o.Expanded)
		return d.lines
	}
	switch p := payload.(type) {
	case *session.Message:
		d.message(p)
		if d.collapsed && o.ExpandKey != "" {
			d.add("", st.Text.Subtle.Render(i18n.T("%s shows the tool calls' full arguments", o.ExpandKey)))
		}
	case *session.Compaction:
		d.add(st.Text.Subtle.Render(i18n.T("compaction · %s tokens before · first kept %s",
			common.FormatTokens(int(p.TokensBefore)), OrDash(sanitize.Fold(p.FirstKeptEntryID)))), "")
		d.markdown(p.Summary)
		d.usage(p.Usage)
	case *session.BranchSummary:
		d.add(st.Text.Subtle.Render(i18n.T("branch summary · came back from %s", OrDash(sanitize.Fold(p.FromID)))), "")
		d.markdown(p.Summary)
		d.usage(p.Usage)
	case *session.CustomMessage:
		d.add(st.Text.Subtle.Render(i18n.T("custom message · %s", sanitize.Fold(p.CustomType))), "")
		d.content(p.Content)
	case *session.UsageEntry:
		d.add(st.Text.Subtle.Render(i18n.T("usage · %s · %s/%s", sanitize.Fold(p.Kind), sanitize.Fold(p.Provider), sanitize.Fold(p.Model))))
		d.usage(&p.Usage)
	default:
		d.add("")
		d.capped(PrettyJSON(e.Raw), o.Expanded)
	}
	return d.lines
}

// Kind is what a list calls an entry: the role of a message, else the
// entry type ("value" for a line that is not an object, "?" for none).
func Kind(e *session.Entry) string {
	kind := e.Type
	switch {
	case e.NotObject:
		kind = "value"
	case e.Type == session.TypeMessage && e.Role != "":
		kind = e.Role
	}
	if kind == "" {
		kind = "?"
	}
	return sanitize.Fold(kind)
}

// doc collects the lines of one entry.
type doc struct {
	r     Renderer
	o     Options
	width int
	lines []string
	// collapsed is set when a tool call was shortened to one line.
	collapsed bool
}

func (d *doc) add(lines ...string) { d.lines = append(d.lines, lines...) }

// plain adds sanitised text wrapped to the width in one style.
func (d *doc) plain(text string, style func(...string) string, indent string) {
	w := max(1, d.width-ansi.StringWidth(indent))
	for _, l := range strings.Split(ansi.Wrap(sanitize.Text(text), w, ""), "\n") {
		d.add(indent + style(l))
	}
}

// markdown adds sanitised text rendered as markdown (plain when glamour
// fails).
func (d *doc) markdown(text string) {
	text = sanitize.Text(text)
	if strings.TrimSpace(text) == "" {
		return
	}
	if d.r.Markdown != nil {
		if out, ok := d.r.Markdown.Render(d.r.Styles, d.width, text); ok {
			d.add(strings.Split(out, "\n")...)
			return
		}
	}
	d.plain(text, d.r.Styles.Text.Normal.Render, "")
}

// capped adds tool output, showing OutputCap lines unless expanded.
func (d *doc) capped(text string, expanded bool) {
	st := d.r.Styles
	lines := strings.Split(strings.TrimRight(sanitize.Text(text), "\n"), "\n")
	shown := lines
	if !expanded && len(lines) > OutputCap {
		shown = lines[:OutputCap]
	}
	w := max(1, d.width-2)
	for _, l := range shown {
		for _, wl := range strings.Split(ansi.Hardwrap(l, w, true), "\n") {
			d.add(st.Text.Muted.Render("│ ") + st.Text.Code.Render(wl))
		}
	}
	if hidden := len(lines) - len(shown); hidden > 0 {
		note := i18n.T("… %d lines hidden", hidden)
		if d.o.ExpandKey != "" {
			note = i18n.T("… %d lines hidden (%s to expand)", hidden, d.o.ExpandKey)
		}
		d.add(st.Text.Subtle.Render(note))
	}
}

func (d *doc) message(m *session.Message) {
	st := d.r.Styles
	switch m.Role {
	case session.RoleAssistant:
		meta := []string{sanitize.Fold(m.Provider) + "/" + sanitize.Fold(m.Model)}
		if m.StopReason != "" {
			meta = append(meta, "stopReason "+sanitize.Fold(m.StopReason)) //i18n:raw the message's field as the session file names it
		}
		d.add(st.Text.Subtle.Render(ansi.Truncate(strings.Join(meta, " · "), d.width, "…")))
		d.usage(m.Usage)
		if m.ErrorMessage != "" {
			d.plain(m.ErrorMessage, st.Text.Danger.Render, "")
		}
		d.add("")
		d.blocks(m.Content)
	case session.RoleToolResult:
		status := st.Text.Success.Render(i18n.T("ok"))
		if m.IsError {
			status = st.Text.Danger.Render(i18n.T("error"))
		}
		d.add(st.Role.Tool.Render("← "+sanitize.Fold(m.ToolName)) + st.Text.Muted.Render(" · "+sanitize.Fold(m.ToolCallID)+" · ") + status)
		d.capped(m.Content.PlainText("\n"), d.o.Expanded)
	case session.RoleBashExecution:
		d.add(st.Role.Tool.Render("$ " + sanitize.Fold(m.Command)))
		out := m.Output
		if out == "" {
			out = i18n.T("(no output)")
		}
		d.capped(out, d.o.Expanded)
		if m.ExitCode != nil {
			d.add(st.Text.Muted.Render(i18n.T("exit code %s", strconv.FormatFloat(*m.ExitCode, 'f', -1, 64))))
		}
	case session.RoleSystem:
		d.add(st.Text.Subtle.Render(i18n.T("system prompt · %d section(s) · +%d/-%d tools",
			len(m.Sections), len(m.ToolsAdded), len(m.ToolsRemoved))))
		d.capped(m.Content.PlainText("\n"), d.o.Expanded)
	case session.RoleBranchSummary, session.RoleCompactionSummary:
		d.add("")
		d.markdown(m.Summary)
	default:
		d.add("")
		d.content(m.Content)
	}
}

// content renders user-like content: markdown text and image placeholders.
func (d *doc) content(c session.Content) {
	if c.IsString {
		d.markdown(c.Text)
		return
	}
	d.blocks(c)
}

// blocks renders content blocks in order; thinking is hidden unless
// shown and tool calls are one line unless expanded.
func (d *doc) blocks(c session.Content) {
	st := d.r.Styles
	if c.IsString {
		d.markdown(c.Text)
		return
	}
	for _, b := range c.Blocks {
		switch b.Type {
		case session.BlockText:
			d.markdown(b.Text)
		case session.BlockThinking:
			d.thinking(b)
		case session.BlockToolCall:
			name := st.Role.Tool.Render("→ " + sanitize.Fold(b.Name))
			if !d.o.Expanded {
				args := sanitize.Fold(string(b.Arguments))
				d.add(ansi.Truncate(name+" "+st.Text.Code.Render(args), d.width, "…"))
				d.collapsed = true
				continue
			}
			d.add(name + st.Text.Muted.Render(" · "+sanitize.Fold(b.ID)))
			d.capped(PrettyJSON(b.Arguments), true)
		case session.BlockImage:
			d.add(st.Text.Muted.Render(i18n.T("[image %s]", sanitize.Fold(b.MimeType))))
		default:
			d.add(st.Text.Muted.Render(i18n.T("[%s block]", sanitize.Fold(b.Type))))
		}
	}
}

// thinking draws a thinking block: one line while hidden, the text when
// shown, nothing when thinking is omitted.
func (d *doc) thinking(b session.ContentBlock) {
	st := d.r.Styles
	switch {
	case d.o.OmitThinking:
	case b.Redacted:
		d.add(st.Role.Thinking.Render(i18n.T("▸ thinking (redacted)")))
	case !d.o.Thinking:
		n := strings.Count(strings.TrimSpace(b.Thinking), "\n") + 1
		note := i18n.T("▸ thinking · %d line(s) hidden", n)
		if d.o.ThinkingKey != "" {
			note = i18n.T("▸ thinking · %d line(s) hidden (%s to show)", n, d.o.ThinkingKey)
		}
		d.add(st.Role.Thinking.Render(note))
	default:
		d.add(st.Role.Thinking.Render(i18n.T("▾ thinking")))
		d.plain(b.Thinking, st.Role.Thinking.Render, "  ")
		d.add("")
	}
}

func (d *doc) usage(u *session.Usage) {
	if u == nil {
		return
	}
	line := i18n.T("tokens in %s · out %s · cache read %s · cache write %s · $%.4f",
		OrZero(common.FormatTokens(int(u.Input))), OrZero(common.FormatTokens(int(u.Output))),
		OrZero(common.FormatTokens(int(u.CacheRead))), OrZero(common.FormatTokens(int(u.CacheWrite))), u.Cost.Total)
	d.add(d.r.Styles.Text.Muted.Render(ansi.Truncate(line, d.width, "…")))
}

// PrettyJSON indents raw JSON for display, or returns it as is.
func PrettyJSON(raw []byte) string {
	v, err := jsonv.Parse(raw)
	if err != nil {
		return string(raw)
	}
	return jsonv.StringifyIndent(v, "  ")
}

// Text is the copyable text of an entry, sanitised (clipboards end up
// pasted into terminals): a message's text (the command and output of a
// bash execution, the summary of a summary), otherwise the entry's JSON.
func Text(e *session.Entry) string {
	p, err := e.Payload()
	if err != nil {
		return sanitize.Text(string(e.Raw))
	}
	msg, ok := p.(*session.Message)
	if !ok {
		return sanitize.Text(PrettyJSON(e.Raw))
	}
	var parts []string
	switch msg.Role {
	case session.RoleBashExecution:
		parts = append(parts, "$ "+msg.Command, msg.Output)
	case session.RoleBranchSummary, session.RoleCompactionSummary:
		parts = append(parts, msg.Summary)
	default:
		if msg.Content.IsString {
			parts = append(parts, msg.Content.Text)
		}
		for _, b := range msg.Content.Blocks {
			switch b.Type {
			case session.BlockText:
				parts = append(parts, b.Text)
			case session.BlockToolCall:
				parts = append(parts, b.Name+" "+PrettyJSON(b.Arguments))
			}
		}
	}
	return sanitize.Text(strings.Join(parts, "\n\n"))
}

// OrDash shows an empty value as "—".
func OrDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// OrZero shows an empty count as "0".
func OrZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}
