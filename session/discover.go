package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session/internal/scan"
	"github.com/sahilm/fuzzy"
)

// Field status for ListItem.NameStatus and ListItem.FirstMessageStatus.
const (
	// StatusFound: the value was found in the bounded window.
	StatusFound = "found"
	// StatusNone: the whole file was examined and holds no such value.
	StatusNone = "none"
	// StatusNotInWindow: the file is larger than the windows read and the
	// value was not in them; it may exist elsewhere in the file.
	StatusNotInWindow = "not-in-window"
)

// Where a listed file was found (ListItem.Source).
const (
	SourceDefault = "default" // AgentDir/sessions/<encoded cwd>/
	SourceCustom  = "custom"  // Locations.SessionDir
)

// ListItem describes one session file from a bounded read of its header,
// head and tail. Fields that need the whole file say how sure they are.
type ListItem struct {
	Path   string
	Source string
	// ID, Cwd, Created (ISO) and ParentSession come from the header.
	ID            string
	Cwd           string
	Created       string
	ParentSession string
	// LastActivity orders sessions like Pi's "recent" list (spec §1.3): the
	// latest user/assistant message.timestamp in the read windows (the
	// entry timestamp for a message without one), else the header
	// timestamp, else the file's mtime (LastActivityFromMtime).
	LastActivity          time.Time
	LastActivityFromMtime bool
	// Name is the latest session_info name in the tail window (trimmed; ""
	// when none or cleared). NameStatus says whether it was found.
	Name       string
	NameStatus string
	// FirstMessage is the first user message's text from the head window
	// as sanitize.Clip renders it (terminal-safe, one line, truncated).
	FirstMessage       string
	FirstMessageStatus string
	// MessageCount counts message entries; exact only when the windows
	// covered the whole file, else extrapolated from them.
	MessageCount      int
	MessageCountExact bool
	Size              int64
	ModTime           time.Time
	// HasAgentTree is true when a <id>.subagents directory sits next to it.
	HasAgentTree bool
	// Problem is non-empty when the file is not a readable Pi session (the
	// item is still listed with what could be read).
	Problem string
	// Notes are harmless findings (e.g. malformed lines in the windows).
	Notes []string
}

// ListOptions bound the work discovery does per file. Zero values pick defaults.
type ListOptions struct {
	HeadBytes       int // first bytes searched for the first user message (64 KiB)
	TailBytes       int // last bytes searched for name and last activity (64 KiB)
	FirstMessageMax int // runes kept of the first user message (200)
	Workers         int // parallel file readers (GOMAXPROCS)
	// Home expands "~" in a cwd given to ListCwd.
	Home string
}

func (o ListOptions) withDefaults() ListOptions {
	if o.HeadBytes <= 0 {
		o.HeadBytes = 64 << 10
	}
	if o.TailBytes <= 0 {
		o.TailBytes = 64 << 10
	}
	if o.FirstMessageMax <= 0 {
		o.FirstMessageMax = 200
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// candidate is a file to summarize plus what its directory listing told us.
type candidate struct {
	path, source string
	trees        map[string]bool // root ids with a <id>.subagents directory here
	wantCwd      string          // non-empty: keep only if the header cwd equals it
}

// ListCwd lists the sessions of one project: the *.jsonl files of its
// default directory and, when loc has a custom session directory, the files
// there whose header cwd equals cwd (Pi's rule for custom directories).
// A missing directory lists nothing. Newest activity first.
func ListCwd(loc Locations, cwd string, opt ListOptions) ([]ListItem, error) {
	opt = opt.withDefaults()
	cands, err := dirCandidates(loc.DefaultSessionDir(cwd, opt.Home), SourceDefault, "")
	if err != nil {
		return nil, err
	}
	if loc.SessionDir != "" {
		more, err := dirCandidates(loc.SessionDir, SourceCustom, resolveCwd(cwd, opt.Home))
		if err != nil {
			return nil, err
		}
		cands = append(cands, more...)
	}
	return summarizeAll(dedupe(cands), opt), nil
}

// ListAll lists every project's sessions: *.jsonl one level below
// AgentDir/sessions (pi-subagent tree directories excluded) plus every
// *.jsonl of the custom session directory. Newest activity first.
func ListAll(loc Locations, opt ListOptions) ([]ListItem, error) {
	opt = opt.withDefaults()
	cands, err := allCandidates(loc)
	if err != nil {
		return nil, err
	}
	return summarizeAll(cands, opt), nil
}

// isDirPath reports whether path (after symlinks) is a directory.
func isDirPath(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// ListDir lists the *.jsonl session files directly in dir.
func ListDir(dir string, opt ListOptions) ([]ListItem, error) {
	cands, err := dirCandidates(dir, SourceDefault, "")
	if err != nil {
		return nil, err
	}
	return summarizeAll(cands, opt.withDefaults()), nil
}

// dirCandidates lists the *.jsonl regular files of dir and notes which have
// a pi-subagent tree directory next to them. Tree directories are never
// descended into, so their internal session files are not listed.
func dirCandidates(dir, source, wantCwd string) ([]candidate, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("list session dir: %w", err)
	}
	trees := map[string]bool{}
	for _, e := range ents {
		if e.IsDir() && strings.HasSuffix(e.Name(), subagentsSuffix) {
			trees[strings.TrimSuffix(e.Name(), subagentsSuffix)] = true
		}
	}
	out := make([]candidate, 0, len(ents))
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		// A tree is named by the root's header id, so membership is checked
		// after the header has been read.
		out = append(out, candidate{path: filepath.Join(dir, e.Name()), source: source, trees: trees, wantCwd: wantCwd})
	}
	return out, nil
}

func dedupe(cands []candidate) []candidate {
	seen := make(map[string]bool, len(cands))
	out := cands[:0]
	for _, c := range cands {
		if !seen[c.path] {
			seen[c.path] = true
			out = append(out, c)
		}
	}
	return out
}

// summarizeAll summarizes the candidates on a bounded worker pool and sorts
// the result newest activity first (ties: path).
func summarizeAll(cands []candidate, opt ListOptions) []ListItem {
	items := make([]ListItem, len(cands))
	which := make([]int, len(cands))
	for i := range which {
		which[i] = i
	}
	summarizeEach(cands, which, items, make([]bool, len(cands)), opt, time.Time{})
	for i, c := range cands {
		items[i].Source = c.source
		items[i].HasAgentTree = items[i].ID != "" && c.trees[items[i].ID]
	}
	return keepAndSort(cands, items, opt)
}

// keepAndSort drops the items of a shared custom directory that belong
// to another cwd (unreadable files are kept so problems stay visible;
// Pi's sessionCwdMatches: a non-empty header cwd that resolves to the
// same path) and sorts the rest newest activity first.
func keepAndSort(cands []candidate, items []ListItem, opt ListOptions) []ListItem {
	out := items[:0]
	for i, c := range cands {
		it := items[i]
		if c.wantCwd == "" || it.Problem != "" || (it.Cwd != "" && resolveCwd(it.Cwd, opt.Home) == c.wantCwd) {
			out = append(out, it)
		}
	}
	SortByActivity(out)
	return out
}

// SortByActivity orders items newest LastActivity first, then by path.
func SortByActivity(items []ListItem) {
	sort.SliceStable(items, func(a, b int) bool {
		if !items[a].LastActivity.Equal(items[b].LastActivity) {
			return items[a].LastActivity.After(items[b].LastActivity)
		}
		return items[a].Path < items[b].Path
	})
}

// SummarizeFile reads the header, head and tail of one session file. It
// never fails: problems are reported in ListItem.Problem.
func SummarizeFile(path string, opt ListOptions) ListItem {
	opt = opt.withDefaults()
	return summarize(path, make([]byte, opt.HeadBytes+opt.TailBytes), opt)
}

func summarize(path string, buf []byte, opt ListOptions) ListItem {
	it := ListItem{Path: path, NameStatus: StatusNotInWindow, FirstMessageStatus: StatusNotInWindow}
	f, fi, err := openRegular(path)
	if err != nil {
		var nr *NotRegularError
		if errors.As(err, &nr) {
			it.Problem = "not a regular file: " + nr.Kind
		} else {
			it.Problem = fmt.Sprintf("open: %v", err)
		}
		return it
	}
	defer f.Close()
	it.Size, it.ModTime = fi.Size(), fi.ModTime()
	it.LastActivity, it.LastActivityFromMtime = it.ModTime, true
	if it.Size == 0 {
		it.Problem = ErrEmptySession.Error()
		return it
	}
	whole := it.Size <= int64(len(buf))
	headLen := int(min(it.Size, int64(opt.HeadBytes)))
	if whole {
		headLen = int(it.Size)
	}
	head := buf[:headLen]
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		it.Problem = fmt.Sprintf("read: %v", err)
		return it
	}
	var st windowStats
	var sc lineScratch
	hdr, hdrEnd, found, err := firstEntryLine(head, whole, &sc)
	switch {
	case !found:
		// No complete entry line in the head window (a header line longer
		// than the window, or junk before it): use the bounded header scan
		// and skip the head window.
		if hdr, hdrEnd, err = scanHeader(sizedReader(f, fi)); err != nil {
			it.Problem = "first entry is not a session header"
			return it
		}
		it.Notes = append(it.Notes, "header line longer than the head window")
	case err != nil:
		it.Problem = "first entry is not a session header"
		return it
	case whole:
		st.scan(head[min(hdrEnd+1, len(head)):], &sc, true, true)
		if head[len(head)-1] != '\n' {
			it.Notes = append(it.Notes, "last line has no newline (being written or truncated)")
		}
	default:
		// Head: complete lines after the header only.
		if h := head[hdrEnd+1:]; bytes.LastIndexByte(h, '\n') >= 0 {
			st.scan(h[:bytes.LastIndexByte(h, '\n')+1], &sc, true, false)
		}
	}
	it.ID, it.Cwd, it.Created, it.ParentSession = hdr.ID, hdr.Cwd, hdr.Timestamp, hdr.ParentSession
	if !whole {
		// The file is larger than both windows, so the tail starts after
		// the head; its first line is probably partial and is dropped.
		tail := buf[headLen : headLen+opt.TailBytes]
		if _, err := f.ReadAt(tail, it.Size-int64(len(tail))); err != nil && !errors.Is(err, io.EOF) {
			it.Problem = fmt.Sprintf("read tail: %v", err)
			it.detach()
			return it
		}
		if k := bytes.IndexByte(tail, '\n'); k >= 0 {
			st.scan(tail[k+1:], &sc, false, true)
		}
	}
	st.fill(&it, whole, hdrEnd, parseJSDate(hdr.Timestamp), opt)
	it.detach()
	return it
}

// detach copies the strings that may still point into the reused read buffer.
func (it *ListItem) detach() {
	for _, p := range []*string{&it.ID, &it.Cwd, &it.Created, &it.ParentSession, &it.Name, &it.FirstMessage} {
		*p = strings.Clone(*p)
	}
}

// windowStats collects what the head and tail windows show.
type windowStats struct {
	firstUser   *Entry
	firstSeen   bool
	nameSeen    bool
	name        string
	activity    float64 // Pi's getLastActivityTime over the windows
	hasActivity bool
	messages    int
	sampled     int // bytes of complete lines examined for the estimate
	malformed   int
	partialLast bool
}

// scan parses the complete lines of window. head windows look for the first
// user message; tail windows track the name and the last timestamp.
func (st *windowStats) scan(window []byte, sc *lineScratch, head, tail bool) {
	for len(window) > 0 {
		n := bytes.IndexByte(window, '\n')
		line := window
		if n >= 0 {
			line, window = window[:n], window[n+1:]
		} else {
			window = nil
		}
		st.sampled += len(line) + 1
		kind, e := parseLine(line, 0, sc)
		if kind == LineMalformed {
			st.malformed++
			continue
		}
		if kind != LineEntry || e.NotObject {
			continue
		}
		if e.Type == TypeMessage {
			st.messages++
			st.noteActivity(&e, sc)
			if head && !st.firstSeen && e.Role == RoleUser {
				st.firstSeen = true
				cp := e
				cp.Raw = append([]byte(nil), line...)
				st.firstUser = &cp
			}
		}
		if tail {
			if e.Type == TypeSessionInfo {
				name, _ := e.Field("name").Str()
				st.name, st.nameSeen = jsonv.TrimJS(name), true
			}
		}
	}
}

// noteActivity is one step of Pi's getLastActivityTime: user and
// assistant messages that have a content key count with their numeric
// message.timestamp, else with their parsable entry timestamp; the
// maximum (starting from 0) wins.
//
// The message object is scanned once into the reusable scratch, so a
// window of many messages costs no allocation per message.
func (st *windowStats) noteActivity(e *Entry, sc *lineScratch) {
	if e.Role != RoleUser && e.Role != RoleAssistant {
		return
	}
	msg := e.message.in(e.Raw)
	if len(msg) == 0 || msg[0] != '{' {
		return
	}
	members, _, ok := scan.ScanMembers(msg, 0, sc.members[:0])
	sc.members = members[:0]
	if !ok || lookup(members, "content") == nil {
		return
	}
	ms, ok := lookup(members, "timestamp").Number()
	if !ok {
		if ms = e.timestampMs; math.IsNaN(ms) { // new Date(entry.timestamp)
			return
		}
	}
	if math.IsInf(ms, 0) {
		return // new Date(Infinity) is invalid; such a file sorts by its header
	}
	if !st.hasActivity {
		st.activity, st.hasActivity = 0, true
	}
	st.activity = max(st.activity, ms)
}

func (st *windowStats) fill(it *ListItem, whole bool, hdrLen int, hdrMs float64, opt ListOptions) {
	switch {
	case st.hasActivity && st.activity > 0:
		it.LastActivity = time.UnixMilli(int64(st.activity)).UTC()
		it.LastActivityFromMtime = false
	case !math.IsNaN(hdrMs):
		it.LastActivity = time.UnixMilli(int64(hdrMs)).UTC()
		it.LastActivityFromMtime = false
	}
	switch {
	case st.nameSeen:
		it.Name, it.NameStatus = st.name, StatusFound
	case whole:
		it.NameStatus = StatusNone
	}
	switch {
	case st.firstUser != nil:
		it.FirstMessageStatus = StatusFound
		// Decode only the content, not the whole message.
		var content Content
		if err := content.UnmarshalJSON(st.firstUser.MessageField("content")); err == nil {
			it.FirstMessage = sanitize.Clip(content.PlainText(" "), opt.FirstMessageMax)
		}
	case whole:
		it.FirstMessageStatus = StatusNone
	}
	it.MessageCount, it.MessageCountExact = st.messages, whole
	if !whole && st.sampled > 0 {
		body := float64(it.Size - int64(hdrLen) - 1)
		it.MessageCount = int(math.Round(float64(st.messages) * body / float64(st.sampled)))
	}
	if st.malformed > 0 {
		it.Notes = append(it.Notes, fmt.Sprintf("%d malformed line(s) in the read windows", st.malformed))
	}
}

// Search keeps the items whose name, first message or id contains query
// (case-insensitive). When none match literally, it falls back to fuzzy
// matching on "name first-message", best matches first. An empty query
// returns items unchanged.
func Search(items []ListItem, query string) []ListItem {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return items
	}
	var out []ListItem
	for _, it := range items {
		if strings.Contains(strings.ToLower(it.Name), q) ||
			strings.Contains(strings.ToLower(it.FirstMessage), q) ||
			strings.HasPrefix(strings.ToLower(it.ID), q) {
			out = append(out, it)
		}
	}
	if len(out) > 0 {
		return out
	}
	matches := fuzzy.FindFrom(q, searchSource(items))
	for _, m := range matches {
		out = append(out, items[m.Index])
	}
	return out
}

// searchSource adapts items to fuzzy.Source (lower-cased name + first message).
type searchSource []ListItem

// String is the text fuzzy matching sees for item i.
func (s searchSource) String(i int) string {
	return strings.ToLower(s[i].Name + " " + s[i].FirstMessage)
}

// Len is the number of items.
func (s searchSource) Len() int { return len(s) }
