package subagent

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
)

// Limits of recent activity (README, §25.10).
const (
	ActivityItems        = 50
	ActivityPreviewRunes = 240
	ActivityPreviewLines = 4
)

// Activity kinds.
const (
	ActivityCommand = "command"
	ActivityEdit    = "edit"
	ActivityWrite   = "write"
	ActivityPatch   = "patch"
	ActivityAnswer  = "answer"
	ActivityOutput  = "output"
	ActivityTool    = "tool"
	ActivityInbox   = "inbox"
)

// ActivityItem is one bounded preview of something the agent did or got.
type ActivityItem struct {
	// TimeMs is the entry time (NaN when unknown).
	TimeMs float64
	Kind   string
	// Title is one short line (the command, "edit <path>", the tool name).
	Title string
	// Preview is at most ActivityPreviewLines lines and
	// ActivityPreviewRunes characters, sanitised; Truncated says whether
	// anything was cut.
	Preview   string
	Truncated bool
	Error     bool
}

// OwnEntries returns the indexes of the agent's own entries on the session's
// active branch: those after the first pi-subagent/descriptor entry in file
// order (all of them when the file has none), oldest first.
func OwnEntries(s *session.Session) []int {
	desc := descriptorIndex(s)
	var out []int
	for _, i := range s.PathTo(s.LeafIndex()) {
		if i > desc {
			out = append(out, i)
		}
	}
	return out
}

// descriptorIndex is the index of the first descriptor entry (-1 if none).
func descriptorIndex(s *session.Session) int {
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type == session.TypeCustom {
			if ct, _ := e.Field("customType").Str(); ct == DescriptorCustomType {
				return i
			}
		}
	}
	return -1
}

// Activity lists the last limit items of the agent's own work on the active
// branch: commands, edits, writes, patches, answers, tool output and
// delivered messages. Thinking is never shown.
func Activity(s *session.Session, limit int) []ActivityItem {
	if limit <= 0 {
		limit = ActivityItems
	}
	own := OwnEntries(s)
	var items []ActivityItem
	// Walk backwards and stop once enough items are found.
	for k := len(own) - 1; k >= 0 && len(items) < limit; k-- {
		e := &s.Entries[own[k]]
		entryItems := entryActivity(e)
		for j := len(entryItems) - 1; j >= 0 && len(items) < limit; j-- {
			items = append(items, entryItems[j])
		}
	}
	for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
		items[i], items[j] = items[j], items[i]
	}
	return items
}

// entryActivity describes one entry (several items for an assistant
// message with tool calls).
func entryActivity(e *session.Entry) []ActivityItem {
	ts := e.TimestampMs()
	p, err := e.Payload()
	if err != nil {
		return nil
	}
	switch m := p.(type) {
	case *session.Message:
		return messageActivity(m, ts)
	case *session.CustomMessage:
		if m.CustomType == MessageCustomType {
			return inboxActivity(m.Content.PlainText("\n"), ts)
		}
	}
	return nil
}

func messageActivity(m *session.Message, ts float64) []ActivityItem {
	switch m.Role {
	case session.RoleAssistant:
		var out []ActivityItem
		var text []string
		for _, b := range m.Content.Blocks {
			switch b.Type {
			case session.BlockText:
				text = append(text, b.Text)
			case session.BlockToolCall:
				out = append(out, toolCallActivity(b, ts))
			}
		}
		if m.Content.IsString {
			text = append(text, m.Content.Text)
		}
		if t := strings.TrimSpace(strings.Join(text, "\n")); t != "" {
			out = append([]ActivityItem{preview(ActivityAnswer, "answer", t, ts)}, out...)
		}
		if m.StopReason == "error" || m.StopReason == "aborted" {
			it := preview(ActivityAnswer, m.StopReason, m.ErrorMessage, ts)
			it.Error = true
			out = append(out, it)
		}
		return out
	case session.RoleToolResult:
		title := m.ToolName
		if m.IsError {
			title += " (error)"
		}
		it := preview(ActivityOutput, title, m.Content.PlainText("\n"), ts)
		it.Error = m.IsError
		return []ActivityItem{it}
	case session.RoleBashExecution:
		it := preview(ActivityCommand, "$ "+firstLine(m.Command), m.Output, ts)
		it.Error = m.ExitCode != nil && *m.ExitCode != 0
		return []ActivityItem{it}
	case session.RoleCustom:
		if m.CustomType == MessageCustomType {
			return inboxActivity(m.Content.PlainText("\n"), ts)
		}
	}
	return nil
}

// inboxActivity lists the messages of a delivery envelope.
func inboxActivity(content string, ts float64) []ActivityItem {
	msgs := ParseEnvelope(content)
	if len(msgs) == 0 {
		return []ActivityItem{preview(ActivityInbox, "message", content, ts)}
	}
	out := make([]ActivityItem, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, preview(ActivityInbox, m.Kind+" from "+m.From, m.Text, ts))
	}
	return out
}

// toolCallActivity previews a tool call by what it does.
func toolCallActivity(b session.ContentBlock, ts float64) ActivityItem {
	var args map[string]any
	_ = json.Unmarshal(b.Arguments, &args)
	str := func(k string) string { s, _ := args[k].(string); return s }
	switch b.Name {
	case "bash":
		cmd := str("command")
		return preview(ActivityCommand, "$ "+firstLine(cmd), cmd, ts)
	case "edit":
		return preview(ActivityEdit, "edit "+str("path"), editPreview(args), ts)
	case "write":
		return preview(ActivityWrite, "write "+str("path"), str("content"), ts)
	case "apply_patch":
		patch := str("input")
		if patch == "" {
			patch = str("patch")
		}
		return preview(ActivityPatch, "patch", patch, ts)
	}
	return preview(ActivityTool, b.Name, compactJSON(b.Arguments), ts)
}

// editPreview shows the replaced and the new text of an edit call (one
// edit, or the first of several).
func editPreview(args map[string]any) string {
	oldText, _ := args["oldText"].(string)
	newText, _ := args["newText"].(string)
	if edits, ok := args["edits"].([]any); ok && len(edits) > 0 {
		if first, ok := edits[0].(map[string]any); ok {
			oldText, _ = first["oldText"].(string)
			newText, _ = first["newText"].(string)
		}
	}
	var b strings.Builder
	for _, l := range strings.Split(oldText, "\n") {
		b.WriteString("- " + l + "\n")
	}
	for _, l := range strings.Split(newText, "\n") {
		b.WriteString("+ " + l + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(out)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// preview builds an item with a bounded, sanitised preview.
func preview(kind, title, text string, ts float64) ActivityItem {
	p, cut := Preview(text, ActivityPreviewLines, ActivityPreviewRunes)
	return ActivityItem{TimeMs: ts, Kind: kind, Title: sanitize.Clip(title, 120), Preview: p, Truncated: cut}
}

// Preview sanitises text and keeps at most maxLines lines and maxRunes
// characters (an ellipsis marks the cut); blank lines at either end go.
func Preview(text string, maxLines, maxRunes int) (string, bool) {
	text = strings.Trim(clean(text), "\n")
	cut := false
	lines := strings.Split(text, "\n")
	if len(lines) > maxLines {
		lines, cut = lines[:maxLines], true
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	out := strings.Join(lines, "\n")
	limit := maxRunes
	if cut {
		limit = maxRunes - 1 // room for the ellipsis
	}
	if utf8.RuneCountInString(out) > limit {
		r := []rune(out)
		out, cut = string(r[:maxRunes-1]), true
	}
	if cut {
		out += "…"
	}
	return out, cut
}

// clean is the one sanitiser for text that reaches a terminal.
func clean(s string) string { return sanitize.Text(s) }
