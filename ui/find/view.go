package find

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
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
	hit   int    // index into Model.hits (rowHit)
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
		when = t.Local().Format("Jan 02 15:04")
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
	lines := []string{m.queryLine(inner), m.progressLine()}
	listH := max(1, height-2-len(lines))
	if m.list.Len() == 0 {
		lines = append(lines, "", st.Pane.Placeholder.Render(m.emptyText()))
	} else {
		lines = append(lines, m.list.View(st, inner, listH, true)...)
	}
	return common.Frame(*st, width, height, "Search sessions", m.list.Position(), true, lines)
}

func (m *Model) queryLine(width int) string {
	st := &m.com.Styles
	opt := func(on bool, name string) string {
		if on {
			return st.Badge.Active.Render("[" + name + "]")
		}
		return st.Text.Muted.Render(" " + name + " ")
	}
	opts := strings.Join([]string{opt(m.regex, "regex"), opt(m.sensitive, "case"), opt(m.agents, "agents"), opt(m.every, "all projects")}, " ")
	q := st.Text.Info.Render("/ ") + m.line.View(st, true)
	gap := max(1, width-ansi.StringWidth(q)-ansi.StringWidth(opts))
	return q + strings.Repeat(" ", gap) + opts
}

func (m *Model) progressLine() string {
	st := &m.com.Styles
	switch {
	case m.problem != "":
		return st.Text.Danger.Render(sanitize.Fold(m.problem))
	case m.searched == "" || m.gen == 0:
		return ""
	}
	hits := len(m.hits)
	parts := []string{fmt.Sprintf("%d hit%s in %d session%s", hits, plural(hits), m.files, plural(m.files))}
	switch {
	case m.running:
		parts = append(parts, fmt.Sprintf("%d/%d files", m.scanned, m.total))
	case m.stats.Limited:
		parts[0] = fmt.Sprintf("first %d hits in %d session%s: narrow the query", hits, m.files, plural(m.files))
		parts = append(parts, fmt.Sprintf("stopped at file %d/%d", m.scanned, m.total))
	default:
		parts = append(parts, fmt.Sprintf("%d file%s in %s", m.total, plural(m.total), m.took.Round(time.Millisecond)))
		if m.stats.Cached > 0 {
			parts = append(parts, fmt.Sprintf("%d unchanged", m.stats.Cached))
		}
	}
	if m.first > 0 {
		parts = append(parts, fmt.Sprintf("first hit %s", m.first.Round(time.Millisecond)))
	}
	return st.Text.Muted.Render(strings.Join(parts, " · "))
}

func (m *Model) emptyText() string {
	switch {
	case m.problem != "":
		return ""
	case m.query == "":
		return "Type to search the text of every session: messages, tool calls and results, thinking, summaries."
	case m.running:
		return "Searching…"
	case m.searched == m.signature() && m.gen > 0:
		return "No session holds this text."
	}
	return "Press enter to search."
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
