package sessions

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// The row items of the panel's lists. Each carries everything its row
// shows, so the list's render cache (keyed by the item value) can never
// show a row of stale data; they are built in Update when the data
// changes, never in View.
type (
	// pickerItem is one discovered session.
	pickerItem struct {
		path string
		// fork is the row's place in the fork tree (forkTree): the
		// connector under its parent, "⑂ " for a fork of an unlisted one.
		fork  string
		name  string
		named bool // the session has a name (not its first message)
		open  bool
		count int
		when  common.When
		// unreadable: the listing found no session in the file.
		unreadable bool
		cwd        string
		showCwd    bool // the all-projects scope shows each session's project
		// live: the file changed within LiveWindow (being written);
		// tree: a pi-subagent tree sits next to it. liveCol and treeCol
		// say whether the list has each column (some row has the mark).
		live, tree       bool
		liveCol, treeCol bool
	}
	// treeItem is one visible line of the branch tree.
	treeItem struct {
		idx    int
		mark   string // ▸ folded, ● leaf, ○ the timeline's branch leaf
		prefix string // gutters and ├─/└─ connectors
		kind   string
		text   string
		label  string
		folded string // " (+N)" children hidden by the fold
		active bool   // on the path to the active leaf
		hit    bool   // matches the tree search
	}
	// timelineItem is one entry of the shown branch.
	timelineItem struct {
		idx  int
		mark string // ● leaf, ≡ compaction, ↩ branch summary, ⑂ branch point
		// atMs is the entry's time in Unix milliseconds, shown as HH:MM:SS
		// in local time when timed ("--:--:--" otherwise); it is formatted
		// when the row is drawn, so a load formats only the visible rows.
		atMs   int64
		timed  bool
		kind   string
		label  string
		text   string
		tokens int
		hit    bool // matches the session search
	}
)

// selectedRow renders a whole row under the cursor.
func selectedRow(s common.RowState, text string) string {
	if s.Focused {
		return s.Styles.List.Selected.Render(text)
	}
	return s.Styles.List.SelectedBlurred.Render(text)
}

func renderPickerRow(it pickerItem, s common.RowState) string {
	st := s.Styles
	mark := "  "
	if it.open {
		mark = "● "
	}
	when := it.when.Label()
	if it.unreadable {
		when = i18n.T("unreadable")
	}
	right := i18n.T(" %4d msg  %s", it.count, when)
	if it.showCwd {
		right = "  " + ansi.Truncate(it.cwd, 16, "…") + right
	}
	live, tree := pickerFlag(it.liveCol, it.live, i18n.T("live")), pickerFlag(it.treeCol, it.tree, i18n.T("agents"))
	nameW := max(1, s.Width-ansi.StringWidth(mark)-ansi.StringWidth(it.fork)-ansi.StringWidth(live+tree+right))
	name := ansi.Truncate(it.name, nameW, "…")
	pad := strings.Repeat(" ", max(0, nameW-ansi.StringWidth(name)))
	if s.Selected {
		return selectedRow(s, mark+it.fork+name+pad+live+tree+right)
	}
	nameStyle := st.List.Item
	if it.named {
		nameStyle = st.Text.Strong
	}
	return st.Badge.Active.Render(mark) + st.Text.Muted.Render(it.fork) + nameStyle.Render(name) + pad +
		st.Badge.Warning.Render(live) + st.Badge.Info.Render(tree) + st.Text.Muted.Render(right)
}

// pickerFlag is one mark column of a picker row: " word" when the row has
// the mark, blanks as wide when only other rows have it, nothing when no
// row has it.
func pickerFlag(col, on bool, word string) string {
	switch {
	case on:
		return " " + word
	case col:
		return strings.Repeat(" ", 1+ansi.StringWidth(word))
	}
	return ""
}

func renderTreeRow(it treeItem, s common.RowState) string {
	st := s.Styles
	label := ""
	if it.label != "" {
		label = " [" + it.label + "]"
	}
	body := shortKind(it.kind) + " " + it.text
	prefix := it.prefix
	// Deeply branched sessions would push the text off the pane: keep the
	// nearest levels of the drawing (with its connector) and elide the rest.
	if pw, limit := ansi.StringWidth(prefix), max(3, s.Width/3); pw > limit {
		prefix = "…" + ansi.Cut(prefix, pw-limit+1, pw)
	}
	bodyW := max(1, s.Width-ansi.StringWidth(prefix)-2-ansi.StringWidth(label)-ansi.StringWidth(it.folded))
	body = ansi.Truncate(body, bodyW, "…")
	if s.Selected {
		return selectedRow(s, it.mark+prefix+body+label+it.folded)
	}
	bodyStyle := st.List.Dim
	switch {
	case it.hit:
		bodyStyle = st.List.Match
	case it.active:
		bodyStyle = st.List.Item
	}
	return st.Badge.Active.Render(it.mark) + st.Text.Muted.Render(prefix) + bodyStyle.Render(body) +
		st.Badge.Info.Render(label) + st.Text.Muted.Render(it.folded)
}

// renderTimelineRow is `HH:MM:SS  kind  summary…  tokens` after a marker
// column.
func renderTimelineRow(it timelineItem, s common.RowState) string {
	st := s.Styles
	kind := fmt.Sprintf("%-11s", ansi.Truncate(shortKind(it.kind), 11, "…"))
	tokens := fmt.Sprintf("%7s", common.FormatTokens(it.tokens))
	label := ""
	if it.label != "" {
		label = "[" + it.label + "] "
	}
	clock := clockText(it.atMs, it.timed)
	textW := max(1, s.Width-2-8-2-11-2-7-1)
	text := ansi.Truncate(label+it.text, textW, "…")
	pad := strings.Repeat(" ", max(0, textW-ansi.StringWidth(text)))
	if s.Selected {
		return selectedRow(s, it.mark+" "+clock+"  "+kind+"  "+text+pad+" "+tokens)
	}
	textPart := st.List.Item.Render(text)
	if it.hit {
		textPart = st.List.Match.Render(text)
	} else if label != "" {
		lw := min(ansi.StringWidth(label), ansi.StringWidth(text))
		textPart = st.Badge.Info.Render(ansi.Cut(text, 0, lw)) + st.List.Item.Render(ansi.Cut(text, lw, ansi.StringWidth(text)))
	}
	return st.Badge.Active.Render(it.mark) + " " + st.Text.Muted.Render(clock) + "  " +
		roleStyle(*st, it.kind).Render(kind) + "  " + textPart + pad + " " + st.Text.Muted.Render(tokens)
}
