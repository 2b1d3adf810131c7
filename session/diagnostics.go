package session

import (
	"fmt"
	"sort"
)

// SkippedLine is one line of a session file that did not become an entry,
// and why.
type SkippedLine struct {
	Line   int
	Reason string
}

// The reasons SkippedLines gives.
const (
	ReasonMalformed = "not valid JSON"
	ReasonBlank     = "blank line"
	ReasonFalsy     = "a falsy JSON value (null, false, 0 or \"\"), which Pi drops"
	ReasonOversized = "longer than the line limit (not read)"
)

// SkippedList lists the skipped lines the reader numbered, in file
// order, each with its reason; unnumbered is how many more were skipped
// (each kind numbers its first 100). Together they add up to
// SkippedLines(). The TUI and the CLI show this one list.
func (d *Diagnostics) SkippedList() (lines []SkippedLine, unnumbered int) {
	add := func(nos []int, reason string) {
		for _, n := range nos {
			lines = append(lines, SkippedLine{Line: n, Reason: reason})
		}
	}
	add(d.MalformedLineNumbers, ReasonMalformed)
	add(d.BlankLineNumbers, ReasonBlank)
	add(d.FalsyLineNumbers, ReasonFalsy)
	add(d.OversizedLines, ReasonOversized)
	sort.SliceStable(lines, func(a, b int) bool { return lines[a].Line < lines[b].Line })
	return lines, d.SkippedLines() - len(lines)
}

// Notes are the tolerated oddities that skipped nothing: a missing final
// newline, later session headers, reused ids.
func (d *Diagnostics) Notes() []string {
	var out []string
	if d.MissingFinalNewline {
		out = append(out, "the last line has no newline (still being written, or cut short)")
	}
	if d.ExtraHeaders > 0 {
		out = append(out, fmt.Sprintf("%d later session header line(s) ignored", d.ExtraHeaders))
	}
	if d.DuplicateIDs > 0 {
		out = append(out, fmt.Sprintf("%d entr(ies) reuse an earlier id (the later one wins)", d.DuplicateIDs))
	}
	return out
}
