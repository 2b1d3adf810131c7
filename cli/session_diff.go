package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/compare"
	"github.com/forgebench/forgebench/ui/common"
)

// SessionDiffCmd compares two branches after their fork point.
type SessionDiffCmd struct {
	A    string `arg:"" name:"A" help:"One side: FILE#ENTRY (FILE a session file, id or unique prefix; ENTRY after the last #), or FILE for its last entry." predictor:"session"`
	B    string `arg:"" name:"B" help:"The other side: FILE#ENTRY, FILE, or #ENTRY for an entry of A's session. A session and its fork compare from the entry the fork was made at."`
	JSON bool   `name:"json" help:"Print {forkPoint, a: {leaf, entries, messages: {user, assistant, errors}, toolCalls: {name: count}, filesTouched, tokens: {input, output, cacheRead, cacheWrite}, cost, durationMs, models, lastText}, b: {…}} (cost, durationMs, lastText null when unknown)."`
}

// Run opens both sessions (once when they are one file), finds the fork
// point and prints what each branch holds after it. Bad references and
// unknown entries are usage errors (exit 2), as two sessions that share no
// entry are.
func (c *SessionDiffCmd) Run(g *Globals) error {
	refA, err := compare.ParseRef(c.A)
	if err != nil {
		return fail(exitUsage, "A: %s", sanitize.Line(err.Error()))
	}
	refB, err := compare.ParseRef(c.B)
	if err != nil {
		return fail(exitUsage, "B: %s", sanitize.Line(err.Error()))
	}
	if refA.SameFile() {
		return failErr(exitUsage, i18n.Errorf("A: %q names no session; #ENTRY is for B (an entry of A's session)", sanitize.Line(c.A)))
	}
	fileA, err := g.namedSession(refA.File, "A", requiredSession)
	if err != nil {
		return err
	}
	fileB := fileA
	if !refB.SameFile() {
		if fileB, err = g.namedSession(refB.File, "B", requiredSession); err != nil {
			return err
		}
	}
	sa, err := openSession(fileA)
	if err != nil {
		return err
	}
	g.sessionNotes(sa, sa.LoadNotes())
	sb := sa
	if !sameFile(fileA, fileB) {
		if sb, err = openSession(fileB); err != nil {
			return err
		}
		g.sessionNotes(sb, sb.LoadNotes())
	}
	leafA, err := leafIndex(sa, refA.Entry)
	if err != nil {
		return err
	}
	leafB, err := leafIndex(sb, refB.Entry)
	if err != nil {
		return err
	}
	for _, s := range []*session.Session{sa, sb} {
		if len(s.Entries) == 0 {
			return failErr(exitUsage, i18n.Errorf("%s has no entries: there is no branch to compare", sanitize.Line(s.Path)))
		}
	}
	cat, err := g.modelCatalog()
	if err != nil {
		return err
	}
	d, err := compare.Branches(compare.Side{Session: sa, Leaf: leafA}, compare.Side{Session: sb, Leaf: leafB}, cat)
	if errors.Is(err, compare.ErrUnrelated) {
		return failErr(exitUsage, i18n.Errorf("%s: neither is a fork of the other, and they are not one session", sanitize.Line(err.Error())))
	}
	if err != nil {
		return err
	}
	if c.JSON {
		_, err = g.stdout.Write(append(jsonv.AppendStringify(nil, d.Value()), '\n'))
		return err
	}
	writeBranchDiff(g.stdout, sa, sb, d)
	return nil
}

// sameFile reports two paths that name one file.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	if errA != nil || errB != nil {
		return false
	}
	aa, errA := filepath.Abs(ra)
	ab, errB := filepath.Abs(rb)
	return errA == nil && errB == nil && aa == ab
}

// Widths of the side-by-side diff: a label column and two value columns.
const (
	diffLabelWidth  = 14
	diffColumnWidth = 40
	diffTextLines   = 6
)

// writeBranchDiff prints the two summaries side by side.
func writeBranchDiff(w io.Writer, sa, sb *session.Session, d compare.Diff) {
	fork := i18n.T("none (the branches share no entry)")
	if d.HasForkPoint {
		fork = sanitize.Clip(d.ForkPoint, 80)
		if e, ok := sa.Entry(d.ForkPoint); ok {
			sum := session.DescribeEntry(e)
			fork += " · " + sanitize.Clip(sum.Kind, 20)
			if sum.Text != "" {
				fork += " · " + sanitize.Clip(sum.Text, 60)
			}
		}
	}
	fmt.Fprint(w, i18n.T("fork point  %s\n\n", fork))
	row := func(label string, a, b []string) {
		n := max(len(a), len(b), 1)
		for k := 0; k < n; k++ {
			l := ""
			if k == 0 {
				l = i18n.T(label)
			}
			line := common.PadCell(l, diffLabelWidth) + common.PadCell(cell(a, k), diffColumnWidth+2) + cell(b, k)
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
	}
	one := func(s string) []string { return []string{s} }
	row("", one("A"), one("B"))
	row(i18n.Mark("file"), one(filepath.Base(sa.Path)), one(filepath.Base(sb.Path)))
	row(i18n.Mark("leaf"), one(d.A.Leaf), one(d.B.Leaf))
	row(i18n.Mark("entries"), one(fmt.Sprint(d.A.Entries)), one(fmt.Sprint(d.B.Entries)))
	msgs := func(s compare.Summary) []string {
		return one(i18n.T("%d user · %d assistant", s.Messages.User, s.Messages.Assistant))
	}
	row(i18n.Mark("messages"), msgs(d.A), msgs(d.B))
	row(i18n.Mark("errors"), one(fmt.Sprint(d.A.Messages.Errors)), one(fmt.Sprint(d.B.Messages.Errors)))
	calls := func(s compare.Summary) []string {
		var out []string
		for _, c := range s.ToolCalls {
			out = append(out, fmt.Sprintf("%s ×%d", c.Name, c.Count))
		}
		return orNone(out)
	}
	row(i18n.Mark("tool calls"), calls(d.A), calls(d.B))
	row(i18n.Mark("files touched"), orNone(d.A.FilesTouched), orNone(d.B.FilesTouched))
	tok := func(f func(compare.Tokens) float64) (a, b []string) {
		return one(count(f(d.A.Tokens))), one(count(f(d.B.Tokens)))
	}
	a, b := tok(func(t compare.Tokens) float64 { return t.Input })
	row(i18n.Mark("input"), a, b)
	a, b = tok(func(t compare.Tokens) float64 { return t.Output })
	row(i18n.Mark("output"), a, b)
	a, b = tok(func(t compare.Tokens) float64 { return t.CacheRead })
	row(i18n.Mark("cache read"), a, b)
	a, b = tok(func(t compare.Tokens) float64 { return t.CacheWrite })
	row(i18n.Mark("cache write"), a, b)
	cost := func(s compare.Summary) []string {
		if !s.CostKnown {
			return one(i18n.T("unknown (unpriced usage)"))
		}
		return one(fmt.Sprintf("$%.4f", s.Cost))
	}
	row(i18n.Mark("cost"), cost(d.A), cost(d.B))
	wall := func(s compare.Summary) []string {
		if !s.DurationKnown {
			return one(i18n.T("unknown"))
		}
		return one((time.Duration(s.DurationMs) * time.Millisecond).Round(time.Second).String())
	}
	row(i18n.Mark("wall time"), wall(d.A), wall(d.B))
	row(i18n.Mark("models"), orNone(d.A.Models), orNone(d.B.Models))
	row(i18n.Mark("last text"), lastTextLines(d.A), lastTextLines(d.B))
}

// orNone is the values, or "—" when there are none.
func orNone(xs []string) []string {
	if len(xs) == 0 {
		return []string{"—"}
	}
	return xs
}

// lastTextLines wraps the last assistant text into the column, at most
// diffTextLines lines (the last one says when more was cut).
func lastTextLines(s compare.Summary) []string {
	if !s.HasLastText {
		return []string{"—"}
	}
	wrapped := ansi.Wrap(sanitize.Text(s.LastText), diffColumnWidth, " -")
	var lines []string
	for _, l := range strings.Split(wrapped, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > diffTextLines {
		lines = append(lines[:diffTextLines-1], "…")
	}
	return lines
}

// cell is the k-th line of a column, one line fitted to the column.
func cell(xs []string, k int) string {
	if k >= len(xs) {
		return ""
	}
	return ansi.Truncate(sanitize.Fold(xs[k]), diffColumnWidth, "…")
}
