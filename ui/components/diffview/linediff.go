package diffview

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/i18n"
)

// LineKind says whether a line of a line diff is shared, removed or added.
type LineKind uint8

// The kinds of a line diff's lines.
const (
	// LineEqual is a line present on both sides (context).
	LineEqual LineKind = iota
	// LineDelete is a line only on the before side.
	LineDelete
	// LineInsert is a line only on the after side.
	LineInsert
)

// Line is one line of a line diff.
type Line struct {
	// Kind is whether the line is shared, removed or added.
	Kind LineKind
	// Text is the line as the file holds it, without its line ending.
	Text string
	// OldNo and NewNo are 1-based line numbers on each side, 0 on the side
	// that does not have the line.
	OldNo, NewNo int
	// CR is set when the line ended in "\r\n" and the two sides disagree
	// about carriage returns, so the view marks it (a CR-only change would
	// otherwise look like two identical lines).
	CR bool
	// NoNewline is set on the last line of a side that has no final
	// newline when the other side has one; the view then adds git's
	// "\ No newline at end of file" marker under it.
	NoNewline bool
}

// ContextMode selects how many unchanged lines surround the changes.
type ContextMode uint8

// The context modes of pi-forge's run diff: changes only, three lines, all.
const (
	// ContextChanges shows changed lines only, one hunk per run of changes.
	ContextChanges ContextMode = iota
	// ContextThree shows three unchanged lines around each change.
	ContextThree
	// ContextAll shows the whole text.
	ContextAll
	contextModes
)

// String names the mode for captions and help ("changes", "3 lines", "all").
func (c ContextMode) String() string {
	switch c {
	case ContextChanges:
		return i18n.Mark("changes")
	case ContextThree:
		return i18n.Mark("3 lines")
	case ContextAll:
		return i18n.Mark("all")
	}
	return fmt.Sprintf("context(%d)", uint8(c)) //i18n:raw an impossible value's debug name
}

// Label is the mode as a caption shows it, in the run's language.
func (c ContextMode) Label() string { return i18n.T(c.String()) }

// Next is the mode after c in the cycle changes → 3 lines → all → changes.
func (c ContextMode) Next() ContextMode { return (c + 1) % contextModes }

func (c ContextMode) lines() int {
	switch c {
	case ContextChanges:
		return 0
	case ContextThree:
		return 3
	}
	return -1 // everything
}

// LineDiff is the line-level difference of two texts, computed once and
// immutable afterwards, so it may be built in a tea.Cmd and shared between
// views. The hunks of every context mode are laid out at construction.
type LineDiff struct {
	lines          []Line
	added, removed int
	numberWidth    int
	// rows per context mode, in unified layout (hunk headers, lines and
	// no-newline markers); split rows pair them.
	unified [contextModes][]row
	split   [contextModes][]row
}

// NewLineDiff diffs before against after by lines (diff-match-patch in
// line mode, see diffLines). Line endings count: "a\r\n" and "a\n" differ,
// as do texts that differ only in a final newline.
func NewLineDiff(before, after string) *LineDiff {
	d := &LineDiff{}
	crDiffers := strings.Contains(before, "\r\n") != strings.Contains(after, "\r\n")
	nlDiffers := before != "" && after != "" && endsWithNewline(before) != endsWithNewline(after)
	var oldNo, newNo int
	for _, op := range diffLines(before, after) {
		for _, raw := range op.lines {
			l := Line{Kind: op.kind}
			text, hadNL := strings.CutSuffix(raw, "\n")
			if t, hadCR := strings.CutSuffix(text, "\r"); hadCR && hadNL {
				text, l.CR = t, crDiffers
			}
			l.Text = text
			l.NoNewline = !hadNL && nlDiffers // only a side's last line lacks "\n"
			switch op.kind {
			case LineEqual:
				oldNo++
				newNo++
				l.OldNo, l.NewNo = oldNo, newNo
			case LineDelete:
				oldNo++
				l.OldNo = oldNo
				d.removed++
			case LineInsert:
				newNo++
				l.NewNo = newNo
				d.added++
			}
			d.lines = append(d.lines, l)
		}
	}
	d.numberWidth = len(fmt.Sprint(max(oldNo, newNo, 1)))
	for m := ContextMode(0); m < contextModes; m++ {
		d.unified[m] = d.layoutUnified(m.lines())
		d.split[m] = pairForSplit(d.unified[m], d.lines)
	}
	return d
}

// Lines is every line of the diff in order (equal, removed and added). The
// slice is the diff's own: read it, do not modify it.
func (d *LineDiff) Lines() []Line { return d.lines }

// Added counts the inserted lines.
func (d *LineDiff) Added() int { return d.added }

// Removed counts the deleted lines.
func (d *LineDiff) Removed() int { return d.removed }

// Identical reports whether the two texts have no line differences.
func (d *LineDiff) Identical() bool { return d.added == 0 && d.removed == 0 }

// rowKind is what one logical row of the laid-out diff draws.
type rowKind uint8

const (
	rowHunk    rowKind = iota // "@@ -a,b +c,d @@"
	rowLine                   // a line (unified) or a pair of lines (split)
	rowNoNL                   // "\ No newline at end of file" under a line
	rowMessage                // a note when there is nothing to show
)

// row is one logical row; indexes point into LineDiff.lines (-1 = none); a
// hunk row's left is its first line, so rows stay sorted by line index.
// Split rows use both left (old side) and right (new side), and marks says
// which side draws the no-newline marker of its line instead of the line;
// unified rows use left only. A hunk or message row keeps its text in note.
type row struct {
	kind        rowKind
	marks       uint8
	left, right int32
	note        string
}

const (
	markLeft  uint8 = 1 << iota // the left side is a no-newline marker
	markRight                   // the right side is a no-newline marker
)

// layoutUnified groups lines into hunks with ctx lines of context (ctx < 0:
// everything in one hunk).
func (d *LineDiff) layoutUnified(ctx int) []row {
	n := len(d.lines)
	if n == 0 {
		return []row{{kind: rowMessage, left: -1, right: -1, note: i18n.T("both sides are empty")}}
	}
	if ctx >= 0 && d.Identical() {
		return []row{{kind: rowMessage, left: -1, right: -1, note: i18n.T("no line changes (%d lines identical)", n)}}
	}
	keep := make([]bool, n)
	if ctx < 0 {
		for i := range keep {
			keep[i] = true
		}
	} else {
		// Mark each changed line and ctx lines either side.
		last := -1 // furthest index already marked
		for i, l := range d.lines {
			if l.Kind == LineEqual {
				continue
			}
			for j := max(i-ctx, last+1, 0); j <= min(i+ctx, n-1); j++ {
				keep[j] = true
				last = j
			}
		}
	}
	var rows []row
	for i := 0; i < n; {
		if !keep[i] {
			i++
			continue
		}
		j := i
		for j < n && keep[j] {
			j++
		}
		rows = append(rows, row{kind: rowHunk, left: int32(i), right: -1, note: d.hunkHeader(i, j)})
		for k := i; k < j; k++ {
			rows = append(rows, row{kind: rowLine, left: int32(k), right: -1})
			if d.lines[k].NoNewline {
				rows = append(rows, row{kind: rowNoNL, left: int32(k), right: -1})
			}
		}
		i = j
	}
	return rows
}

// hunkHeader is git's "@@ -start,count +start,count @@" for lines[i:j]; a
// count of one is omitted and an empty side starts at the line before.
func (d *LineDiff) hunkHeader(i, j int) string {
	var oldStart, newStart, oldCount, newCount int
	for k := i; k < j; k++ {
		l := d.lines[k]
		if l.OldNo > 0 {
			if oldCount == 0 {
				oldStart = l.OldNo
			}
			oldCount++
		}
		if l.NewNo > 0 {
			if newCount == 0 {
				newStart = l.NewNo
			}
			newCount++
		}
	}
	if oldCount == 0 {
		oldStart = d.lineBefore(i, func(l Line) int { return l.OldNo })
	}
	if newCount == 0 {
		newStart = d.lineBefore(i, func(l Line) int { return l.NewNo })
	}
	return fmt.Sprintf("@@ -%s +%s @@", rangeText(oldStart, oldCount), rangeText(newStart, newCount))
}

// lineBefore is the number of the last line before index i on one side.
func (d *LineDiff) lineBefore(i int, no func(Line) int) int {
	for k := i - 1; k >= 0; k-- {
		if n := no(d.lines[k]); n > 0 {
			return n
		}
	}
	return 0
}

func rangeText(start, count int) string {
	if count == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

// pairForSplit turns unified rows into side-by-side rows: within a run of
// changes the n-th removed line sits next to the n-th added line; equal
// lines sit on both sides; a no-newline marker stays on its own side.
func pairForSplit(unified []row, lines []Line) []row {
	out := make([]row, 0, len(unified))
	for i := 0; i < len(unified); {
		r := unified[i]
		if r.kind != rowLine && r.kind != rowNoNL {
			out = append(out, r)
			i++
			continue
		}
		if r.kind == rowLine && lines[r.left].Kind == LineEqual {
			out = append(out, row{kind: rowLine, left: r.left, right: r.left})
			i++
			continue
		}
		// Collect one run of changed lines (and their markers).
		var dels, ins []row
		for i < len(unified) {
			u := unified[i]
			if u.kind != rowLine && u.kind != rowNoNL || u.kind == rowLine && lines[u.left].Kind == LineEqual {
				break
			}
			if lines[u.left].Kind == LineDelete {
				dels = append(dels, u)
			} else {
				ins = append(ins, u)
			}
			i++
		}
		for k := 0; k < max(len(dels), len(ins)); k++ {
			p := row{kind: rowLine, left: -1, right: -1}
			if k < len(dels) {
				p.left = dels[k].left
				if dels[k].kind == rowNoNL {
					p.marks |= markLeft
				}
			}
			if k < len(ins) {
				p.right = ins[k].left
				if ins[k].kind == rowNoNL {
					p.marks |= markRight
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// splitKeepingEnds splits s into lines that keep their "\n"; a final line
// without one is kept as is, and "" has no lines.
func splitKeepingEnds(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

func endsWithNewline(s string) bool { return strings.HasSuffix(s, "\n") }

// Unified is the diff as plain unified text in context mode c: git's
// hunk headers, each line prefixed with " ", "-" or "+", and "\ No
// newline at end of file" where a side lacks it — what y copies and v
// shows of a line diff, whatever the view's layout and width.
func (d *LineDiff) Unified(c ContextMode) string {
	var b strings.Builder
	for _, r := range d.unified[c%contextModes] {
		switch r.kind {
		case rowHunk, rowMessage:
			b.WriteString(r.note)
		case rowNoNL:
			b.WriteString(`\ No newline at end of file`) //i18n:raw git's marker in a unified diff
		case rowLine:
			l := d.lines[r.left]
			b.WriteString(map[LineKind]string{LineEqual: " ", LineDelete: "-", LineInsert: "+"}[l.Kind] + l.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
