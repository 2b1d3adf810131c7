package sessions

import (
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/components/transcript"
)

// entryRow is what the tree and the timeline show for one entry without
// decoding its body; it is computed once per load and never changes.
type entryRow struct {
	kind string // role for messages, else the entry type
	// branch is true when the entry has more than one child.
	branch bool
	// compaction and summary mark compaction and branch_summary entries.
	compaction, summary bool
}

// summaryCell is the decoded part of a row: the one-line summary and the
// token count. Cells are decoded in commands (the visible rows first,
// then every row in the background) and stored by Update; View only
// reads what the list items carry.
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
	// name is the session's own name ("" when unnamed); title is what it
	// is called everywhere (session.Title).
	name, title string
	// messages counts the message entries of every branch (the picker's
	// "msg" column, exact once the file is read).
	messages int
	// lastActive is the session's last activity as the picker's "when"
	// column shows it (zero when nothing in the file has a time); it
	// follows the file as follow mode re-reads it.
	lastActive time.Time
	// skipped are the lines the reader dropped and why; unnumbered counts
	// more that it did not number; noticed are oddities that dropped
	// nothing (a missing final newline, reused ids, repaired tree links).
	skipped    []session.SkippedLine
	unnumbered int
	noticed    []string
	sess       *session.Session
	tree       *session.Tree
	rows       []entryRow
	// sums is written only by Update, from summariesMsg.
	sums []summaryCell
	// asked marks rows whose summaries a command is decoding.
	asked []bool
	// labels maps entry index → label text.
	labels map[int]string
	// words caches wordText per entry ("" not computed yet).
	words []string
	// leaf is Pi's default leaf (last entry in file order), -1 if empty.
	leaf int
	// active marks the entries on the path root → leaf.
	active []bool
	// notes say what reading skipped (a line above the display limit,
	// malformed lines) or the tree repaired (cycles, duplicate ids).
	notes []string
	// initialTimeline is the timeline of a fresh load at the leaf (the
	// leaf's branch), built by the loading command so that installing a
	// big session costs Update nothing proportional to its size;
	// applyLoaded takes it once and starts treeCmd for the tree view.
	initialTimeline *timeline
}

// buildLoaded precomputes rows, labels and the active path without
// decoding entry bodies, so a 100 MB session is ready in a blink; the
// summaries follow from summaryCmd. It runs inside a command.
func buildLoaded(file string, s *session.Session) *loadedSession {
	ls := &loadedSession{file: file, sess: s, leaf: s.LeafIndex()}
	n := len(s.Entries)
	ls.rows = make([]entryRow, n)
	// The tree and the rows are independent: on a big session (100 MB of
	// small entries is ~180k rows) they are built at the same time, the
	// rows in chunks on every core; the branch marks, which need the
	// tree, follow.
	treeDone := make(chan any, 1)
	go func() {
		// Guarded like session.InParallel's helpers: a fault in a file
		// cut under it is raised again below, on the command's goroutine.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { treeDone <- recover() }()
		ls.tree = s.Tree()
	}()
	ls.messages = forChunks(n, func(lo, hi int) int {
		messages := 0
		for i := lo; i < hi; i++ {
			e := &s.Entries[i]
			if e.Type == session.TypeMessage {
				messages++
			}
			ls.rows[i] = entryRow{
				kind:       transcript.Kind(e),
				compaction: e.Type == session.TypeCompaction,
				summary:    e.Type == session.TypeBranchSummary,
			}
			if i&1023 == 1023 {
				runtime.Gosched() // every core is busy: let a key frame in
			}
		}
		return messages
	})
	ls.sums = make([]summaryCell, n)
	ls.asked = make([]bool, n)
	ls.labels = map[int]string{}
	for _, l := range s.Labels() {
		if idx, ok := s.IndexOf(l.TargetID); ok && l.Label != "" {
			ls.labels[idx] = sanitize.Fold(l.Label)
		}
	}
	ls.active = make([]bool, n)
	if ls.leaf >= 0 {
		for _, i := range s.PathTo(ls.leaf) {
			ls.active[i] = true
		}
	}
	// What applyLoaded does for a fresh load at the leaf, done here: the
	// timeline of the leaf's branch, filled while the tree is still being
	// built (it needs the tree only for its branch-point marks, set once
	// the tree is there). The tree view follows in treeCmd, after the
	// first frame.
	tl := newTimeline()
	tl.setBranch(ls, ls.leaf, ls.leaf)
	if r := <-treeDone; r != nil {
		panic(r)
	}
	for i := range ls.rows {
		ls.rows[i].branch = len(ls.tree.Children(i)) > 1
	}
	tl.markBranchPoints(ls)
	treeNotes := s.TreeNotes(ls.tree)
	ls.notes = append(s.LoadNotes(), treeNotes...)
	if name, ok := s.Name(); ok {
		ls.name = sanitize.Fold(name)
	}
	ls.title = s.Title()
	ls.lastActive = lastActivity(s)
	ls.skipped, ls.unnumbered = s.Diagnostics.SkippedList()
	ls.noticed = append(s.Diagnostics.Notes(), treeNotes...)
	ls.initialTimeline = &tl
	return ls
}

// rowChunkMin is the number of entries from which buildLoaded splits a
// per-entry pass over several goroutines.
const rowChunkMin = 8192

// forChunks runs fn over [0, n) split into one range per core (a single
// call below rowChunkMin entries) and returns the sum of what the calls
// return. The helpers run as session.InParallel's: a fault in a mapped
// file cut under them reaches the command's guard.
func forChunks(n int, fn func(lo, hi int) int) int {
	workers := runtime.GOMAXPROCS(0)
	if n < rowChunkMin || workers < 2 {
		return fn(0, n)
	}
	sums := make([]int, workers)
	chunk := (n + workers - 1) / workers
	session.InParallel(workers, func(w int) {
		if lo, hi := w*chunk, min(n, (w+1)*chunk); lo < hi {
			sums[w] = fn(lo, hi)
		}
	})
	total := 0
	for _, v := range sums {
		total += v
	}
	return total
}

// entryID is entry i's id as the panel shows it (sanitised; folded to
// one line). It is derived when asked for, not stored per entry: a load
// of 180k entries needs none of them for its first frame.
func (ls *loadedSession) entryID(i int) string { return sanitize.Fold(ls.sess.Entries[i].ID) }

// wordText is what the words of the session search match in entry i —
// its kind, id, summary and label, as Pi's /tree search — lower-cased
// once: every keystroke matches every entry again, and building the text
// each time cost an allocation per entry (80 ms a key at 100,000 entries).
func (ls *loadedSession) wordText(i int) string {
	if ls.words == nil {
		ls.words = make([]string, len(ls.rows))
	}
	if ls.words[i] == "" {
		ls.words[i] = strings.ToLower(ls.rows[i].kind + " " + ls.entryID(i) + " " + ls.sums[i].text + " " + ls.labels[i])
	}
	return ls.words[i]
}

// activityWindow is how many of the last user and assistant messages
// lastActivity looks at: discovery reads only the file's tail too.
const activityWindow = 64

// lastActivity is when the session was last active, as discovery's
// LastActivity puts it (Pi's getLastActivityTime: the newest user or
// assistant message's message.timestamp, else its entry timestamp, else
// the header's time), over the last messages of the file so a 100 MB
// session costs a few lookups.
func lastActivity(s *session.Session) time.Time {
	best, seen := math.Inf(-1), 0
	for i := len(s.Entries) - 1; i >= 0 && seen < activityWindow; i-- {
		e := &s.Entries[i]
		if e.Type != session.TypeMessage || (e.Role != session.RoleUser && e.Role != session.RoleAssistant) {
			continue
		}
		seen++
		ms, ok := e.MessageField("timestamp").Number()
		if !ok {
			ms = e.TimestampMs()
		}
		if !math.IsNaN(ms) && !math.IsInf(ms, 0) {
			best = max(best, ms)
		}
	}
	if !math.IsInf(best, -1) {
		return time.UnixMilli(int64(best)).UTC()
	}
	if t, err := time.Parse(time.RFC3339Nano, s.Header.Timestamp); err == nil {
		return t.UTC()
	}
	return time.Time{}
}

// summariesMsg delivers decoded summaries of one load: cells[k] belongs
// to entry idxs[k], or to entry k when idxs is nil (every entry).
type summariesMsg struct {
	ls    *loadedSession
	idxs  []int
	cells []summaryCell
}

// summaryCmd decodes the summaries of the given entries (nil: every
// entry) in a command, on every core (session.DescribeInOrder), so neither
// Update nor View ever decodes JSON. The helpers run with memory faults
// caught: a mapped file cut under them is the command's ErrFileChanged
// (the root's guard reports it), not a crash.
func summaryCmd(ls *loadedSession, idxs []int) tea.Cmd {
	return func() tea.Msg {
		n := len(ls.sess.Entries)
		if idxs != nil {
			n = len(idxs)
		}
		out := make([]summaryCell, n)
		entry := func(k int) *session.Entry {
			if idxs != nil {
				return &ls.sess.Entries[idxs[k]]
			}
			return &ls.sess.Entries[k]
		}
		session.DescribeInOrder(n, entry, func(k int, sum *session.EntrySummary) {
			// The summary's text is folded already (DescribeEntry clips
			// it): kept as it is.
			out[k] = summaryCell{text: sum.Text, tokens: sum.Tokens, ready: true}
			if k&255 == 255 {
				// Each core is busy here for seconds on a big session:
				// yield now and then, so the key handling and the
				// renderer never wait for the scheduler's 10 ms
				// preemption.
				runtime.Gosched()
			}
		})
		return summariesMsg{ls: ls, idxs: idxs, cells: out}
	}
}

// missing lists the entries among idxs whose summaries are neither
// decoded nor asked for, and marks them asked.
func (ls *loadedSession) missing(idxs []int) []int {
	var out []int
	for _, i := range idxs {
		if i >= 0 && i < len(ls.sums) && !ls.sums[i].ready && !ls.asked[i] {
			ls.asked[i] = true
			out = append(out, i)
		}
	}
	return out
}

// applySummaries stores decoded summaries; it reports whether any cell
// changed.
func (ls *loadedSession) applySummaries(msg summariesMsg) bool {
	changed := false
	for k, c := range msg.cells {
		i := k
		if msg.idxs != nil {
			i = msg.idxs[k]
		}
		if i < len(ls.sums) && !ls.sums[i].ready {
			ls.sums[i] = c
			if ls.words != nil {
				ls.words[i] = "" // its summary is part of its words
			}
			changed = true
		}
	}
	return changed
}

// clockMs is an entry time (TimestampMs) as a timeline row keeps it:
// whole Unix milliseconds, and whether there is a time at all.
func clockMs(ms float64) (int64, bool) {
	if math.IsNaN(ms) || math.IsInf(ms, 0) {
		return 0, false
	}
	return int64(ms), true
}

// clockText is HH:MM:SS in local time ("--:--:--" when untimed).
func clockText(ms int64, timed bool) string {
	if !timed {
		return "--:--:--"
	}
	return time.UnixMilli(ms).Local().Format("15:04:05")
}

// skippedCount is how many lines the reader dropped.
func (ls *loadedSession) skippedCount() int { return len(ls.skipped) + ls.unnumbered }

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
