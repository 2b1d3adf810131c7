package sessions

import (
	"strings"

	"github.com/forgebench/forgebench/session"
)

// listCursor is the cursor and scroll offset shared by the panel's lists.
type listCursor struct {
	cursor, offset int
}

// move moves the cursor by delta within n rows.
func (c *listCursor) move(delta, n int) { c.cursor = clamp(c.cursor+delta, 0, n-1) }

// window returns the first visible row for a viewport of h rows, keeping
// the cursor in view (the offset only moves when the cursor leaves it).
func (c *listCursor) window(h, n int) int {
	if h <= 0 || n <= 0 {
		return 0
	}
	if c.cursor < c.offset {
		c.offset = c.cursor
	}
	if c.cursor >= c.offset+h {
		c.offset = c.cursor - h + 1
	}
	c.offset = clamp(c.offset, 0, max(0, n-h))
	return c.offset
}

// picker is the session list with incremental search.
type picker struct {
	listCursor
	items []session.ListItem
	shown []int // indexes into items after the filter
	query string
	err   error
	// all lists every project's sessions instead of the cwd's.
	all bool
}

// setItems replaces the discovered sessions, keeping the cursor on the
// same file when it is still listed.
func (p *picker) setItems(items []session.ListItem) {
	keep := p.currentPath()
	p.items = items
	p.filter()
	p.moveToPath(keep)
}

// filter applies the query with discovery's own search rules.
func (p *picker) filter() {
	p.shown = p.shown[:0]
	if strings.TrimSpace(p.query) == "" {
		for i := range p.items {
			p.shown = append(p.shown, i)
		}
	} else {
		byPath := make(map[string]int, len(p.items))
		for i, it := range p.items {
			byPath[it.Path] = i
		}
		for _, it := range session.Search(p.items, p.query) {
			p.shown = append(p.shown, byPath[it.Path])
		}
	}
	p.cursor = clamp(p.cursor, 0, len(p.shown)-1)
}

func (p *picker) currentPath() string {
	if p.cursor < 0 || p.cursor >= len(p.shown) {
		return ""
	}
	return p.items[p.shown[p.cursor]].Path
}

// sizeOf is the size discovery saw for a listed file (0 when unlisted).
func (p *picker) sizeOf(path string) int64 {
	for _, it := range p.items {
		if it.Path == path {
			return it.Size
		}
	}
	return 0
}

func (p *picker) moveToPath(path string) {
	for r, i := range p.shown {
		if p.items[i].Path == path {
			p.cursor = r
			return
		}
	}
}

// timeline is the entries of one branch (root → branch leaf), filterable.
type timeline struct {
	listCursor
	leaf  int   // the branch's last entry
	path  []int // entry indexes root → leaf
	shown []int // entry indexes after the filter
	query string
	// search is the lower-cased searchable text per entry, built lazily on
	// the first filter so loading stays cheap.
	search []string
}

// setBranch shows the branch ending at leaf with the cursor on entry at.
func (t *timeline) setBranch(ls *loadedSession, leaf, at int) {
	t.leaf = leaf
	t.path = ls.sess.PathTo(leaf)
	t.filter(ls)
	t.moveToEntry(at)
}

// filter keeps the branch entries whose kind, summary, id or label contain
// every word of the query (case-insensitive), like Pi's tree search.
func (t *timeline) filter(ls *loadedSession) {
	keep := t.current()
	t.shown = t.shown[:0]
	words := strings.Fields(strings.ToLower(t.query))
	if len(words) == 0 {
		t.shown = append(t.shown, t.path...)
	} else {
		if len(t.search) != len(ls.rows) {
			t.search = make([]string, len(ls.rows))
		}
		for _, i := range t.path {
			if t.search[i] == "" {
				r := ls.rows[i]
				t.search[i] = strings.ToLower(r.kind + " " + r.id + " " + ls.summary(i).text + " " + ls.labels[i])
			}
			if containsAll(t.search[i], words) {
				t.shown = append(t.shown, i)
			}
		}
	}
	t.cursor = clamp(t.cursor, 0, len(t.shown)-1)
	t.moveToEntry(keep)
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// current is the entry index under the cursor (-1 when empty).
func (t *timeline) current() int {
	if t.cursor < 0 || t.cursor >= len(t.shown) {
		return -1
	}
	return t.shown[t.cursor]
}

func (t *timeline) moveToEntry(idx int) {
	if idx < 0 {
		return
	}
	for r, i := range t.shown {
		if i == idx {
			t.cursor = r
			return
		}
	}
}
