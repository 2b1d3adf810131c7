package subagent

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
)

// DefaultPageSize is the number of entries of one transcript page.
const DefaultPageSize = 50

// DefaultToolLines is how many lines of tool output a transcript shows
// before "… N more lines".
const DefaultToolLines = 10

// TranscriptItem is one entry of a transcript.
type TranscriptItem struct {
	Entry *session.Entry
	// Inherited marks copied parent history (before the descriptor).
	Inherited bool
}

// Transcript is an agent's active branch, read-only, paged from the
// newest entries backwards (README transcript viewer).
type Transcript struct {
	Items []TranscriptItem
	// Inherited is the number of copied parent entries.
	Inherited int
	PageSize  int
}

// NewTranscript builds the transcript of an agent session: the entries on
// the path to the default leaf, those before the first descriptor entry
// marked as copied parent history.
func NewTranscript(s *session.Session, pageSize int) *Transcript {
	if pageSize <= 0 {
		pageSize = DefaultPageSize
	}
	desc := descriptorIndex(s)
	t := &Transcript{PageSize: pageSize}
	for _, i := range s.PathTo(s.LeafIndex()) {
		inherited := i < desc
		if inherited {
			t.Inherited++
		}
		t.Items = append(t.Items, TranscriptItem{Entry: &s.Entries[i], Inherited: inherited})
	}
	return t
}

// Append adds an entry written after the transcript was read (follow mode).
func (t *Transcript) Append(e *session.Entry) {
	t.Items = append(t.Items, TranscriptItem{Entry: e})
}

// Pages is the number of pages (at least 1).
func (t *Transcript) Pages() int {
	return max(1, (len(t.Items)+t.PageSize-1)/t.PageSize)
}

// Page returns page n, 0 being the newest, oldest entry first; nil past
// the last page.
func (t *Transcript) Page(n int) []TranscriptItem {
	if n < 0 || n >= t.Pages() {
		return nil
	}
	end := len(t.Items) - n*t.PageSize
	return t.Items[max(0, end-t.PageSize):end]
}

// Newest returns the newest pages pages, oldest entry first.
func (t *Transcript) Newest(pages int) []TranscriptItem {
	n := min(len(t.Items), max(1, pages)*t.PageSize)
	return t.Items[len(t.Items)-n:]
}

// RenderOptions tune RenderText.
type RenderOptions struct {
	// ToolLines caps tool output (DefaultToolLines when 0); Expand shows
	// all of it.
	ToolLines int
	Expand    bool
	// Location formats entry times (UTC when nil).
	Location *time.Location
}

// RenderText writes items as plain text for a terminal: one header per
// entry (time, role, model), text and tool calls, tool output capped with
// the number of lines hidden, copied parent history framed as such.
// Thinking and images are never shown. Everything file-derived is
// sanitised.
func RenderText(w io.Writer, items []TranscriptItem, opt RenderOptions) error {
	if opt.ToolLines <= 0 {
		opt.ToolLines = DefaultToolLines
	}
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	inInherited := false
	for k, it := range items {
		if it.Inherited != inInherited || k == 0 && it.Inherited {
			if it.Inherited {
				fmt.Fprintln(w, "┄┄ copied parent history (counted apart from this agent's work) ┄┄")
			} else if k > 0 {
				fmt.Fprintln(w, "┄┄ this agent's own work ┄┄")
			}
			inInherited = it.Inherited
		}
		if _, err := io.WriteString(w, renderEntry(it.Entry, opt)); err != nil {
			return fmt.Errorf("write transcript: %w", err)
		}
	}
	return nil
}

// renderEntry renders one entry with a trailing newline.
func renderEntry(e *session.Entry, opt RenderOptions) string {
	var b strings.Builder
	when := "--:--:--"
	if ms := e.TimestampMs(); !math.IsNaN(ms) {
		when = time.UnixMilli(int64(ms)).In(opt.Location).Format("15:04:05")
	}
	p, err := e.Payload()
	if err != nil {
		fmt.Fprintf(&b, "── %s · line %d ──\n(undecodable: %s)\n", when, e.Line, clean(err.Error()))
		return b.String()
	}
	m, isMessage := p.(*session.Message)
	if !isMessage {
		if cm, ok := p.(*session.CustomMessage); ok {
			fmt.Fprintf(&b, "── %s · %s ──\n%s\n", when, sanitize.Clip(cm.CustomType, 60), clean(cm.Content.PlainText("\n")))
			return b.String()
		}
		sum := session.DescribeEntry(e)
		fmt.Fprintf(&b, "·· %s · %s %s\n", when, sanitize.Clip(sum.Kind, 40), sum.Text)
		return b.String()
	}
	head := m.Role
	switch m.Role {
	case session.RoleAssistant:
		if m.Model != "" {
			head += " · " + m.Provider + "/" + m.Model
		}
		if m.StopReason == "error" || m.StopReason == "aborted" {
			head += " · " + m.StopReason
		}
	case session.RoleToolResult:
		head += " · " + m.ToolName
		if m.IsError {
			head += " (error)"
		}
	case session.RoleCustom:
		head += " · " + m.CustomType
	}
	fmt.Fprintf(&b, "── %s · %s ──\n", when, sanitize.Clip(head, 120))
	switch m.Role {
	case session.RoleSystem:
		b.WriteString(session.DescribeEntry(e).Text + "\n")
	case session.RoleToolResult:
		b.WriteString(capLines(m.Content.PlainText("\n"), opt))
		if m.NestedCalls != nil && len(m.NestedCalls.Calls) > 0 {
			fmt.Fprintf(&b, "(%d nested tool call%s; their output is not recorded)\n", len(m.NestedCalls.Calls), plural(len(m.NestedCalls.Calls), "", "s"))
		}
	case session.RoleBashExecution:
		b.WriteString("$ " + clean(m.Command) + "\n")
		b.WriteString(capLines(m.Output, opt))
		if m.Truncated {
			b.WriteString("(output truncated by Pi")
			if m.FullOutputPath != "" {
				b.WriteString("; full output: " + clean(m.FullOutputPath))
			}
			b.WriteString(")\n")
		}
	case session.RoleBranchSummary, session.RoleCompactionSummary:
		b.WriteString(clean(m.Summary) + "\n")
	default:
		if m.Content.IsString {
			b.WriteString(clean(m.Content.Text) + "\n")
		}
		for _, blk := range m.Content.Blocks {
			switch blk.Type {
			case session.BlockText:
				b.WriteString(clean(blk.Text) + "\n")
			case session.BlockToolCall:
				b.WriteString("→ " + sanitize.Clip(blk.Name, 60) + " " + capLines(compactJSON(blk.Arguments), opt))
			case session.BlockImage:
				b.WriteString("[image]\n")
			}
		}
		if m.ErrorMessage != "" {
			b.WriteString("error: " + clean(m.ErrorMessage) + "\n")
		}
	}
	return b.String()
}

// capLines sanitises text and keeps opt.ToolLines lines unless expanded,
// saying how many were hidden.
func capLines(text string, opt RenderOptions) string {
	text = strings.TrimRight(clean(text), "\n")
	if opt.Expand {
		return text + "\n"
	}
	lines := strings.Split(text, "\n")
	note := ""
	if len(lines) > opt.ToolLines {
		hidden := len(lines) - opt.ToolLines
		lines = lines[:opt.ToolLines]
		note = fmt.Sprintf("… %d more line%s\n", hidden, plural(hidden, "", "s"))
	}
	for i, l := range lines {
		if r := []rune(l); len(r) > maxLineRunes {
			lines[i] = string(r[:maxLineRunes]) + fmt.Sprintf(" … (%d more characters)", len(r)-maxLineRunes)
		}
	}
	return strings.Join(lines, "\n") + "\n" + note
}

// maxLineRunes caps one line of collapsed output (a tool call's JSON
// arguments are a single line).
const maxLineRunes = 2000
