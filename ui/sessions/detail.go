package sessions

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
)

// toolOutputCap is how many lines of tool output show while collapsed.
const toolOutputCap = 10

// detailKey identifies one rendering of an entry: the same entry at
// another width, with tools expanded or thinking shown, or in another
// theme is another rendering.
type detailKey struct {
	gen      int
	idx      int
	width    int
	expanded bool
	thinking bool
	palette  string
}

// detailDoc builds the rendered lines of one entry. It runs in a command.
type detailDoc struct {
	st    themes.Styles
	md    *markdownRenderers
	width int
	key   detailKey
	lines []string
	// collapsed is set when a tool call was shortened to one line.
	collapsed bool
}

func (d *detailDoc) add(lines ...string) { d.lines = append(d.lines, lines...) }

// plain adds sanitised text wrapped to the width in one style.
func (d *detailDoc) plain(text string, style func(...string) string, indent string) {
	w := max(1, d.width-ansi.StringWidth(indent))
	for _, l := range strings.Split(ansi.Wrap(Sanitize(text), w, ""), "\n") {
		d.add(indent + style(l))
	}
}

// markdown adds sanitised text rendered by glamour.
func (d *detailDoc) markdown(text string) {
	text = Sanitize(text)
	if strings.TrimSpace(text) == "" {
		return
	}
	if out, ok := d.md.render(d.st, d.width, text); ok {
		d.add(strings.Split(out, "\n")...)
		return
	}
	d.plain(text, d.st.Text.Normal.Render, "")
}

// capped adds tool output, showing toolOutputCap lines unless expanded.
func (d *detailDoc) capped(text string, expanded bool) {
	lines := strings.Split(strings.TrimRight(Sanitize(text), "\n"), "\n")
	shown := lines
	if !expanded && len(lines) > toolOutputCap {
		shown = lines[:toolOutputCap]
	}
	w := max(1, d.width-2)
	for _, l := range shown {
		for _, wl := range strings.Split(ansi.Hardwrap(l, w, true), "\n") {
			d.add(d.st.Text.Muted.Render("│ ") + d.st.Text.Code.Render(wl))
		}
	}
	if hidden := len(lines) - len(shown); hidden > 0 {
		d.add(d.st.Text.Subtle.Render(fmt.Sprintf("… %d lines hidden (space to expand)", hidden)))
	}
}

// renderDetail renders entry idx of ls. It never fails: an entry that does
// not decode is shown as its raw line.
func renderDetail(ls *loadedSession, idx int, key detailKey, st themes.Styles, md *markdownRenderers) []string {
	d := &detailDoc{st: st, md: md, width: max(10, key.width), key: key}
	if idx < 0 || idx >= len(ls.sess.Entries) {
		return nil
	}
	e := &ls.sess.Entries[idx]
	head := []string{st.Text.Strong.Render(ls.rows[idx].kind), st.Text.Muted.Render(orDash(Sanitize(e.ID)))}
	if ts := SanitizeLine(e.Timestamp); ts != "" {
		head = append(head, st.Text.Muted.Render(ts))
	}
	if l, ok := ls.labels[idx]; ok {
		head = append(head, st.Badge.Active.Render("["+l+"]"))
	}
	d.add(ansi.Truncate(strings.Join(head, st.Text.Muted.Render(" · ")), d.width, "…"))
	payload, err := e.Payload()
	if err != nil {
		d.add(st.Text.Danger.Render("cannot decode: " + SanitizeLine(err.Error())))
		d.capped(string(e.Raw), key.expanded)
		return d.lines
	}
	switch p := payload.(type) {
	case *session.Message:
		d.message(p)
		if d.collapsed {
			d.add("", st.Text.Subtle.Render("space shows the tool calls' full arguments"))
		}
	case *session.Compaction:
		d.add(st.Text.Subtle.Render(fmt.Sprintf("compaction · %s tokens before · first kept %s",
			formatTokens(int(p.TokensBefore)), orDash(SanitizeLine(p.FirstKeptEntryID)))), "")
		d.markdown(p.Summary)
		d.usage(p.Usage)
	case *session.BranchSummary:
		d.add(st.Text.Subtle.Render("branch summary · came back from "+orDash(SanitizeLine(p.FromID))), "")
		d.markdown(p.Summary)
		d.usage(p.Usage)
	case *session.CustomMessage:
		d.add(st.Text.Subtle.Render("custom message · "+SanitizeLine(p.CustomType)), "")
		d.content(p.Content)
	case *session.UsageEntry:
		d.add(st.Text.Subtle.Render(fmt.Sprintf("usage · %s · %s/%s", SanitizeLine(p.Kind), SanitizeLine(p.Provider), SanitizeLine(p.Model))))
		d.usage(&p.Usage)
	default:
		d.add("")
		d.capped(prettyJSON(e.Raw), key.expanded)
	}
	return d.lines
}

func (d *detailDoc) message(m *session.Message) {
	st := d.st
	switch m.Role {
	case session.RoleAssistant:
		meta := []string{SanitizeLine(m.Provider) + "/" + SanitizeLine(m.Model)}
		if m.StopReason != "" {
			meta = append(meta, "stopReason "+SanitizeLine(m.StopReason))
		}
		d.add(st.Text.Subtle.Render(ansi.Truncate(strings.Join(meta, " · "), d.width, "…")))
		d.usage(m.Usage)
		if m.ErrorMessage != "" {
			d.plain(m.ErrorMessage, st.Text.Danger.Render, "")
		}
		d.add("")
		d.blocks(m.Content)
	case session.RoleToolResult:
		status := st.Text.Success.Render("ok")
		if m.IsError {
			status = st.Text.Danger.Render("error")
		}
		d.add(st.Role.Tool.Render("← "+SanitizeLine(m.ToolName)) + st.Text.Muted.Render(" · "+SanitizeLine(m.ToolCallID)+" · ") + status)
		d.capped(m.Content.PlainText("\n"), d.key.expanded)
	case session.RoleBashExecution:
		d.add(st.Role.Tool.Render("$ " + SanitizeLine(m.Command)))
		out := m.Output
		if out == "" {
			out = "(no output)"
		}
		d.capped(out, d.key.expanded)
		if m.ExitCode != nil {
			d.add(st.Text.Muted.Render("exit code " + strconv.FormatFloat(*m.ExitCode, 'f', -1, 64)))
		}
	case session.RoleSystem:
		d.add(st.Text.Subtle.Render(fmt.Sprintf("system prompt · %d section(s) · +%d/-%d tools",
			len(m.Sections), len(m.ToolsAdded), len(m.ToolsRemoved))))
		d.capped(m.Content.PlainText("\n"), d.key.expanded)
	case session.RoleBranchSummary, session.RoleCompactionSummary:
		d.add("")
		d.markdown(m.Summary)
	default:
		d.add("")
		d.content(m.Content)
	}
}

// content renders user-like content: markdown text and image placeholders.
func (d *detailDoc) content(c session.Content) {
	if c.IsString {
		d.markdown(c.Text)
		return
	}
	d.blocks(c)
}

// blocks renders content blocks in order; thinking is hidden unless
// toggled and tool calls are one line unless expanded.
func (d *detailDoc) blocks(c session.Content) {
	st := d.st
	if c.IsString {
		d.markdown(c.Text)
		return
	}
	for _, b := range c.Blocks {
		switch b.Type {
		case session.BlockText:
			d.markdown(b.Text)
		case session.BlockThinking:
			n := strings.Count(strings.TrimSpace(b.Thinking), "\n") + 1
			if b.Redacted {
				d.add(st.Role.Thinking.Render("▸ thinking (redacted)"))
			} else if !d.key.thinking {
				d.add(st.Role.Thinking.Render(fmt.Sprintf("▸ thinking · %d line(s) hidden (t to show)", n)))
			} else {
				d.add(st.Role.Thinking.Render("▾ thinking"))
				d.plain(b.Thinking, st.Role.Thinking.Render, "  ")
				d.add("")
			}
		case session.BlockToolCall:
			name := st.Role.Tool.Render("→ " + SanitizeLine(b.Name))
			if !d.key.expanded {
				args := SanitizeLine(string(b.Arguments))
				d.add(ansi.Truncate(name+" "+st.Text.Code.Render(args), d.width, "…"))
				d.collapsed = true
				continue
			}
			d.add(name + st.Text.Muted.Render(" · "+SanitizeLine(b.ID)))
			d.capped(prettyJSON(b.Arguments), true)
		case session.BlockImage:
			d.add(st.Text.Muted.Render("[image " + SanitizeLine(b.MimeType) + "]"))
		default:
			d.add(st.Text.Muted.Render("[" + SanitizeLine(b.Type) + " block]"))
		}
	}
}

func (d *detailDoc) usage(u *session.Usage) {
	if u == nil {
		return
	}
	d.add(d.st.Text.Muted.Render(fmt.Sprintf("tokens in %s · out %s · cache read %s · cache write %s · $%.4f",
		orZero(formatTokens(int(u.Input))), orZero(formatTokens(int(u.Output))),
		orZero(formatTokens(int(u.CacheRead))), orZero(formatTokens(int(u.CacheWrite))), u.Cost.Total)))
}

// prettyJSON indents raw JSON for display, or returns it as is.
func prettyJSON(raw []byte) string {
	v, err := jsonv.Parse(raw)
	if err != nil {
		return string(raw)
	}
	return jsonv.StringifyIndent(v, "  ")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}
