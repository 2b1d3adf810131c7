package session

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// ErrCannotFork reports an entry Pi cannot fork from: one without an id,
// a duplicated id whose last copy is another entry, or a path that loops
// (Pi's walk from it would never end). Every ForkError matches it.
var ErrCannotFork = errors.New("Pi cannot fork from this entry")

// ForkError says why an entry cannot be forked from.
type ForkError struct {
	// Line is the file line of the entry asked for.
	Line int
	// Reason is the explanation, a sentence fragment.
	Reason string
}

// Error names the entry's line and the reason.
func (e *ForkError) Error() string {
	return fmt.Sprintf("Pi cannot fork from the entry on line %d: %s", e.Line, e.Reason)
}

// Is makes every ForkError match ErrCannotFork.
func (e *ForkError) Is(target error) bool { return target == ErrCannotFork }

// ForkOptions tunes PlanFork; the zero value is what Pi does.
type ForkOptions struct {
	// Now is the fork's creation time (zero: time.Now).
	Now time.Time
	// Cwd stands in for Pi's process directory: the project of a source
	// whose header has no cwd (Pi resolves it against where it runs).
	// Empty: the current directory.
	Cwd string
	// NewSessionID makes the new session id (nil: a UUIDv7 of Now, as
	// Pi's createSessionId); tests pass a fixed one.
	NewSessionID func(now time.Time) string
	// NewEntryID makes the id of a re-written label entry (nil: eight
	// random hex digits, Pi's generateId); the result is retried while it
	// collides, as Pi does.
	NewEntryID func() string
}

// ForkedEntry is one entry of a planned fork, in the order it is written.
type ForkedEntry struct {
	// Type is the entry type.
	Type string
	// ID is the entry's id (a new one for a re-written label).
	ID string
	// ParentID is its parent in the fork ("" for the root).
	ParentID string
	// SourceLine is the entry's line in the source file (for a re-written
	// label, the line of the label entry that set the label).
	SourceLine int
	// Relabel marks a label entry re-written after the path.
	Relabel bool
	// Rechained marks a path entry whose parent changed (a label between
	// it and its parent was left out).
	Rechained bool
}

// Fork is the session file Pi 1.6.0's createBranchedSession(leaf) would
// write for a source session: planned by PlanFork, written by the caller
// (exclusive create of File with Data). It holds no reference to the
// source session.
type Fork struct {
	// Source is the absolute path of the source file (the header's
	// parentSession).
	Source string
	// File is the path of the new file: <timestamp>_<id>.jsonl in the
	// source's directory.
	File string
	// SessionID is the new session's id.
	SessionID string
	// Timestamp is the header timestamp (ISO, milliseconds).
	Timestamp string
	// Cwd is the header cwd, resolved as Pi resolves the source's.
	Cwd string
	// LeafID is the id of the entry forked from.
	LeafID string
	// LeafLine is its line in the source.
	LeafLine int
	// LeafType is its type (a label is not on the new path: Pi re-writes
	// the labels after it).
	LeafType string
	// Entries lists what follows the header, in file order.
	Entries []ForkedEntry
	// LastMessage describes the last message entry of the path (Kind ""
	// when the path holds none).
	LastMessage EntrySummary
	// Conversation reports whether the path holds a user or assistant
	// message. Pi writes a fork without one only once the first message is
	// appended; forgebench writes it at once so that Pi can open it.
	Conversation bool
	// Data is the whole file: the header and every entry, one
	// JSON.stringify line each.
	Data []byte
}

// Command is the shell command that continues the fork in Pi.
func (f *Fork) Command() string { return "pi --session " + ShellQuote(f.File) }

// PlanFork builds the fork of s at the entry with index leaf exactly as Pi
// 1.6.0's createBranchedSession does (spec §6): the root→leaf path with
// label entries left out and the rest re-chained, a compaction's
// firstKeptEntryId moved from a left-out label to the entry that took its
// place, then the resolved labels of the path's entries re-written after
// it (new ids, their own timestamps), under a v3 header with a new
// session id and parentSession naming the source. s must have been read
// with every line Pi accepts (Open, not OpenForDisplay) and have a Path.
func PlanFork(s *Session, leaf int, opt ForkOptions) (*Fork, error) {
	if leaf < 0 || leaf >= len(s.Entries) {
		return nil, fmt.Errorf("%w: the session has no entry %d", ErrCannotFork, leaf)
	}
	if s.Path == "" {
		return nil, errors.New("fork: the session has no file")
	}
	path, err := forkPath(s, leaf)
	if err != nil {
		return nil, err
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	source, err := filepath.Abs(s.Path)
	if err != nil {
		return nil, fmt.Errorf("fork: resolve %s: %w", s.Path, err)
	}
	fallback := opt.Cwd
	if fallback == "" {
		if fallback, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("fork: current directory: %w", err)
		}
	}
	newID := opt.NewSessionID
	if newID == nil {
		newID = NewSessionID
	}
	f := &Fork{
		Source:    source,
		SessionID: newID(now),
		Timestamp: FormatTimestamp(now),
		Cwd:       PiResolvePath(s.Header.Cwd, fallback),
		LeafID:    s.Entries[leaf].ID,
		LeafLine:  s.Entries[leaf].Line,
		LeafType:  s.Entries[leaf].Type,
	}
	fileStamp := strings.NewReplacer(":", "-", ".", "-").Replace(f.Timestamp)
	f.File = filepath.Join(filepath.Dir(source), fileStamp+"_"+f.SessionID+".jsonl")

	header := jsonv.NewObject()
	header.Set("type", TypeSession)
	header.Set("version", float64(CurrentVersion))
	header.Set("id", f.SessionID)
	header.Set("timestamp", f.Timestamp)
	header.Set("cwd", f.Cwd)
	header.Set("parentSession", f.Source)
	data := append(jsonv.AppendStringify(nil, header), '\n')

	kept := make(map[string]bool, len(path))
	replacement := map[string]string{} // left-out label id → the entry after it
	var pending []string
	parent := ""
	for _, i := range path {
		e := &s.Entries[i]
		if e.Type == TypeLabel {
			pending = append(pending, e.ID)
			continue
		}
		for _, id := range pending {
			replacement[id] = e.ID
		}
		pending = pending[:0]
		v, err := e.Value()
		if err != nil {
			return nil, fmt.Errorf("fork: %w", err)
		}
		obj, ok := v.(*jsonv.Object)
		if !ok {
			return nil, &ForkError{Line: e.Line, Reason: "its path holds a line that is not an object"}
		}
		if parent == "" {
			obj.Set("parentId", nil)
		} else {
			obj.Set("parentId", parent)
		}
		if e.Type == TypeCompaction {
			remapFirstKept(obj, e.ID, replacement)
		}
		data = append(jsonv.AppendStringify(data, obj), '\n')
		f.Entries = append(f.Entries, ForkedEntry{
			Type: e.Type, ID: e.ID, ParentID: parent, SourceLine: e.Line,
			Rechained: parent != e.ParentID,
		})
		kept[e.ID] = true
		parent = e.ID
		if e.Type == TypeMessage {
			f.LastMessage = DescribeEntry(e)
			if e.Role == RoleUser || e.Role == RoleAssistant {
				f.Conversation = true
			}
		}
	}

	labels, err := pathLabels(s, kept)
	if err != nil {
		return nil, err
	}
	nextID := opt.NewEntryID
	if nextID == nil {
		nextID = randomEntryID
	}
	for _, l := range labels {
		id := uniqueID(nextID, kept)
		kept[id] = true
		obj := jsonv.NewObject()
		obj.Set("type", TypeLabel)
		obj.Set("id", id)
		if parent == "" {
			obj.Set("parentId", nil)
		} else {
			obj.Set("parentId", parent)
		}
		if l.stamped {
			obj.Set("timestamp", l.timestamp)
		}
		obj.Set("targetId", l.target)
		obj.Set("label", l.label)
		data = append(jsonv.AppendStringify(data, obj), '\n')
		f.Entries = append(f.Entries, ForkedEntry{Type: TypeLabel, ID: id, ParentID: parent, SourceLine: l.line, Relabel: true})
		parent = id
	}
	if s.Truncated() {
		return nil, fmt.Errorf("fork: %s was cut while it was read; read it again", s.Path)
	}
	f.Data = data
	return f, nil
}

// remapFirstKept applies Pi's rule to a compaction on the path: a
// firstKeptEntryId naming a left-out label names the entry that followed
// the label instead (one naming the compaction itself stays).
func remapFirstKept(obj *jsonv.Object, id string, replacement map[string]string) {
	v, ok := obj.Get("firstKeptEntryId")
	if !ok {
		return
	}
	fk, ok := v.(string)
	if !ok || fk == id {
		return
	}
	if to, ok := replacement[fk]; ok {
		obj.Set("firstKeptEntryId", to)
	}
}

// forkPath returns the root→leaf path Pi's getBranch(leaf) walks, or why
// Pi cannot fork from leaf.
func forkPath(s *Session, leaf int) ([]int, error) {
	e := &s.Entries[leaf]
	switch {
	case e.NotObject || !e.HasID || e.ID == "":
		return nil, &ForkError{Line: e.Line, Reason: "it has no id, so Pi cannot name it"}
	case s.byID[e.ID] != leaf:
		return nil, &ForkError{Line: e.Line, Reason: fmt.Sprintf("its id %s is used again on line %d, and Pi forks from that last copy", e.ID, s.Entries[s.byID[e.ID]].Line)}
	}
	seen := make(map[int]bool)
	var path []int
	for cur := leaf; cur >= 0; cur = int(s.up[cur]) {
		if seen[cur] {
			return nil, &ForkError{Line: e.Line, Reason: fmt.Sprintf("its parent chain loops back to the entry on line %d (a broken tree: Pi's walk would never end)", s.Entries[cur].Line)}
		}
		seen[cur] = true
		path = append(path, cur)
	}
	root := &s.Entries[path[len(path)-1]]
	if p := root.Field("parentId"); !root.HasParent && p.Truthy() {
		return nil, &ForkError{Line: e.Line, Reason: fmt.Sprintf("the entry on line %d of its path has a parentId that is not a string (a broken tree)", root.Line)}
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, nil
}

// forkLabel is a resolved label with its raw values, as Pi's labelsById
// and labelTimestampsById hold them.
type forkLabel struct {
	target    string
	label     any
	timestamp any
	// stamped is false when the label entry had no timestamp (Pi's
	// undefined, which JSON.stringify leaves out).
	stamped bool
	line    int
	order   int
}

// pathLabels resolves the labels of the session like Pi's _buildIndex
// (file order; a truthy label sets, anything else deletes; a set keeps a
// key's place in the Map, a delete and set moves it to the end) and
// returns those whose target is in kept, in Map order.
func pathLabels(s *Session, kept map[string]bool) ([]forkLabel, error) {
	byTarget := map[string]*forkLabel{}
	order := 0
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type != TypeLabel || e.NotObject {
			continue
		}
		target, ok := e.Field("targetId").Str()
		if !ok {
			continue // a non-string target never names a path entry
		}
		raw := e.Field("label")
		if !raw.Truthy() {
			delete(byTarget, target)
			continue
		}
		label, _, err := raw.Decode()
		if err != nil {
			return nil, fmt.Errorf("fork: label on line %d: %w", e.Line, err)
		}
		ts, stamped, err := e.Field("timestamp").Decode()
		if err != nil {
			return nil, fmt.Errorf("fork: label on line %d: %w", e.Line, err)
		}
		if l, ok := byTarget[target]; ok {
			l.label, l.timestamp, l.stamped, l.line = label, ts, stamped, e.Line
			continue
		}
		byTarget[target] = &forkLabel{target: target, label: label, timestamp: ts, stamped: stamped, line: e.Line, order: order}
		order++
	}
	var out []forkLabel
	for _, l := range byTarget {
		if kept[l.target] {
			out = append(out, *l)
		}
	}
	sortLabels(out)
	return out, nil
}

func sortLabels(ls []forkLabel) {
	slices.SortFunc(ls, func(a, b forkLabel) int { return a.order - b.order })
}

// PiResolvePath resolves a header cwd as Pi's resolvePath does: "~" and
// "~/…" under the home directory, a file:// URL to its path, a relative
// path against base (Pi's process directory), the result cleaned. Symbolic
// links are not followed.
func PiResolvePath(p, base string) string {
	if home, err := os.UserHomeDir(); err == nil {
		switch {
		case p == "~":
			p = home
		case strings.HasPrefix(p, "~/"):
			p = filepath.Join(home, p[2:])
		}
	}
	if strings.HasPrefix(p, "file://") {
		if u, err := url.Parse(p); err == nil && u.Path != "" {
			p = u.Path
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// ShellQuote returns p as one word for a POSIX shell: as it is when it
// holds only characters no shell treats specially, else in single quotes.
func ShellQuote(p string) string {
	if p != "" && strings.IndexFunc(p, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r))
	}) < 0 {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
