package session

import (
	"math"
	"strconv"
	"time"

	pis "github.com/forgebench/forgebench/session"
)

// entryRow is everything the tree and the timeline show for one entry,
// computed once when a session loads so scrolling never decodes JSON.
type entryRow struct {
	id     string
	clock  string // HH:MM:SS in local time ("--:--:--" when unknown)
	kind   string // role for messages, else the entry type
	text   string // sanitised one-line summary
	tokens int
	// branch is true when the entry has more than one child.
	branch bool
	// compaction and summary mark compaction and branch_summary entries.
	compaction, summary bool
}

// loadedSession is one opened session with its precomputed rows. It is
// built in a command and replaced whole on reload or when follow mode
// appends entries.
type loadedSession struct {
	file string
	name string
	sess *pis.Session
	tree *pis.Tree
	rows []entryRow
	// labels maps entry index → label text.
	labels map[int]string
	// leaf is Pi's default leaf (last entry in file order), -1 if empty.
	leaf int
	// active marks the entries on the path root → leaf.
	active []bool
}

// buildLoaded precomputes rows, labels and the active path. It runs inside
// a command, never in Update or View.
func buildLoaded(file string, s *pis.Session) *loadedSession {
	ls := &loadedSession{file: file, sess: s, tree: s.Tree(), leaf: s.LeafIndex()}
	if name, ok := s.Name(); ok {
		ls.name = SanitizeLine(name)
	}
	ls.rows = make([]entryRow, len(s.Entries))
	for i := range s.Entries {
		ls.rows[i] = summarizeEntry(&s.Entries[i])
		ls.rows[i].branch = len(ls.tree.Children(i)) > 1
	}
	ls.labels = map[int]string{}
	for _, l := range s.Labels() {
		if idx, ok := s.IndexOf(l.TargetID); ok && l.Label != "" {
			ls.labels[idx] = SanitizeLine(l.Label)
		}
	}
	ls.active = make([]bool, len(s.Entries))
	if ls.leaf >= 0 {
		for _, i := range s.PathTo(ls.leaf) {
			ls.active[i] = true
		}
	}
	return ls
}

func summarizeEntry(e *pis.Entry) entryRow {
	sum := pis.DescribeEntry(e)
	r := entryRow{
		id:         e.ID,
		clock:      clockOf(e.TimestampMs()),
		kind:       SanitizeLine(sum.Kind),
		text:       SanitizeLine(sum.Text),
		tokens:     sum.Tokens,
		compaction: e.Type == pis.TypeCompaction,
		summary:    e.Type == pis.TypeBranchSummary,
	}
	if r.kind == "" {
		r.kind = "?"
	}
	if e.Type == pis.TypeUsage && r.text == "" {
		if p, err := e.Payload(); err == nil {
			if u, ok := p.(*pis.UsageEntry); ok {
				r.text = SanitizeLine(u.Kind + " · " + u.Provider + "/" + u.Model)
				r.tokens = int(u.Usage.TotalTokens)
			}
		}
	}
	return r
}

func clockOf(ms float64) string {
	if math.IsNaN(ms) || math.IsInf(ms, 0) {
		return "--:--:--"
	}
	return time.UnixMilli(int64(ms)).Local().Format("15:04:05")
}

// displayName is what the header and picker call a session: its name, or
// the id when it has none.
func (ls *loadedSession) displayName() string {
	if ls.name != "" {
		return ls.name
	}
	return ls.sess.Header.ID
}

// branchLeafFrom walks down from entry i to a leaf, preferring the child
// on the active path, else the newest child, so "the branch through i" is
// well defined.
func (ls *loadedSession) branchLeafFrom(i int) int {
	for steps := 0; steps <= len(ls.rows); steps++ {
		kids := ls.tree.Children(i)
		if len(kids) == 0 {
			return i
		}
		next := int(kids[len(kids)-1])
		for _, k := range kids {
			if ls.active[k] {
				next = int(k)
				break
			}
		}
		i = next
	}
	return i
}

// formatTokens renders a token count compactly (950, 12.3k, 1.2M).
func formatTokens(n int) string {
	switch {
	case n <= 0:
		return ""
	case n < 1000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	default:
		return strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64) + "M"
	}
}
