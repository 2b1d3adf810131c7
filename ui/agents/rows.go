package agents

import (
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/ui/common"
)

// agentRow is one agent of the list, with everything its row shows (the
// list caches rows by this value, so a reload that changes a number draws
// the row anew).
type agentRow struct {
	path string
	// name is the path as the tree shows it: indented below /root, or
	// the path relative to /root when the parent is filtered out.
	name    string
	role    string
	task    string
	status  string
	cost    string
	runtime string
	counts  string
	tokens  string
	created string
	hidden  bool
	closed  bool
	tone    tone
}

// tone colours a row by its execution status.
type tone int

const (
	toneNormal tone = iota
	toneRunning
	toneError
)

// buildRows lists the agents the filters keep, in tree order (paths sort
// parents before their children); runtime gives the run time a row shows.
func buildRows(t *subagent.Tree, showClosed, showHidden bool, runtime func(*subagent.Agent) string) []agentRow {
	keep := func(a *subagent.Agent) bool {
		if !a.Visible && !showHidden {
			return false
		}
		closed := a.Lifecycle == subagent.LifecycleClosed
		return closed == showClosed
	}
	shown := map[string]bool{}
	var rows []agentRow
	for _, a := range t.Agents {
		if !keep(a) {
			continue
		}
		shown[a.Path] = true
		name := sanitize.Fold(strings.TrimPrefix(a.Path, subagent.RootPath+"/"))
		if shown[a.Parent] {
			name = strings.Repeat("  ", a.Depth-1) + sanitize.Fold(a.Name)
		}
		r := agentRow{
			path: a.Path, name: name, role: sanitize.Fold(a.Descriptor.Role.Name),
			task: sanitize.Clip(a.Task(), 200), status: sanitize.Fold(a.Status), cost: a.CostText(),
			runtime: runtime(a), counts: a.CountsText(), tokens: a.TokensText(),
			created: a.CreatedClock(time.Local), hidden: !a.Visible,
			closed: a.Lifecycle == subagent.LifecycleClosed,
		}
		switch a.Status {
		case subagent.StatusRunning, subagent.StatusPendingInit:
			r.tone = toneRunning
		case subagent.StatusErrored:
			r.tone = toneError
		}
		rows = append(rows, r)
	}
	return rows
}

// column is one cell of a row: its width and text.
type column struct {
	w    int
	text string
}

// wideRowMin is the row width from which every column is shown.
const wideRowMin = 96

// rowColumns lays a row out for width cells: path, role, task, status,
// cost, run time, requests/tools, tokens and created on a wide pane; path,
// status, cost, run time, created and task on a narrow one. The task takes
// what is left.
func rowColumns(r agentRow, width int) []column { return columnsWith(r, width, widths().counts) }

// columnsWith is rowColumns with the requests/tools column countsW wide.
func columnsWith(r agentRow, width, countsW int) []column {
	name := r.name
	if r.hidden {
		name += " ⌁"
	}
	if width < wideRowMin {
		fixed := []column{{11, r.status}, {8, r.cost}, {7, r.runtime}, {8, r.created}}
		return layout(column{min(24, max(12, width/4)), name}, fixed, r.task, width)
	}
	fixed := []column{{9, r.role}, {11, r.status}, {8, r.cost}, {7, r.runtime}, {countsW, r.counts}, {13, r.tokens}, {8, r.created}}
	return layout(column{min(26, max(14, width/6)), name}, fixed, r.task, width)
}

// taskRoom is the task column of the wide dashboard's list: its first
// words; the detail beside it shows the task whole (enter).
const taskRoom = 16

// wideListWidth is the width of the wide dashboard's list pane: its frame
// and a row with every column whole and the task at taskRoom cells.
func wideListWidth() int { return widths().list }

// languageWidths are the widths that depend on the run's language: the
// requests/tools column is as wide as its title ("REQ/TL" in English,
// wider in Chinese), and the wide list as its columns. They are worked
// out once per language, not on every frame and mouse event.
type languageWidths struct{ counts, list int }

var widthsOf sync.Map // i18n.Lang → languageWidths

func widths() languageWidths {
	lang := i18n.Current()
	if w, ok := widthsOf.Load(lang); ok {
		return w.(languageWidths)
	}
	w := languageWidths{counts: max(7, common.Width(i18n.T("REQ/TL")))}
	for inner := wideRowMin; ; inner++ {
		if cols := columnsWith(agentRow{}, inner, w.counts); len(cols) > 2 && cols[2].w >= taskRoom {
			w.list = inner + 4
			break
		}
	}
	widthsOf.Store(lang, w)
	return w
}

// layout places the first column, the task and the fixed columns after
// it, one space apart, the task filling the rest (at least 6 cells).
func layout(first column, fixed []column, task string, width int) []column {
	used := first.w + 1
	for _, c := range fixed {
		used += c.w + 1
	}
	taskW := max(6, width-used)
	cols := []column{first, {taskW, task}}
	if first.w+1+taskW+1 > width {
		return cols[:1]
	}
	// Put the task after the role on wide rows (the README's order),
	// after the name on narrow ones.
	if len(fixed) > 4 {
		return append([]column{first, fixed[0], {taskW, task}}, fixed[1:]...)
	}
	return append(append([]column{first}, fixed...), column{taskW, task})
}

// header is the column titles for a width, laid out like the rows.
func header(width int) string {
	h := agentRow{name: i18n.T("PATH"), role: i18n.T("ROLE"), task: i18n.T("TASK"), status: i18n.T("STATUS"), cost: i18n.T("COST"),
		runtime: i18n.T("RUN"), counts: i18n.T("REQ/TL"), tokens: i18n.T("TOKENS i/o/c"), created: i18n.T("CREATED")}
	return joinCells(rowColumns(h, width), width)
}

// joinCells pads or cuts each cell to its width.
func joinCells(cols []column, width int) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		text := ansi.Truncate(c.text, c.w, "…")
		b.WriteString(text + strings.Repeat(" ", max(0, c.w-ansi.StringWidth(text))))
	}
	return ansi.Truncate(b.String(), width, "")
}

func renderRow(r agentRow, s common.RowState) string {
	st := s.Styles
	line := joinCells(rowColumns(r, s.Width), s.Width)
	if s.Selected {
		if s.Focused {
			return st.List.Selected.Render(line)
		}
		return st.List.SelectedBlurred.Render(line)
	}
	switch {
	case r.hidden || r.closed:
		return st.List.Dim.Render(line)
	case r.tone == toneError:
		return st.Text.Danger.Render(line)
	case r.tone == toneRunning:
		return st.Text.Info.Render(line)
	}
	return st.List.Item.Render(line)
}
