package common

import (
	"regexp"
	"strings"

	"github.com/rivo/uniseg"
)

// Line breaking of text with double-width characters (Chinese, Japanese,
// Korean). Such text has no spaces between its words: a line may break
// between two characters, but never before closing punctuation (，。：；？！）」』、)
// nor after opening punctuation (（「『). Those are the line-break rules
// of Unicode's UAX #14, which rivo/uniseg (already a dependency of
// lipgloss) implements, so the break opportunities are its, not a table of
// our own. Text without a double-width character keeps the wrapping it
// always had (ansi.Wrap, WrapWhole's spaces): English output is unchanged.

// hasWide reports a double-width character in s.
func hasWide(s string) bool {
	for _, r := range s {
		if r >= 0x1100 && uniseg.StringWidth(string(r)) > 1 {
			return true
		}
	}
	return false
}

// escapeSeq matches the terminal sequences styled text carries: CSI
// (colours, "\x1b[1;31m") and OSC (hyperlinks), kept as they are.
var escapeSeq = regexp.MustCompile("\x1b\\[[0-9;:?<=>]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)")

// cluster is one user-perceived character of a line to wrap, with the
// escape sequences before it.
type cluster struct {
	pre   string // escape sequences that come before it
	text  string
	width int
	space bool
	brk   bool // a line may break after it
	wide  bool
}

// clusters splits one line of text (no "\n") into its characters, the
// escape sequences set aside with the character after them; a trailing
// sequence is returned as tail.
func clusters(line string) (out []cluster, tail string) {
	var plain strings.Builder
	escapes := map[int]string{} // offset in plain → sequences before it
	last := 0
	for _, loc := range escapeSeq.FindAllStringIndex(line, -1) {
		plain.WriteString(line[last:loc[0]])
		escapes[plain.Len()] += line[loc[0]:loc[1]]
		last = loc[1]
	}
	plain.WriteString(line[last:])
	rest, state, offset := plain.String(), -1, 0
	for rest != "" {
		var c string
		var boundaries int
		c, rest, boundaries, state = uniseg.StepString(rest, state)
		out = append(out, cluster{
			pre:   escapes[offset],
			text:  c,
			width: boundaries >> uniseg.ShiftWidth,
			space: c == " ",
			brk:   boundaries&uniseg.MaskLine != uniseg.LineDontBreak,
			wide:  boundaries>>uniseg.ShiftWidth > 1,
		})
		offset += len(c)
	}
	return out, escapes[offset]
}

// wrapWide breaks text into lines of at most width cells. A line breaks
// after a character where allowed says it may (UAX #14's opportunity is
// given), at spaces (dropped at the break), and inside a run with no
// opportunity only when the run is longer than a line; a character wider
// than the whole width stands alone.
func wrapWide(text string, width int, allowed func(prev, next cluster) bool) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		cs, tail := clusters(para)
		var line []cluster
		lineWidth := 0
		pending := "" // escapes of dropped spaces, carried to the next character
		emit := func(cs []cluster) {
			var b strings.Builder
			for _, c := range cs {
				b.WriteString(c.pre)
				b.WriteString(c.text)
			}
			out = append(out, b.String())
		}
		for i, c := range cs {
			c.pre = pending + c.pre
			pending = ""
			if c.space && lineWidth+c.width > width && len(line) > 0 { // the space is the break
				emit(trimSpaces(line))
				line, lineWidth, pending = nil, 0, c.pre
				continue
			}
			if !c.space && lineWidth+c.width > width && len(line) > 0 {
				at := -1 // break after line[at]
				for j := len(line) - 1; j >= 0; j-- {
					next := c
					if j+1 < len(line) {
						next = line[j+1]
					}
					if line[j].space || next.space || line[j].brk && allowed(line[j], next) {
						at = j
						break
					}
				}
				if at < 0 { // no opportunity in the whole line: cut it, not before closing punctuation if it can
					at = hardCut(line, c)
				}
				emit(trimSpaces(line[:at+1]))
				line = dropLeadingSpaces(line[at+1:], &pending)
				lineWidth = 0
				for _, l := range line {
					lineWidth += l.width
				}
				if lineWidth+c.width > width && len(line) > 0 { // the rest is still too long
					emit(line)
					line, lineWidth = nil, 0
				}
				if len(line) == 0 {
					c.pre = pending + c.pre
					pending = ""
				}
			}
			if c.space && len(line) == 0 && i > 0 {
				pending += c.pre // a wrapped line does not start with a space
				continue
			}
			line = append(line, c)
			lineWidth += c.width
		}
		if len(line) == 0 && (pending != "" || tail != "") {
			out = append(out, pending+tail)
			continue
		}
		if len(line) > 0 {
			line[len(line)-1].text += pending + tail
		}
		emit(line)
	}
	return out
}

// trimSpaces drops the spaces that end a line (their escapes stay).
func trimSpaces(line []cluster) []cluster {
	end := len(line)
	for end > 0 && line[end-1].space {
		end--
	}
	if end == len(line) {
		return line
	}
	kept := append([]cluster(nil), line[:end]...)
	var pre strings.Builder
	for _, c := range line[end:] {
		pre.WriteString(c.pre)
	}
	if pre.Len() > 0 {
		kept = append(kept, cluster{pre: pre.String()})
	}
	return kept
}

// dropLeadingSpaces drops the spaces that would start a wrapped line,
// adding their escapes to pending.
func dropLeadingSpaces(line []cluster, pending *string) []cluster {
	for len(line) > 0 && line[0].space {
		*pending += line[0].pre
		line = line[1:]
	}
	if len(line) > 0 && *pending != "" {
		line = append([]cluster(nil), line...)
		line[0].pre = *pending + line[0].pre
		*pending = ""
	}
	return line
}

// anyBreak allows every break UAX #14 allows (prose: Wrap).
func anyBreak(prev, next cluster) bool { return true }

// wideBreak allows a break next to a double-width character only
// (WrapWhole: Latin text keeps breaking at spaces alone).
func wideBreak(prev, next cluster) bool { return prev.wide || next.wide }

// noStart are the characters a line must not start with, noEnd those it
// must not end with, where a word too long for a line has to be cut.
const (
	noStart = "，。：；？！）」』、,.:;?!)]}"
	noEnd   = "（「『([{"
)

// hardCut is where to cut a line that has no break opportunity before c
// (the index of the last character kept): as late as it can, but not
// before closing or after opening punctuation; at the end when nothing
// else will do.
func hardCut(line []cluster, c cluster) int {
	for j := len(line) - 1; j > 0; j-- {
		next := c
		if j+1 < len(line) {
			next = line[j+1]
		}
		if !strings.Contains(noStart, next.text) && !strings.Contains(noEnd, line[j].text) {
			return j
		}
	}
	return len(line) - 1
}
