package cli

import (
	"bufio"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
)

// SessionTreeCmd prints the branch tree of a session.
type SessionTreeCmd struct {
	File string `arg:"" optional:"" help:"Session: a file (.jsonl), a session id or a unique prefix of one (default: the newest session of the project, named on stderr)." predictor:"session"`
	Leaf string `help:"Entry whose path is marked active (default: the last entry).${leaf_help}" placeholder:"ID" predictor:"entry"`
	JSON bool   `name:"json" help:"Print {leafId, roots, nodes:[{id, parentId, type, role, timestamp, label, summary, active, children}]}."`
}

// Run prints the tree as Pi's /tree does: a linear run of entries stays in
// one column, and only branch points indent their children (up to
// treeIndentLevels levels). Both forms
// are written as they are made, through one buffer: a tree has a line per
// entry, and a session may have millions.
func (c *SessionTreeCmd) Run(g *Globals) error {
	file, err := g.namedSession(c.File, "FILE", readsSession)
	if err != nil {
		return err
	}
	c.File = file
	s, leaf, err := g.openForDisplay(c.File, c.Leaf)
	if err != nil {
		return err
	}
	active := make([]bool, len(s.Entries))
	for _, i := range s.PathTo(leaf) {
		active[i] = true
	}
	tree := s.Tree()
	g.sessionNotes(s, s.TreeNotes(tree))
	w := bufio.NewWriterSize(g.stdout, 64<<10)
	if c.JSON {
		writeTreeJSON(w, s, tree, active, leaf)
	} else {
		writeTree(w, s, tree, active, leaf)
	}
	return w.Flush()
}

type treeFrame struct {
	index  int
	prefix string // drawn before this node's marker (its last treeIndentLevels levels)
	child  string // prefix for the node's own children (the same)
	// depth and childDepth count the levels of prefix and child,
	// hidden ones included.
	depth, childDepth int
}

// treeWalk yields the tree's lines in drawing order: each entry with the
// prefix drawn before its marker.
type treeWalk struct {
	tree  *session.Tree
	stack []treeFrame
	run   *treeFrame // the next entry of a linear run, if any
	frame treeFrame
}

func newTreeWalk(tree *session.Tree) *treeWalk {
	w := &treeWalk{tree: tree}
	for i := len(tree.Roots) - 1; i >= 0; i-- {
		w.stack = append(w.stack, treeFrame{index: tree.Roots[i]})
	}
	return w
}

// next returns the next line's entry, the innermost levels of its prefix
// and how many outer levels are left out; ok is false at the end.
func (w *treeWalk) next() (index int, prefix string, hidden int, ok bool) {
	var f treeFrame
	switch {
	case w.run != nil:
		f, w.run = *w.run, nil
	case len(w.stack) > 0:
		f = w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
	default:
		return 0, "", 0, false
	}
	kids := w.tree.Children(f.index)
	if len(kids) == 1 { // linear run: same column
		w.frame = treeFrame{index: int(kids[0]), prefix: f.child, child: f.child, depth: f.childDepth, childDepth: f.childDepth}
		w.run = &w.frame
	} else {
		for k := len(kids) - 1; k >= 0; k-- {
			branch, cont := "├─ ", "│  "
			if k == len(kids)-1 {
				branch, cont = "└─ ", "   "
			}
			w.stack = append(w.stack, treeFrame{index: int(kids[k]), prefix: innermostLevels(f.child + branch),
				child: innermostLevels(f.child + cont), depth: f.childDepth + 1, childDepth: f.childDepth + 1})
		}
	}
	return f.index, f.prefix, max(0, f.depth-treeIndentLevels), true
}

// innermostLevels drops the outermost level of an indent one level deeper
// than a line draws (a level is three characters).
func innermostLevels(indent string) string {
	if utf8.RuneCountInString(indent) <= 3*treeIndentLevels {
		return indent
	}
	cut := 0
	for range 3 {
		_, size := utf8.DecodeRuneInString(indent[cut:])
		cut += size
	}
	return indent[cut:]
}

// writeTree draws the tree; the entries are described on every core
// ahead of the line being written.
func writeTree(w *bufio.Writer, s *session.Session, tree *session.Tree, active []bool, leaf int) {
	order := make([]int32, 0, len(s.Entries))
	for walk := newTreeWalk(tree); ; {
		i, _, _, ok := walk.next()
		if !ok {
			break
		}
		order = append(order, int32(i))
	}
	walk := newTreeWalk(tree)
	var line []byte
	session.DescribeLinesInOrder(len(order), treeSummaryRunes, func(k int) *session.Entry { return &s.Entries[order[k]] }, func(_ int, sum *session.EntrySummary) {
		i, prefix, hidden, _ := walk.next()
		line = line[:0]
		if hidden > 0 {
			line = append(line, "⋯"...)
			line = append(strconv.AppendInt(line, int64(hidden), 10), ' ')
		}
		line = append(line, prefix...)
		line = appendTreeLine(line, s, i, sum, active, leaf)
		w.Write(line)
	})
}

// appendTreeLine appends one entry's line after its prefix: marker, id,
// time of day, kind, summary (described in treeSummaryRunes) and label
// (fmt's "%-8s" and "%-13s" pad by runes).
func appendTreeLine(b []byte, s *session.Session, i int, sum *session.EntrySummary, active []bool, leaf int) []byte {
	e := &s.Entries[i]
	marker := "·"
	switch {
	case i == leaf:
		marker = "●"
	case active[i]:
		marker = "*"
	}
	b = append(b, marker...)
	b = append(b, ' ')
	b = appendPadded(b, sanitize.Clip(e.ID, 12), 8)
	b = append(b, ' ')
	b = appendClock(b, e)
	b = append(b, ' ')
	b = appendPadded(b, sanitize.Clip(sum.Kind, 13), 13)
	b = append(b, ' ')
	b = append(b, sum.Text...) // clipped to treeSummaryRunes when described
	if l, ok := s.LabelOf(e.ID); ok {
		b = append(b, " ["...)
		b = append(b, sanitize.Clip(l, 40)...)
		b = append(b, ']')
	}
	return append(b, '\n')
}

// appendPadded appends s padded with spaces to width runes.
func appendPadded(b []byte, s string, width int) []byte {
	b = append(b, s...)
	for n := utf8.RuneCountInString(s); n < width; n++ {
		b = append(b, ' ')
	}
	return b
}

// clock renders an entry's time of day in the local zone.
func clock(e *session.Entry) string { return string(appendClock(nil, e)) }

func appendClock(b []byte, e *session.Entry) []byte {
	ms := e.TimestampMs()
	if ms != ms { // NaN: unparsable timestamp
		return append(b, "--:--:--"...)
	}
	return time.UnixMilli(int64(ms)).Local().AppendFormat(b, "15:04:05")
}

// writeTreeJSON writes {leafId, roots, nodes} as JSON.stringify would
// print the whole document, one node at a time.
func writeTreeJSON(w *bufio.Writer, s *session.Session, tree *session.Tree, active []bool, leaf int) {
	b := append(make([]byte, 0, 4<<10), `{"leafId":`...) //i18n:raw JSON keys (contract)
	if leaf >= 0 {
		b = jsonv.AppendQuote(b, s.Entries[leaf].ID)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"roots":`...) //i18n:raw JSON keys (contract)
	b = appendIDs(b, s, tree.Roots)
	b = append(b, `,"nodes":[`...) //i18n:raw JSON keys (contract)
	session.DescribeInOrder(len(s.Entries), func(i int) *session.Entry { return &s.Entries[i] }, func(i int, sum *session.EntrySummary) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTreeNode(b, s, tree, i, sum.Text, active[i])
		if len(b) >= 32<<10 {
			w.Write(b)
			b = b[:0]
		}
	})
	b = append(b, "]}\n"...)
	w.Write(b)
}

// appendTreeNode appends one node: {id, parentId, type, role?, timestamp,
// label?, summary, active, children}.
func appendTreeNode(b []byte, s *session.Session, tree *session.Tree, i int, summary string, active bool) []byte {
	e := &s.Entries[i]
	b = append(b, `{"id":`...) //i18n:raw JSON keys (contract)
	b = jsonv.AppendQuote(b, e.ID)
	b = append(b, `,"parentId":`...) //i18n:raw JSON keys (contract)
	if e.HasParent {
		b = jsonv.AppendQuote(b, e.ParentID)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"type":`...) //i18n:raw JSON keys (contract)
	b = jsonv.AppendQuote(b, e.Type)
	if e.Role != "" {
		b = append(b, `,"role":`...) //i18n:raw JSON keys (contract)
		b = jsonv.AppendQuote(b, e.Role)
	}
	b = append(b, `,"timestamp":`...) //i18n:raw JSON keys (contract)
	b = jsonv.AppendQuote(b, e.Timestamp)
	if l, ok := s.LabelOf(e.ID); ok {
		b = append(b, `,"label":`...) //i18n:raw JSON keys (contract)
		b = jsonv.AppendQuote(b, l)
	}
	b = append(b, `,"summary":`...) //i18n:raw JSON keys (contract)
	b = jsonv.AppendQuote(b, summary)
	b = append(b, `,"active":`...) //i18n:raw JSON keys (contract)
	b = strconv.AppendBool(b, active)
	b = append(b, `,"children":`...) //i18n:raw JSON keys (contract)
	kids := tree.Children(i)
	b = append(b, '[')
	for k, c := range kids {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonv.AppendQuote(b, s.Entries[c].ID)
	}
	return append(b, "]}"...)
}

// appendIDs appends the ids of entries as a JSON array.
func appendIDs(b []byte, s *session.Session, entries []int) []byte {
	b = append(b, '[')
	for k, i := range entries {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonv.AppendQuote(b, s.Entries[i].ID)
	}
	return append(b, ']')
}

// treeIndentLevels is how many levels of indent a tree line draws. Each
// branch point indents its children one level, so a session that
// branches again and again would push its lines ever further right (and
// print mostly spaces); a deeper line starts with "⋯N", the number of
// outer levels it leaves out, and draws the innermost ones.
const treeIndentLevels = 8

// treeSummaryRunes is the column of an entry's summary in a tree line.
const treeSummaryRunes = 80
