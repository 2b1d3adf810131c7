package sessions

import (
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/session"
)

// forkDepthDrawn bounds the connectors drawn for one row: deeper forks
// keep the last levels behind an ellipsis, so a long fork chain never
// pushes the names off the picker.
const forkDepthDrawn = 4

// forkTree orders listed sessions as their fork relations (the header's
// parentSession) make a tree: every fork right under the session it was
// forked from, forks of one session in the listing's order, roots (and
// forks whose parent is not listed) in the listing's order. prefix is
// each row's connector drawing ("├ ", "└ ", "│ " per level; "⑂ " for a
// fork whose parent is not listed). A parent chain that loops leaves its
// sessions as roots.
func forkTree(items []session.ListItem) (ordered []session.ListItem, prefix []string) {
	byPath := make(map[string]int, len(items))
	for i, it := range items {
		byPath[filepath.Clean(it.Path)] = i
	}
	parent := make([]int, len(items))
	kids := map[int][]int{}
	forks := false
	for i, it := range items {
		parent[i] = -1
		if it.ParentSession == "" {
			continue
		}
		forks = true
		if p, ok := byPath[filepath.Clean(it.ParentSession)]; ok && p != i {
			parent[i] = p
			kids[p] = append(kids[p], i)
		}
	}
	prefix = make([]string, 0, len(items))
	if !forks {
		return items, make([]string, len(items))
	}
	ordered = make([]session.ListItem, 0, len(items))
	placed := make([]bool, len(items))
	var walk func(i int, gutters []bool, last bool, depth int)
	walk = func(i int, gutters []bool, last bool, depth int) {
		placed[i] = true
		ordered = append(ordered, items[i])
		prefix = append(prefix, forkPrefix(items[i], gutters, last, depth))
		for k, c := range kids[i] {
			if !placed[c] {
				walk(c, append(gutters[:depth:depth], !last), k == len(kids[i])-1, depth+1)
			}
		}
	}
	for i := range items {
		if parent[i] < 0 && !placed[i] {
			walk(i, nil, true, 0)
		}
	}
	for i := range items { // a loop of forks: no member has an unlisted parent
		if !placed[i] {
			walk(i, nil, true, 0)
		}
	}
	return ordered, prefix
}

// forkPrefix draws a row's place in the fork tree: gutters[k] says whether
// level k still has siblings below (a "│" runs down it).
func forkPrefix(it session.ListItem, gutters []bool, last bool, depth int) string {
	if depth == 0 {
		if it.ParentSession != "" {
			return "⑂ "
		}
		return ""
	}
	var b strings.Builder
	from := 1
	if depth > forkDepthDrawn {
		from = depth - forkDepthDrawn + 1
		b.WriteString("…")
	}
	for k := from; k < depth; k++ {
		if gutters[k] {
			b.WriteString("│ ")
		} else {
			b.WriteString("  ")
		}
	}
	if last {
		b.WriteString("└ ")
	} else {
		b.WriteString("├ ")
	}
	return b.String()
}
