package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
)

// SessionTreeCmd prints the branch tree of a session.
type SessionTreeCmd struct {
	File string `arg:"" help:"Session: a file (.jsonl), a session id or a unique prefix of one." predictor:"session"`
	Leaf string `help:"Entry whose path is marked active (default: the last entry).${leaf_help}" placeholder:"ID" predictor:"entry"`
	JSON bool   `name:"json" help:"Print {leafId, roots, nodes:[{id, parentId, type, role, timestamp, label, summary, active, children}]}."`
}

// Run prints the tree as Pi's /tree does: a linear run of entries stays in
// one column, and only branch points indent their children.
func (c *SessionTreeCmd) Run(g *Globals) error {
	if err := g.resolveSessionArg(&c.File); err != nil {
		return err
	}
	s, leaf, err := g.openForDisplay(c.File, c.Leaf)
	if err != nil {
		return err
	}
	active := map[int]bool{}
	for _, i := range s.PathTo(leaf) {
		active[i] = true
	}
	tree := s.Tree()
	g.sessionNotes(s, s.TreeNotes(tree))
	if c.JSON {
		_, err := io.WriteString(g.stdout, jsonv.Stringify(treeJSON(s, tree, active, leaf))+"\n")
		return err
	}
	writeTree(g.stdout, s, tree, active, leaf)
	return nil
}

type treeFrame struct {
	index  int
	prefix string // drawn before this node's marker
	child  string // prefix for the node's own children
}

func writeTree(w io.Writer, s *session.Session, tree *session.Tree, active map[int]bool, leaf int) {
	var stack []treeFrame
	for i := len(tree.Roots) - 1; i >= 0; i-- {
		stack = append(stack, treeFrame{index: tree.Roots[i]})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for {
			writeTreeLine(w, s, f.index, f.prefix, active, leaf)
			kids := tree.Children(f.index)
			if len(kids) == 1 { // linear run: same column
				f = treeFrame{index: int(kids[0]), prefix: f.child, child: f.child}
				continue
			}
			for k := len(kids) - 1; k >= 0; k-- {
				branch, cont := "├─ ", "│  "
				if k == len(kids)-1 {
					branch, cont = "└─ ", "   "
				}
				stack = append(stack, treeFrame{index: int(kids[k]), prefix: f.child + branch, child: f.child + cont})
			}
			break
		}
	}
}

func writeTreeLine(w io.Writer, s *session.Session, i int, prefix string, active map[int]bool, leaf int) {
	e := &s.Entries[i]
	marker := "·"
	switch {
	case i == leaf:
		marker = "●"
	case active[i]:
		marker = "*"
	}
	sum := session.DescribeEntry(e)
	label := ""
	if l, ok := s.LabelOf(e.ID); ok {
		label = " [" + sanitize.Clip(l, 40) + "]"
	}
	fmt.Fprintf(w, "%s%s %-8s %s %-13s %s%s\n", prefix, marker, sanitize.Clip(e.ID, 12), clock(e),
		sanitize.Clip(sum.Kind, 13), sanitize.Clip(sum.Text, 80), label)
}

// clock renders an entry's time of day in the local zone.
func clock(e *session.Entry) string {
	ms := e.TimestampMs()
	if ms != ms { // NaN: unparsable timestamp
		return "--:--:--"
	}
	return time.UnixMilli(int64(ms)).Local().Format("15:04:05")
}

func treeJSON(s *session.Session, tree *session.Tree, active map[int]bool, leaf int) *jsonv.Object {
	nodes := make([]any, len(s.Entries))
	for i := range s.Entries {
		e := &s.Entries[i]
		sum := session.DescribeEntry(e)
		n := jsonv.NewObject()
		n.Set("id", e.ID)
		if e.HasParent {
			n.Set("parentId", e.ParentID)
		} else {
			n.Set("parentId", nil)
		}
		n.Set("type", e.Type)
		if e.Role != "" {
			n.Set("role", e.Role)
		}
		n.Set("timestamp", e.Timestamp)
		if l, ok := s.LabelOf(e.ID); ok {
			n.Set("label", l)
		}
		n.Set("summary", sum.Text)
		n.Set("active", active[i])
		kids := tree.Children(i)
		ids := make([]any, len(kids))
		for k, c := range kids {
			ids[k] = s.Entries[c].ID
		}
		n.Set("children", ids)
		nodes[i] = n
	}
	roots := make([]any, len(tree.Roots))
	for i, r := range tree.Roots {
		roots[i] = s.Entries[r].ID
	}
	out := jsonv.NewObject()
	if leaf >= 0 {
		out.Set("leafId", s.Entries[leaf].ID)
	} else {
		out.Set("leafId", nil)
	}
	out.Set("roots", roots)
	out.Set("nodes", nodes)
	return out
}
