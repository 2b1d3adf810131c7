package sessions

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/compare"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/transcript"
)

// The branch comparison (issue 26): M marks the selected entry, D compares
// the entry selected then with the mark — what `forgebench session diff
// MARK SELECTED` prints, the two branches after their fork point side by
// side — and enter there shows the request at each entry in the Payloads
// panel's request diff (a common.JumpTarget.CompareRefs jump). The mark
// may be in another session (a fork of this one): session/compare finds
// the fork point by entry id. The comparison runs in a command.

// branchCompare is the mark and the comparison on screen.
type branchCompare struct {
	mark *entryRef
	// asked counts comparisons; the result of an older one is dropped.
	asked   int
	pending bool
	result  *compareResult
	offset  int
}

// entryRef names an entry of a session file and what the session is
// called.
type entryRef struct {
	file, title, entry string
}

// ref is the request reference of the entry (replay.ParseRef's
// session:FILE#ENTRY).
func (r entryRef) ref() string {
	return replay.Ref{Kind: replay.RefSession, Path: r.file, Entry: r.entry}.String()
}

// compareResult is one comparison: A the mark, B the entry compared with it.
type compareResult struct {
	asked int
	a, b  entryRef
	diff  compare.Diff
	// fork is the fork point's kind and text, one sanitised line ("" when
	// the branches share no entry).
	fork string
	err  error
}

// comparedMsg delivers a comparison.
type comparedMsg struct{ res *compareResult }

// markLabel is the mark as the timeline's border names it ("" when none).
func (m *Model) markLabel() string {
	mk := m.views.compare.mark
	if mk == nil {
		return ""
	}
	if m.ls != nil && mk.file != m.ls.file {
		return i18n.T("mark %s in %s", sanitize.Fold(mk.entry), sanitize.Fold(mk.title))
	}
	return i18n.T("mark %s", sanitize.Fold(mk.entry))
}

// toggleMark is M: the selected entry becomes the mark, or stops being it.
func (m *Model) toggleMark() tea.Cmd {
	idx := m.currentEntry()
	if idx < 0 {
		return nil
	}
	c := &m.views.compare
	here := entryRef{file: m.ls.file, title: m.ls.title, entry: m.ls.sess.Entries[idx].ID}
	if c.mark != nil && *c.mark == here {
		c.mark = nil
		return m.setStatus(m.focus, i18n.T("mark removed"), false)
	}
	c.mark = &here
	return m.setStatus(m.focus, i18n.T("marked %s · select another entry and press %s to compare",
		here.entry, m.keys.Compare.Help().Key), false)
}

// openCompare is D: the mark against the selected entry, in the detail
// pane.
func (m *Model) openCompare() tea.Cmd {
	idx := m.currentEntry()
	if idx < 0 {
		return nil
	}
	c := &m.views.compare
	if c.mark == nil {
		return m.setStatus(m.focus, i18n.T("no mark: %s marks an entry, then %s on another compares them",
			m.keys.Mark.Help().Key, m.keys.Compare.Help().Key), true)
	}
	here := entryRef{file: m.ls.file, title: m.ls.title, entry: m.ls.sess.Entries[idx].ID}
	if *c.mark == here {
		return m.setStatus(m.focus, i18n.T("this is the marked entry: select another to compare with it"), true)
	}
	c.asked++
	c.pending, c.offset = true, 0
	m.mode, m.focus = modeCompare, paneDetail
	return compareCmd(c.asked, *c.mark, here, m.ls.sess, m.com.Services())
}

// compareCmd compares a and b in a command; open is the session of b
// (already read), a's is read through session.Shared when it is another.
func compareCmd(asked int, a, b entryRef, open *session.Session, svc *services.Services) tea.Cmd {
	return func() tea.Msg {
		res := &compareResult{asked: asked, a: a, b: b}
		res.diff, res.fork, res.err = compareEntries(a, b, open, svc)
		return comparedMsg{res: res}
	}
}

// compareEntries finds both entries and compares their branches.
func compareEntries(a, b entryRef, open *session.Session, svc *services.Services) (compare.Diff, string, error) {
	sa := open
	if a.file != b.file {
		s, err := session.Shared(a.file)
		if err != nil {
			return compare.Diff{}, "", i18n.Errorf("read the marked session: %w", err)
		}
		sa = s
	}
	ia, ok := sa.IndexOf(a.entry)
	if !ok {
		return compare.Diff{}, "", i18n.Errorf("the marked entry %s is no longer in %s", a.entry, filepath.Base(a.file))
	}
	ib, ok := open.IndexOf(b.entry)
	if !ok {
		return compare.Diff{}, "", i18n.Errorf("entry %s is no longer in %s", b.entry, filepath.Base(b.file))
	}
	cat, _ := svc.Catalog() // unpriced usage says so; the root reports the catalog's problems
	d, err := compare.Branches(compare.Side{Session: sa, Leaf: ia}, compare.Side{Session: open, Leaf: ib}, cat)
	if errors.Is(err, compare.ErrUnrelated) {
		return d, "", i18n.Errorf("the two sessions share no entry: neither is a fork of the other")
	}
	if err != nil {
		return d, "", i18n.Errorf("compare the branches: %w", err)
	}
	fork := ""
	if d.HasForkPoint {
		if e, ok := sa.Entry(d.ForkPoint); ok {
			sum := session.DescribeEntry(e)
			fork = sanitize.Fold(sum.Kind)
			if sum.Text != "" {
				fork += " · " + sanitize.Fold(sum.Text)
			}
		}
	}
	return d, fork, nil
}

// applyCompared shows the newest comparison.
func (m *Model) applyCompared(msg comparedMsg) {
	c := &m.views.compare
	if msg.res.asked != c.asked {
		return
	}
	c.pending, c.result = false, msg.res
}

// compareRequests is enter in the comparison: the Payloads panel shows the
// request at the mark (A) against the request at the other entry (B).
func (m *Model) compareRequests() tea.Cmd {
	res := m.views.compare.result
	if res == nil || res.err != nil {
		return nil
	}
	return m.com.Jump(common.JumpTarget{Panel: common.PanelPayloads, CompareRefs: [2]string{res.a.ref(), res.b.ref()}})
}

// compareView draws the comparison in the detail pane.
func (m *Model) compareView(r rect, focused bool) string {
	st := m.com.Styles
	c := m.views.compare
	h, w := r.h-2, r.w-4
	if c.result == nil {
		return m.frame(r, i18n.T("Compare"), m.statusView(paneDetail), focused, []string{st.Pane.Placeholder.Render(i18n.T("comparing the branches…"))})
	}
	lines := m.laidLines(w, h)
	info := scrollInfo(c.offset, h, len(lines))
	if c.pending {
		info = joinInfo(i18n.T("comparing…"), info)
	}
	title := i18n.T("Compare %s ↔ %s", sanitize.Fold(c.result.a.entry), sanitize.Fold(c.result.b.entry))
	return m.frame(r, title, joinInfo(info, m.statusView(paneDetail)), focused, window(lines, c.offset, h))
}

// compareLabelWidth is the width of the label column; compareTextLines
// bounds each side's last text.
const (
	compareLabelWidth = 12
	compareTextLines  = 6
)

// renderCompare lays a comparison out for a width: the fork point, then a
// label column and one column per side, as `session diff` prints it.
func renderCompare(res *compareResult, width int, openKey string, st themes.Styles) []string {
	width = max(20, width)
	cut := func(s string) string { return ansi.Truncate(s, width, "…") }
	if res.err != nil {
		return wrapped(st.Text.Danger, sanitize.Fold(res.err.Error()), width)
	}
	d := res.diff
	var out []string
	fork := i18n.T("none (the branches share no entry)")
	if d.HasForkPoint {
		fork = sanitize.Fold(d.ForkPoint)
		if res.fork != "" {
			fork += " · " + res.fork
		}
	}
	out = append(out, cut(st.Text.Muted.Render(common.PadCell(i18n.T("fork point"), compareLabelWidth))+st.Text.Normal.Render(fork)))
	out = append(out, cut(st.Text.Subtle.Render(i18n.T("%s shows the request at A and at B in the Payloads diff", openKey))), "")
	col := max(4, (width-compareLabelWidth-2)/2)
	row := func(label string, a, b []string) {
		n := max(len(a), len(b), 1)
		for k := 0; k < n; k++ {
			l := ""
			if k == 0 {
				l = i18n.T(label)
			}
			line := st.Text.Muted.Render(common.PadCell(l, compareLabelWidth)) + st.Text.Normal.Render(common.PadCell(colCell(a, k, col), col+2)) +
				st.Text.Normal.Render(colCell(b, k, col))
			out = append(out, cut(strings.TrimRight(line, " ")))
		}
	}
	one := func(s string) []string { return []string{s} }
	side := func(label string, f func(compare.Summary) []string) { row(label, f(d.A), f(d.B)) }
	out = append(out, cut(st.Text.Strong.Render(common.PadCell("", compareLabelWidth)+common.PadCell(i18n.T("A (mark)"), col+2)+"B")))
	row(i18n.Mark("session"), one(sanitize.Fold(res.a.title)), one(sanitize.Fold(res.b.title)))
	side(i18n.Mark("leaf"), func(s compare.Summary) []string { return one(sanitize.Fold(s.Leaf)) })
	side(i18n.Mark("entries"), func(s compare.Summary) []string { return one(fmt.Sprint(s.Entries)) })
	side(i18n.Mark("messages"), func(s compare.Summary) []string {
		return one(i18n.T("%d user · %d assistant", s.Messages.User, s.Messages.Assistant))
	})
	side(i18n.Mark("errors"), func(s compare.Summary) []string { return one(fmt.Sprint(s.Messages.Errors)) })
	side(i18n.Mark("tool calls"), func(s compare.Summary) []string {
		var xs []string
		for _, c := range s.ToolCalls {
			xs = append(xs, fmt.Sprintf("%s ×%d", sanitize.Fold(c.Name), c.Count))
		}
		return orDash(xs)
	})
	side(i18n.Mark("files"), func(s compare.Summary) []string {
		xs := make([]string, len(s.FilesTouched))
		for i, f := range s.FilesTouched {
			xs[i] = sanitize.Fold(f)
		}
		return orDash(xs)
	})
	tok := func(label string, f func(compare.Tokens) float64) {
		side(label, func(s compare.Summary) []string { return one(transcript.OrZero(common.FormatTokens(int(f(s.Tokens))))) })
	}
	tok(i18n.Mark("input"), func(t compare.Tokens) float64 { return t.Input })
	tok(i18n.Mark("output"), func(t compare.Tokens) float64 { return t.Output })
	tok(i18n.Mark("cache read"), func(t compare.Tokens) float64 { return t.CacheRead })
	tok(i18n.Mark("cache write"), func(t compare.Tokens) float64 { return t.CacheWrite })
	side(i18n.Mark("cost"), func(s compare.Summary) []string {
		if !s.CostKnown {
			return one(i18n.T("unknown (unpriced)"))
		}
		return one(fmt.Sprintf("$%.4f", s.Cost))
	})
	side(i18n.Mark("wall time"), func(s compare.Summary) []string {
		if !s.DurationKnown {
			return one(i18n.T("unknown"))
		}
		return one((time.Duration(s.DurationMs) * time.Millisecond).Round(time.Second).String())
	})
	side(i18n.Mark("models"), func(s compare.Summary) []string {
		xs := make([]string, len(s.Models))
		for i, x := range s.Models {
			xs[i] = sanitize.Fold(x)
		}
		return orDash(xs)
	})
	side(i18n.Mark("last text"), func(s compare.Summary) []string {
		return lastTextCells(s, col)
	})
	return out
}

// orDash is xs, or "—" when empty.
func orDash(xs []string) []string {
	if len(xs) == 0 {
		return []string{"—"}
	}
	return xs
}

// lastTextCells wraps a side's last assistant text into its column, at
// most compareTextLines lines (the last says when more was cut).
func lastTextCells(s compare.Summary, col int) []string {
	if !s.HasLastText {
		return []string{"—"}
	}
	var lines []string
	for _, l := range strings.Split(ansi.Wrap(sanitize.Text(s.LastText), col, " -"), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > compareTextLines {
		lines = append(lines[:compareTextLines-1], "…")
	}
	return lines
}

// colCell is the k-th line of a column fitted to width cells.
func colCell(xs []string, k, width int) string {
	if k >= len(xs) {
		return ""
	}
	return ansi.Truncate(xs[k], width, "…")
}
