package sessions

import (
	"math"
	"runtime"
	"strconv"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session"
)

// entryRow is what the tree and the timeline show for one entry without
// decoding its body; it is computed once per load and never changes.
type entryRow struct {
	id    string
	clock string // HH:MM:SS in local time ("--:--:--" when unknown)
	kind  string // role for messages, else the entry type
	// branch is true when the entry has more than one child.
	branch bool
	// compaction and summary mark compaction and branch_summary entries.
	compaction, summary bool
}

// summaryCell is the decoded part of a row: the one-line summary and the
// token count. Cells are filled lazily for visible rows on the UI
// goroutine and in bulk by a background command after each load.
type summaryCell struct {
	text   string
	tokens int
	ready  bool
}

// loadedSession is one opened session with its precomputed rows. It is
// built in a command and replaced whole on reload or when follow mode
// appends entries.
type loadedSession struct {
	file string
	name string
	sess *session.Session
	tree *session.Tree
	rows []entryRow
	// sums is owned by the UI goroutine (see summary).
	sums []summaryCell
	// labels maps entry index → label text.
	labels map[int]string
	// leaf is Pi's default leaf (last entry in file order), -1 if empty.
	leaf int
	// active marks the entries on the path root → leaf.
	active []bool
}

// buildLoaded precomputes rows, labels and the active path without
// decoding entry bodies, so a 100 MB session is ready in a blink; the
// summaries follow from fillSummaries. It runs inside a command.
func buildLoaded(file string, s *session.Session) *loadedSession {
	ls := &loadedSession{file: file, sess: s, tree: s.Tree(), leaf: s.LeafIndex()}
	if name, ok := s.Name(); ok {
		ls.name = SanitizeLine(name)
	}
	ls.rows = make([]entryRow, len(s.Entries))
	ls.sums = make([]summaryCell, len(s.Entries))
	for i := range s.Entries {
		e := &s.Entries[i]
		kind := e.Type
		switch {
		case e.NotObject:
			kind = "value"
		case e.Type == session.TypeMessage && e.Role != "":
			kind = e.Role
		}
		if kind == "" {
			kind = "?"
		}
		ls.rows[i] = entryRow{
			id:         SanitizeLine(e.ID),
			clock:      clockOf(e.TimestampMs()),
			kind:       SanitizeLine(kind),
			branch:     len(ls.tree.Children(i)) > 1,
			compaction: e.Type == session.TypeCompaction,
			summary:    e.Type == session.TypeBranchSummary,
		}
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

// summary returns the summary of entry i, decoding it on first use. Only
// the UI goroutine calls it.
func (ls *loadedSession) summary(i int) summaryCell {
	c := &ls.sums[i]
	if !c.ready {
		*c = describe(&ls.sess.Entries[i])
	}
	return *c
}

// describe decodes one entry's summary (safe on any goroutine: it only
// reads the immutable session).
func describe(e *session.Entry) summaryCell {
	sum := session.DescribeEntry(e)
	return summaryCell{text: SanitizeLine(sum.Text), tokens: sum.Tokens, ready: true}
}

// summariesMsg delivers every summary of one load, computed in parallel.
type summariesMsg struct {
	ls   *loadedSession
	sums []summaryCell
}

// fillSummaries decodes all summaries in a command with one worker per
// CPU, so filters and scrolling never wait for JSON decoding.
func fillSummaries(ls *loadedSession) tea.Cmd {
	return func() tea.Msg {
		n := len(ls.sess.Entries)
		out := make([]summaryCell, n)
		workers := max(1, min(runtime.GOMAXPROCS(0), n/64))
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := w; i < n; i += workers {
					out[i] = describe(&ls.sess.Entries[i])
				}
			}(w)
		}
		wg.Wait()
		return summariesMsg{ls: ls, sums: out}
	}
}

// applySummaries merges background summaries into the cells not yet
// filled lazily.
func (ls *loadedSession) applySummaries(sums []summaryCell) {
	for i := range ls.sums {
		if !ls.sums[i].ready && i < len(sums) {
			ls.sums[i] = sums[i]
		}
	}
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
	return SanitizeLine(ls.sess.Header.ID)
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
