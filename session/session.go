package session

import (
	"fmt"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Session is a loaded Pi session: the header, every entry in file order and
// an index by id. It is immutable after loading and safe for concurrent
// readers.
type Session struct {
	// Path is the file the session was read from ("" for Read).
	Path string
	// Header is the session header (after in-memory migration the effective
	// version is CurrentVersion; Header.FileVersion keeps the stored one).
	Header Header
	// Entries holds every entry in file order (the header excluded).
	Entries []Entry
	// Diagnostics describes skipped lines and other tolerated problems.
	Diagnostics Diagnostics
	// Migrated is true when the file was v1 or v2 and was migrated in memory.
	Migrated bool
	// Size is the number of bytes read.
	Size int64

	byID   map[string]int // id → index into Entries (last duplicate wins)
	parent []int32        // index of the entry parentId names, -1 if none
	up     []int32        // parent as PathTo follows it (-1 also for parentId "")
	labels []Label        // resolved labels in Map insertion order
	// labelAt maps a labelled target id to its position in labels, so
	// LabelOf is one lookup (a tree or an export asks for every entry).
	labelAt map[string]int
	dups    []DuplicateID // ids used by several entries (nil when none)
	name    string
	named   bool
	// mapping is the mapped file the entries lie in (nil when read).
	mapping *mapping
}

// Truncated reports whether the file of a mapped session was found
// shorter than what was read (by the file watch, or a fault caught while
// reading it): the bytes past its new end, and every entry, id or text
// that lay there, now read as zeros. Re-read the file. A session that was
// read rather than mapped keeps its bytes and reports false. It does no
// IO, so a view may ask.
func (s *Session) Truncated() bool { return s.mapping.wasCut() }

// Label is the resolved label of one entry (the last label entry for the
// target in file order wins; an empty label clears it).
type Label struct {
	TargetID string
	Label    string
	// Timestamp is the timestamp of the label entry that set it.
	Timestamp string
}

// assembler receives decoded batches in file order and builds the Session.
type assembler struct {
	s         *Session
	sizeHint  int64 // expected file size, for sizing Entries (0 = unknown)
	haveFirst bool
	notPi     bool
	diag      Diagnostics
	// fileIndex maps Pi's FileEntry index (header = 0) to an entry index
	// (-1 for extra "session" lines); only kept for v1 files, whose
	// compactions address entries by that index.
	fileIndex []int32
	needIndex bool
	// bytesSeen and entriesSeen drive the one-time sizing of Entries.
	bytesSeen   int64
	entriesSeen int
	sized       bool
	// indexed is how many entries the id index, labels and name already
	// cover (indexEntries): once Entries is sized, a file whose ids need
	// no migration is indexed batch by batch while later batches are
	// still being decoded, instead of in one pass after the last.
	indexed int
}

// presizeAfterBytes is how much entry data is seen before Entries is sized.
const presizeAfterBytes = 1 << 20

func newAssembler(sizeHint int64) *assembler {
	return &assembler{s: &Session{}, sizeHint: sizeHint}
}

func (a *assembler) add(res batchResult) {
	a.diag.BlankLines += len(res.blank)
	a.diag.FalsyLines += len(res.falsy)
	a.diag.MalformedLines += len(res.malformed)
	a.diag.BlankLineNumbers = appendFirst(a.diag.BlankLineNumbers, res.blank)
	a.diag.FalsyLineNumbers = appendFirst(a.diag.FalsyLineNumbers, res.falsy)
	a.diag.MalformedLineNumbers = appendFirst(a.diag.MalformedLineNumbers, res.malformed)
	a.bytesSeen += int64(res.bytes)
	a.entriesSeen += len(res.entries)
	if !a.sized && a.sizeHint > 0 && (a.bytesSeen >= presizeAfterBytes || a.bytesSeen >= a.sizeHint) {
		// Size Entries once for the whole file from the first megabyte's
		// average entry length, instead of growing it step by step.
		a.sized = true
		est := int(float64(a.sizeHint)/float64(a.bytesSeen)*float64(a.entriesSeen)*1.04) + 16
		if est > cap(a.s.Entries) {
			grown := make([]Entry, len(a.s.Entries), est)
			copy(grown, a.s.Entries)
			a.s.Entries = grown
		}
	}
	for k := range res.entries {
		e := &res.entries[k]
		if !a.haveFirst {
			a.haveFirst = true
			if e.NotObject || e.Type != TypeSession || !e.HasID {
				a.notPi = true
				continue
			}
			a.s.Header = HeaderOf(e)
			a.needIndex = a.s.Header.FileVersion < 2
			if a.needIndex {
				a.fileIndex = append(a.fileIndex, -1)
			}
			continue
		}
		if a.notPi {
			return
		}
		if e.Type == TypeSession && !e.NotObject {
			a.diag.ExtraHeaders++
			if a.needIndex {
				a.fileIndex = append(a.fileIndex, -1)
			}
			continue
		}
		if a.needIndex {
			a.fileIndex = append(a.fileIndex, int32(len(a.s.Entries)))
		}
		if len(a.s.Entries) == cap(a.s.Entries) && a.sized {
			a.grow()
		}
		a.s.Entries = append(a.s.Entries, *e)
	}
	if a.sized && !a.needIndex && a.haveFirst && !a.notPi {
		// v2 and v3 ids are final as read (migration to v3 renames a
		// role only), so indexing in file order now gives the index one
		// pass at the end would.
		a.indexEntries()
	}
}

// indexEntries extends the id index, the resolved labels and the session
// name over the entries added since the last call, in file order.
func (a *assembler) indexEntries() {
	s := a.s
	if s.byID == nil {
		s.byID = make(map[string]int, cap(s.Entries))
		s.labelAt = map[string]int{}
	}
	for i := a.indexed; i < len(s.Entries); i++ {
		e := &s.Entries[i]
		if e.HasID {
			n := len(s.byID)
			s.byID[e.ID] = i
			if len(s.byID) == n {
				s.Diagnostics.DuplicateIDs++
			}
		}
		switch e.Type {
		case TypeLabel:
			s.applyLabel(e)
		case TypeSessionInfo:
			name, _ := e.Field("name").Str()
			name = jsonv.TrimJS(name)
			s.name, s.named = name, name != ""
		}
	}
	a.indexed = len(s.Entries)
}

// grow makes room when the first estimate of the entry count fell short:
// a new estimate from the bytes seen so far (with a sixteenth to spare)
// instead of append's doubling, which would hold up to twice the entries.
func (a *assembler) grow() {
	n := len(a.s.Entries)
	est := n + n/16 + 16
	if a.bytesSeen > 0 && a.sizeHint > a.bytesSeen {
		est = max(est, int(float64(a.sizeHint)/float64(a.bytesSeen)*float64(a.entriesSeen)*1.0625)+16)
	}
	grown := make([]Entry, n, est)
	copy(grown, a.s.Entries)
	a.s.Entries = grown
}

// numberedLinesMax bounds each list of skipped line numbers.
const numberedLinesMax = 100

// appendFirst appends line numbers to list while it holds fewer than
// numberedLinesMax.
func appendFirst(list, more []int) []int {
	if room := numberedLinesMax - len(list); room > 0 {
		list = append(list, more[:min(room, len(more))]...)
	}
	return list
}

// HeaderOf reads the header fields of a session line the reader has parsed
// (its type is "session"): id, timestamp, cwd, parentSession and the
// format version (1 when absent). Raw is the entry's own line.
func HeaderOf(e *Entry) Header {
	h := Header{Line: e.Line, ID: e.ID, Timestamp: e.Timestamp, Raw: e.Raw}
	h.Cwd, _ = e.Field("cwd").Str()
	h.ParentSession, _ = e.Field("parentSession").Str()
	if v := e.Field("version"); !v.Nullish() {
		h.FileVersion = jsToNumber(v)
	} else {
		h.FileVersion = 1
	}
	return h
}

func (a *assembler) finish(size int64) (*Session, error) {
	s := a.s
	dups := s.Diagnostics.DuplicateIDs // counted by indexEntries so far
	s.Diagnostics = a.diag
	s.Diagnostics.DuplicateIDs = dups
	s.Size = size
	if a.notPi || !a.haveFirst {
		if size == 0 {
			return nil, ErrEmptySession
		}
		return nil, ErrNotSession
	}
	s.Migrated = migrate(s, a.fileIndex)
	// What the batches did not cover: all of a small file, and all of a
	// v1 file, whose ids exist only now (add never indexes those).
	a.indexEntries()
	s.resolveParents()
	return s, nil
}

// resolveParents resolves every entry's parentId to an index once the id
// index is complete (a parentId may name an entry later in the file, and
// the last of duplicate ids wins), and collects duplicate ids.
func (s *Session) resolveParents() {
	if s.Diagnostics.DuplicateIDs > 0 {
		s.collectDuplicates()
	}
	// Resolve every parentId once; paths and the tree then need no lookups.
	s.parent = make([]int32, len(s.Entries))
	s.up = make([]int32, len(s.Entries))
	unique := s.Diagnostics.DuplicateIDs == 0
	for i := range s.Entries {
		e := &s.Entries[i]
		s.parent[i], s.up[i] = -1, -1
		if e.HasParent {
			// Most entries continue the one before them; with unique ids
			// that entry is the one the index would name.
			if unique && i > 0 && s.Entries[i-1].HasID && s.Entries[i-1].ID == e.ParentID {
				s.parent[i] = int32(i - 1)
				if e.ParentID != "" {
					s.up[i] = int32(i - 1)
				}
			} else if p, ok := s.byID[e.ParentID]; ok {
				s.parent[i] = int32(p)
				if e.ParentID != "" {
					s.up[i] = int32(p)
				}
			}
		}
	}
}

func (s *Session) applyLabel(e *Entry) {
	labelPos := s.labelAt
	target, ok := e.Field("targetId").Str()
	if !ok {
		return
	}
	raw := e.Field("label")
	if pos, had := labelPos[target]; had {
		// Map.delete then Map.set moves a key to the end; Map.set on an
		// existing key keeps its position.
		if !raw.Truthy() {
			s.labels = append(s.labels[:pos], s.labels[pos+1:]...)
			delete(labelPos, target)
			for k := pos; k < len(s.labels); k++ {
				labelPos[s.labels[k].TargetID] = k
			}
			return
		}
		s.labels[pos].Label = labelText(raw)
		s.labels[pos].Timestamp = e.Timestamp
		return
	}
	if raw.Truthy() {
		labelPos[target] = len(s.labels)
		s.labels = append(s.labels, Label{TargetID: target, Label: labelText(raw), Timestamp: e.Timestamp})
	}
}

// labelText renders a truthy label value as text (labels are strings in
// practice; other values are shown as String(v)).
func labelText(raw RawValue) string {
	if s, ok := raw.Str(); ok {
		return s
	}
	v, _, err := raw.Decode()
	if err != nil {
		return string(raw)
	}
	return jsonv.ToString(v)
}

// DuplicateID is an entry id used by more than one entry. Pi keeps the last
// one in its id map, so parent links and a leaf given by id resolve to it.
type DuplicateID struct {
	ID string
	// Lines are the file lines of the entries carrying the id, in order.
	Lines []int
}

// DuplicateIDs lists the ids used by more than one entry, in the order of
// their first use (nil when every id is unique).
func (s *Session) DuplicateIDs() []DuplicateID { return s.dups }

// collectDuplicates fills s.dups; it is a second pass over the entries that
// only files with duplicates pay for.
func (s *Session) collectDuplicates() {
	count := make(map[string]int, len(s.byID))
	for i := range s.Entries {
		if e := &s.Entries[i]; e.HasID {
			count[e.ID]++
		}
	}
	pos := map[string]int{}
	for i := range s.Entries {
		e := &s.Entries[i]
		if !e.HasID || count[e.ID] < 2 {
			continue
		}
		k, seen := pos[e.ID]
		if !seen {
			k = len(s.dups)
			pos[e.ID] = k
			s.dups = append(s.dups, DuplicateID{ID: e.ID})
		}
		s.dups[k].Lines = append(s.dups[k].Lines, e.Line)
	}
}

// Entry returns the entry with the given id (the last one if duplicated).
func (s *Session) Entry(id string) (*Entry, bool) {
	i, ok := s.byID[id]
	if !ok {
		return nil, false
	}
	return &s.Entries[i], true
}

// IndexOf returns the position of the entry with the given id in Entries.
func (s *Session) IndexOf(id string) (int, bool) {
	i, ok := s.byID[id]
	return i, ok
}

// Labels returns the resolved labels in Pi's map order.
func (s *Session) Labels() []Label { return append([]Label(nil), s.labels...) }

// LabelOf returns the resolved label of an entry.
func (s *Session) LabelOf(id string) (string, bool) {
	if k, ok := s.labelAt[id]; ok {
		return s.labels[k].Label, true
	}
	return "", false
}

// Name returns the session name from the last session_info entry in file
// order (trimmed; an empty name clears it).
func (s *Session) Name() (string, bool) { return s.name, s.named }

// LeafIndex returns the index of the default leaf: the last entry in file
// order, or -1 when the session has no entries.
func (s *Session) LeafIndex() int { return len(s.Entries) - 1 }

// ParentIndex returns the index of the entry the parentId of the entry at
// index names, or -1 when there is none (no parentId, an unknown id, an
// index out of range).
func (s *Session) ParentIndex(index int) int {
	if index < 0 || index >= len(s.parent) {
		return -1
	}
	return int(s.parent[index])
}

// Leaf returns the default leaf entry (the last entry in file order).
func (s *Session) Leaf() (*Entry, bool) {
	if len(s.Entries) == 0 {
		return nil, false
	}
	return &s.Entries[len(s.Entries)-1], true
}

// ParentSession returns the header's parentSession (fork lineage).
func (s *Session) ParentSession() (string, bool) {
	return s.Header.ParentSession, s.Header.ParentSession != ""
}

// String describes the session briefly (for logs and errors).
func (s *Session) String() string {
	return fmt.Sprintf("session %s (%d entries)", s.Header.ID, len(s.Entries))
}
