package session

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// EntrySummary is the one-line description of an entry used by timelines,
// trees and exports.
type EntrySummary struct {
	// Kind is the message role for message entries, else the entry type.
	Kind string
	// Text is a single line of sanitised text (sanitize.Clip).
	Text string
	// Tokens is the assistant usage's total tokens (0 when none).
	Tokens int
	// ToolCalls counts the tool calls of an assistant message.
	ToolCalls int
}

// summaryRunes bounds summary text; callers truncate further to fit.
const summaryRunes = 240

// DescribeEntry describes e in one line. It decodes the entry's body on demand
// and never fails: undecodable entries are described as such. A message
// is read from its raw line only as far as its summary shows (a tree
// describes every entry of a session).
func DescribeEntry(e *Entry) EntrySummary { return DescribeEntryClipped(e, summaryRunes) }

// DescribeEntryClipped is DescribeEntry for a column of runes (1 … 240;
// outside, the nearest): its Text is sanitize.Clip(DescribeEntry(e).Text,
// runes), the other fields are DescribeEntry's. A caller that shows fewer
// runes than a summary holds gets them without the wider text being built
// (and read from the line) first and clipped again.
func DescribeEntryClipped(e *Entry, runes int) EntrySummary {
	return describe(e, runes, true)
}

// describeLine is DescribeEntryClipped without the counts (Tokens and
// ToolCalls zero): what a line that shows an entry's kind and text needs.
func describeLine(e *Entry, runes int) EntrySummary {
	sum := describe(e, runes, false)
	sum.Tokens, sum.ToolCalls = 0, 0
	return sum
}

// describe is DescribeEntryClipped; counts false may leave Tokens and
// ToolCalls unset.
func describe(e *Entry, runes int, counts bool) EntrySummary {
	runes = min(max(runes, 1), summaryRunes)
	if e.NotObject {
		return finish(EntrySummary{Kind: "value", Text: "(not an object)"}, runes)
	}
	if e.Type == TypeMessage {
		if sum, ok := describeMessageRaw(e, summaryFirstBudget, runes, counts); ok {
			return sum
		}
	} else if sum, ok := describeEntryRaw(e, runes); ok {
		return sum
	}
	return describeDecoded(e, runes)
}

// describeDecoded is DescribeEntryClipped through the typed decoders
// (Payload): every entry type and every message shape.
func describeDecoded(e *Entry, runes int) EntrySummary {
	s := EntrySummary{Kind: e.Type}
	payload, err := e.Payload()
	if err != nil {
		s.Text = "(undecodable: " + err.Error() + ")"
		return finish(s, runes)
	}
	switch p := payload.(type) {
	case *Message:
		s.Kind = p.Role
		s.Text, s.ToolCalls = messageSummary(p)
		if p.Usage != nil {
			s.Tokens = int(p.Usage.TotalTokens)
		}
	case *ModelChange:
		s.Text = p.Provider + "/" + p.ModelID
	case *ThinkingLevelChange:
		s.Text = p.ThinkingLevel
	case *Compaction:
		s.Text = fmt.Sprintf("%s (kept from %s, %d tokens before)", p.Summary, p.FirstKeptEntryID, int(p.TokensBefore))
	case *BranchSummary:
		s.Text = p.Summary
	case *UsageEntry:
		s.Text = p.Kind + " · " + p.Provider + "/" + p.Model
		s.Tokens = int(p.Usage.TotalTokens)
	case *Custom:
		s.Text = p.CustomType
	case *CustomMessage:
		s.Text = p.CustomType + ": " + p.Content.PlainText(" ")
	case *LabelChange:
		if p.Label != nil {
			s.Text = fmt.Sprintf("%s → %q", p.TargetID, *p.Label)
		} else {
			s.Text = p.TargetID + " (label cleared)"
		}
	case *SessionInfo:
		if p.Name != nil {
			s.Text = fmt.Sprintf("name %q", *p.Name)
		} else {
			s.Text = "name cleared"
		}
	}
	return finish(s, runes)
}

func messageSummary(m *Message) (string, int) {
	switch m.Role {
	case RoleToolResult:
		status := ""
		if m.IsError {
			status = " (error)"
		}
		return m.ToolName + status + ": " + m.Content.PlainText(" "), 0
	case "bashExecution":
		return "$ " + m.Command, 0
	case "system":
		names := make([]string, 0, len(m.Sections))
		for k := range m.Sections {
			names = append(names, k)
		}
		return fmt.Sprintf("system prompt: %d section(s), +%d/-%d tools", len(names), len(m.ToolsAdded), len(m.ToolsRemoved)), 0
	case "branchSummary", "compactionSummary":
		return m.Summary, 0
	}
	var parts []string
	calls := 0
	for _, b := range m.Content.Blocks {
		switch b.Type {
		case BlockText:
			parts = append(parts, b.Text)
		case "toolCall":
			calls++
			parts = append(parts, "→ "+b.Name+"("+string(b.Arguments)+")")
		case "image":
			parts = append(parts, "[image]")
		}
	}
	if m.Content.IsString {
		parts = append(parts, m.Content.Text)
	}
	text := strings.Join(parts, " ")
	if m.StopReason == "error" || m.StopReason == "aborted" {
		text = "[" + m.StopReason + "] " + m.ErrorMessage + " " + text
	}
	return text, calls
}

func finish(s EntrySummary, runes int) EntrySummary {
	s.Text = clipText(s.Text, summaryFirstBudget, runes)
	return s
}

// clipText is sanitize.Clip(text, runes) reading only as much of text as
// decides it: prefixes of first bytes and more, cut between characters,
// until the clip is the whole text's (see clipSummary).
func clipText(text string, first, runes int) string {
	for budget := max(first, 1); ; budget *= 4 {
		if len(text) <= budget {
			out, _ := clipSummary(text, false, runes)
			return out
		}
		k := budget
		for back := 0; k > 0 && back < utf8.UTFMax && !utf8.RuneStart(text[k]); back++ {
			k--
		}
		if out, done := clipSummary(text[:k], true, runes); done {
			return out
		}
	}
}
