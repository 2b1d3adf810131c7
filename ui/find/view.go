package find

import (
	"fmt"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/search"
	"github.com/forgebench/forgebench/ui/common"
)

// Row kinds.
const (
	rowTitle = iota // a session (or agent transcript) with hits
	rowHit          // one matching entry
)

// row is one line of the results: what it shows, nothing more (the list
// caches rows by value).
type row struct {
	kind  int
	id    string // identity across appends
	hit   int    // index into results.hits (rowHit)
	title string // session title, agent path (rowTitle)
	// entry, when, role and the snippet split around the match (rowHit).
	entry, when, role string
	pre, match, post  string
	abandoned         bool
}

func titleRow(f search.FileResult) row {
	return row{kind: rowTitle, id: "f" + f.Source.Path, title: sanitize.Fold(f.Title())}
}

func hitRow(h search.Hit, i int) row {
	sn := h.Snippet
	when := ""
	if t, err := time.Parse(time.RFC3339Nano, h.Timestamp); err == nil {
		when = t.Local().Format("Jan 02 15:04") //i18n:raw a time layout
	}
	return row{kind: rowHit, id: fmt.Sprint("h", i), hit: i, entry: sanitize.Fold(h.EntryID), when: when, role: h.Role,
		pre: sn.Text[:sn.Start], match: sn.Text[sn.Start:sn.End], post: sn.Text[sn.End:], abandoned: !h.OnActiveBranch}
}

// renderRow draws a title as the session's name, a hit as
// `  id  when  role  …snippet with the match marked…`; a hit on an
// abandoned branch is marked ⑂.
func renderRow(r row, s common.RowState) string {
	st := s.Styles
	if r.kind == rowTitle {
		line := ansi.Truncate(r.title, s.Width, "…")
		if s.Selected {
			return st.List.Selected.Render(common.FitLine(line, s.Width))
		}
		return st.Text.Strong.Render(line)
	}
	mark := "  "
	if r.abandoned {
		mark = "⑂ "
	}
	head := fmt.Sprintf("%s%-8s %-12s %-9s ", mark, r.entry, r.when, r.role)
	room := max(0, s.Width-ansi.StringWidth(head))
	pre, match, post := fitSnippet(r.pre, r.match, r.post, room)
	if s.Selected {
		return st.List.Selected.Render(common.FitLine(head+pre+match+post, s.Width))
	}
	return st.Text.Muted.Render(head) + st.Text.Normal.Render(pre) + st.List.Match.Render(match) + st.Text.Normal.Render(post)
}

// fitSnippet cuts a snippet to width cells keeping the match in view: the
// text before it is shortened from the left first.
func fitSnippet(pre, match, post string, width int) (string, string, string) {
	if width <= 0 {
		return "", "", ""
	}
	match = ansi.Truncate(match, width, "…")
	left := width - ansi.StringWidth(match)
	keep := min(ansi.StringWidth(pre), max(left/3, left-ansi.StringWidth(post)))
	if w := ansi.StringWidth(pre); w > keep {
		pre = "…" + ansi.TruncateLeft(pre, w-keep+1, "")
	}
	post = ansi.Truncate(post, max(0, left-ansi.StringWidth(pre)), "…")
	return pre, match, post
}

// View draws the view as a frame of width×height cells: the query line
// with the options, the progress and the results (the root's footer
// shows the keys, once).
func (m *Model) View(width, height int) string {
	st := &m.com.Styles
	inner := max(1, width-4)
	listRows := max(1, height-4) // the frame's borders, the query and the progress lines
	lines := append([]string{m.queryLine.View(inner)}, m.results.View(&m.queryLine, inner, listRows)...)
	return common.Frame(*st, width, height, i18n.T("Search sessions"), m.list.Position(), true, lines)
}
