package stats

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// A Digest is what dashboards need from a session file, read in one pass
// with a reused buffer and without keeping the file: per entry its tree
// links, type, role, timestamp, where its line is, and what it adds to the
// statistics. Large tool results, user messages and system prompts are
// framed but not decoded: their content is never needed for the numbers.
//
// The numbers equal SessionStats over the same entries. The one place a
// digest is less strict than Pi's loader (JSON.parse of each line; a line
// that fails is dropped) is a message line of role user, toolResult,
// bashExecution, system, branchSummary or compactionSummary with no usage
// or nestedCalls member. Such a line is framed, not validated: every key of
// the entry and of its message is read exactly, type, id, parentId and
// timestamp must be valid JSON scalars, message.role a valid string, and
// the braces of the entry and of its message must close at the end of the
// line; every other value is skipped by its quotes and bracket depth only.
// So a bad escape or a raw control character in a string, a malformed
// number or literal, a mismatched bracket or a missing comma inside such a
// value leaves the line counted where Pi would drop it (and cut the branch
// of any entry below it). JSON.stringify, Pi's writer, never produces such
// a line; validating every byte of those values would triple the time to
// list a large agent tree (TestDigestFramedLines pins the rule). Assistant
// messages, custom entries, usage, compactions and every other line go
// through the full validating parser. Files older than format version 3
// are read with Open (their ids come from migration).
type Digest struct {
	Path    string
	Size    int64
	ModTime time.Time
	// Header is the session header (Raw is a private copy).
	Header session.Header
	// Entries holds every entry in file order (the header excluded).
	Entries []DigestEntry
	// Diagnostics counts skipped lines like the full reader does
	// (DuplicateIDs included).
	Diagnostics session.Diagnostics

	byID map[string]int
}

// DigestEntry is one entry of a Digest.
type DigestEntry struct {
	// Line is the 1-based line number; Offset and Length locate the line's
	// bytes in the file (without the newline) for ReadLine.
	Line   int
	Offset int64
	Length int
	Type   string
	// Role is message.role for message entries.
	Role string
	// CustomType is set for custom and custom_message entries and for
	// messages with role custom.
	CustomType string
	ID         string
	HasID      bool
	ParentID   string
	HasParent  bool
	// TimestampMs is new Date(timestamp).getTime() (NaN when invalid).
	TimestampMs float64
	// NestedCalls counts toolResult.nestedCalls.calls.
	NestedCalls int
	// Assistant messages: the selected provider and model, the model the
	// provider reported (responseModel), the stop reason and the recorded
	// thinking level (thinkingLevel, else providerThinkingLevel).
	Provider, Model, ResponseModel, StopReason, ThinkingLevel string

	rec statRecord
}

// ToolCalls is the number of toolCall blocks of an assistant message.
func (e *DigestEntry) ToolCalls() int { return e.rec.toolCalls }

// Usage returns the usage the entry carries (assistant, toolResult,
// usage, compaction and branch_summary entries) and whether it has one.
func (e *DigestEntry) Usage() (catalog.Usage, bool) { return e.rec.usage, e.rec.hasUsage }

// DigestOptions tune ReadDigest. The zero value is ready to use.
type DigestOptions struct {
	// MaxLineBytes skips longer lines unread (default DisplayMaxLineBytes:
	// a digest feeds dashboards, where a runaway tool output is not worth
	// holding; the skipped lines are in Diagnostics.OversizedLines).
	MaxLineBytes int
	// BufferBytes is the read buffer (default 1 MiB).
	BufferBytes int
}

// ReadDigest digests the session file at path.
func ReadDigest(path string, opt DigestOptions) (*Digest, error) {
	if opt.MaxLineBytes <= 0 {
		opt.MaxLineBytes = session.DisplayMaxLineBytes
	}
	if opt.BufferBytes <= 0 {
		opt.BufferBytes = 1 << 20
	}
	f, info, err := regfile.Open(path) // a FIFO or device is refused, never read
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	d := &Digest{Path: path, ModTime: info.ModTime()}
	dg := digester{d: d, opt: opt, size: info.Size()}
	r := getDigestReader(io.NewSectionReader(f, 0, info.Size()), opt.BufferBytes)
	err = dg.run(r)
	putDigestReader(r, opt.BufferBytes)
	if err != nil {
		if errors.Is(err, errOldFormat) {
			return digestByOpening(path, info)
		}
		return nil, fmt.Errorf("read session %s: %w", path, err)
	}
	if !dg.haveHeader {
		if d.Size == 0 {
			return nil, fmt.Errorf("read session %s: %w", path, session.ErrEmptySession)
		}
		return nil, fmt.Errorf("read session %s: %w", path, session.ErrNotSession)
	}
	d.buildIndex()
	return d, nil
}

// digestReaders recycles the default-sized read buffers: digesting a
// thousand agent sessions would otherwise allocate a megabyte each.
var digestReaders sync.Pool

func getDigestReader(f io.Reader, size int) *bufio.Reader {
	if size == 1<<20 {
		if r, ok := digestReaders.Get().(*bufio.Reader); ok {
			r.Reset(f)
			return r
		}
	}
	return bufio.NewReaderSize(f, size)
}

func putDigestReader(r *bufio.Reader, size int) {
	if size == 1<<20 {
		r.Reset(nil)
		digestReaders.Put(r)
	}
}

// errOldFormat stops a digest of a v1/v2 file, which needs migration.
var errOldFormat = errors.New("session format older than v3")

type digester struct {
	d          *Digest
	opt        DigestOptions
	size       int64 // the file's size at open, for sizing Entries (0: unknown)
	haveHeader bool
	lines      session.LineParser
	carry      []byte
}

func (dg *digester) run(r *bufio.Reader) error {
	var offset int64
	no := 0
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: collect it, or skip it unread
			// past the limit.
			dg.carry = append(dg.carry[:0], line...)
			oversized := false
			lineBytes := int64(len(line))
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				lineBytes += int64(len(line))
				if !oversized && len(dg.carry)+len(line) > dg.opt.MaxLineBytes+1 {
					oversized = true
					dg.carry = dg.carry[:0]
				}
				if oversized {
					dg.d.Size += int64(len(line))
					offset += int64(len(line))
					continue
				}
				dg.carry = append(dg.carry, line...)
			}
			if oversized {
				no++
				dg.d.Diagnostics.Lines++
				dg.d.Diagnostics.OversizedLines = append(dg.d.Diagnostics.OversizedLines, no)
				if lineBytes > 0 && err == nil {
					lineBytes-- // the newline
				}
				dg.d.Diagnostics.OversizedLineBytes = append(dg.d.Diagnostics.OversizedLineBytes, lineBytes)
				if err == io.EOF {
					dg.d.Diagnostics.MissingFinalNewline = true
					return nil
				}
				if err != nil {
					return fmt.Errorf("read: %w", err)
				}
				continue
			}
			line = dg.carry
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("read: %w", err)
		}
		if len(line) == 0 && err == io.EOF {
			return nil
		}
		no++
		dg.d.Diagnostics.Lines++
		dg.d.Size += int64(len(line))
		data := line
		if n := len(data); n > 0 && data[n-1] == '\n' {
			data = data[:n-1]
		} else {
			dg.d.Diagnostics.MissingFinalNewline = true
		}
		if len(data) > dg.opt.MaxLineBytes {
			dg.d.Diagnostics.OversizedLines = append(dg.d.Diagnostics.OversizedLines, no)
			dg.d.Diagnostics.OversizedLineBytes = append(dg.d.Diagnostics.OversizedLineBytes, int64(len(data)))
		} else if perr := dg.line(data, no, offset); perr != nil {
			return perr
		}
		offset += int64(len(line))
		if err == io.EOF {
			return nil
		}
	}
}

// line digests one physical line.
func (dg *digester) line(data []byte, no int, offset int64) error {
	diag := &dg.d.Diagnostics
	if dg.haveHeader {
		if e, ok := sniffMessage(data); ok {
			e.Line, e.Offset, e.Length = no, offset, len(data)
			dg.add(e, offset)
			return nil
		}
	}
	kind, e := dg.lines.Parse(data, no)
	switch kind {
	case session.LineBlank:
		diag.BlankLines++
		return nil
	case session.LineFalsy:
		diag.FalsyLines++
		return nil
	case session.LineMalformed:
		diag.MalformedLines++
		if len(diag.MalformedLineNumbers) < 100 {
			diag.MalformedLineNumbers = append(diag.MalformedLineNumbers, no)
		}
		return nil
	}
	if !dg.haveHeader {
		if e.NotObject || e.Type != session.TypeSession || !e.HasID {
			return session.ErrNotSession
		}
		dg.haveHeader = true
		h := session.HeaderOf(&e)
		h.Raw = append([]byte(nil), h.Raw...)
		h.ID, h.Timestamp = strings.Clone(h.ID), strings.Clone(h.Timestamp)
		h.Cwd, h.ParentSession = strings.Clone(h.Cwd), strings.Clone(h.ParentSession)
		dg.d.Header = h
		if h.FileVersion < session.CurrentVersion {
			return errOldFormat
		}
		return nil
	}
	if e.Type == session.TypeSession {
		diag.ExtraHeaders++
		return nil
	}
	var de DigestEntry
	if e.Role == session.RoleAssistant {
		// Parse has scanned the message's members already.
		de = assistantEntry(&e, &dg.lines)
	} else {
		de = digestEntry(&e)
	}
	de.Offset, de.Length = offset, len(data)
	de.detach()
	dg.add(de, offset)
	return nil
}

// presizeAfterBytes is how much of the file is read before Entries is
// sized from the entries seen so far (as the session reader does).
const presizeAfterBytes = 1 << 20

// add appends an entry read at offset. Entries is sized for the whole
// file from the first megabyte's entries, and regrown from the average so
// far, instead of by append's doubling: a digest entry is a few hundred
// bytes, and a doubled slice of a 1 GB session's is hundreds of MB, twice
// over while append copies it.
func (dg *digester) add(e DigestEntry, offset int64) {
	entries := dg.d.Entries
	if len(entries) == cap(entries) && dg.size > 0 && offset > 0 {
		n := len(entries)
		est := n + n/16 + 16
		if offset >= presizeAfterBytes || dg.size <= presizeAfterBytes {
			est = max(est, int(float64(dg.size)/float64(offset)*float64(n)*1.04)+16)
		}
		if offset < presizeAfterBytes && dg.size > presizeAfterBytes {
			est = max(2*n, 64) // too little seen to estimate
		}
		grown := make([]DigestEntry, n, est)
		copy(grown, entries)
		entries = grown
	}
	dg.d.Entries = append(entries, e)
}

// detach copies every string that may still point into the read buffer
// (the scanner decodes strings without copying), interning the common ones.
func (e *DigestEntry) detach() {
	e.Type, e.Role = intern(e.Type), intern(e.Role)
	e.rec.role = intern(e.rec.role)
	e.ID, e.ParentID = strings.Clone(e.ID), strings.Clone(e.ParentID)
	e.CustomType = strings.Clone(e.CustomType)
	e.Provider, e.Model = strings.Clone(e.Provider), strings.Clone(e.Model)
	e.ResponseModel, e.StopReason = strings.Clone(e.ResponseModel), intern(e.StopReason)
	e.ThinkingLevel = intern(e.ThinkingLevel)
	e.rec.key, e.rec.provider, e.rec.model = strings.Clone(e.rec.key), strings.Clone(e.rec.provider), strings.Clone(e.rec.model)
}

// interned are the short strings most entries share.
var interned = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{session.TypeMessage, session.TypeModelChange, session.TypeThinkingLevelChange, session.TypeUsage, session.TypeCompaction,
		session.TypeBranchSummary, session.TypeCustom, session.TypeCustomMessage, session.TypeContextEdit, session.TypeLabel, session.TypeSessionInfo,
		session.RoleSystem, session.RoleUser, session.RoleAssistant, session.RoleToolResult, session.RoleBashExecution, session.RoleCustom, session.RoleBranchSummary,
		session.RoleCompactionSummary, "stop", "toolUse", "length", "error", "aborted",
		"off", "minimal", "low", "medium", "high", "xhigh", "max"} {
		m[s] = s
	}
	return m
}()

func intern(s string) string {
	if v, ok := interned[s]; ok {
		return v
	}
	return strings.Clone(s)
}

// digestByOpening builds the digest of a v1/v2 file from the full reader
// (migration assigns the ids), with the display line limit.
func digestByOpening(path string, info os.FileInfo) (*Digest, error) {
	s, err := session.OpenForDisplay(path)
	if err != nil {
		return nil, err
	}
	d := &Digest{Path: path, Size: s.Size, ModTime: info.ModTime(), Header: s.Header, Diagnostics: s.Diagnostics}
	d.Entries = make([]DigestEntry, len(s.Entries))
	for i := range s.Entries {
		e := &s.Entries[i]
		de := digestEntry(e)
		// Offsets are unknown after migration; ReadLine falls back to the
		// line number.
		de.Offset, de.Length = -1, 0
		if e.Migrated || s.Migrated {
			de.ID, de.HasID, de.ParentID, de.HasParent = e.ID, e.HasID, e.ParentID, e.HasParent
		}
		d.Entries[i] = de
	}
	d.Header.Raw = append([]byte(nil), s.Header.Raw...)
	d.buildIndex()
	d.Diagnostics.DuplicateIDs = s.Diagnostics.DuplicateIDs
	return d, nil
}

// buildIndex fills the id index and counts duplicate ids.
func (d *Digest) buildIndex() {
	d.byID = make(map[string]int, len(d.Entries))
	dup := 0
	for i := range d.Entries {
		e := &d.Entries[i]
		if !e.HasID {
			continue
		}
		if _, seen := d.byID[e.ID]; seen {
			dup++
		}
		d.byID[e.ID] = i
	}
	d.Diagnostics.DuplicateIDs = dup
}

// IndexOf returns the index of the entry with the id (last duplicate wins).
func (d *Digest) IndexOf(id string) (int, bool) {
	i, ok := d.byID[id]
	return i, ok
}

// LeafIndex is Pi's default leaf: the last entry (-1 when empty).
func (d *Digest) LeafIndex() int { return len(d.Entries) - 1 }

// PathTo returns the indexes from a root down to leaf, following parentId
// like Session.PathTo (a parent cycle ends the walk).
func (d *Digest) PathTo(leaf int) []int {
	if leaf < 0 || leaf >= len(d.Entries) {
		return nil
	}
	seen := map[int]bool{}
	var path []int
	for cur := leaf; ; {
		path = append(path, cur)
		seen[cur] = true
		e := &d.Entries[cur]
		if !e.HasParent || e.ParentID == "" {
			break
		}
		next, ok := d.byID[e.ParentID]
		if !ok || seen[next] {
			break
		}
		cur = next
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// Stats counts the entries from index first to the end of the file like
// SessionStats counts a whole file (every branch), with the same catalog
// cost repair. Context usage is not computed (Context is nil).
func (d *Digest) Stats(first int, cat *catalog.Catalog) Stats {
	first = max(first, 0)
	st := Stats{Scope: StatsScopeSession, LeafIndex: d.LeafIndex()}
	b := &statsBuilder{cat: cat, st: &st, byKey: map[string]int{}, roleIdx: map[string]int{}}
	for i := first; i < len(d.Entries); i++ {
		e := &d.Entries[i]
		st.Entries++
		b.add(i, &session.Entry{Line: e.Line, ID: e.ID}, &e.rec)
	}
	b.finish()
	return st
}

// ReadLine reads the raw line of entry i back from the file. It fails when
// the file no longer holds the same bytes there (it was replaced).
func (d *Digest) ReadLine(i int) ([]byte, error) {
	if i < 0 || i >= len(d.Entries) {
		return nil, fmt.Errorf("entry %d out of range", i)
	}
	e := &d.Entries[i]
	if e.Offset < 0 {
		s, err := session.Open(d.Path)
		if err != nil {
			return nil, err
		}
		for k := range s.Entries {
			if s.Entries[k].Line == e.Line {
				return s.Entries[k].Raw, nil
			}
		}
		return nil, fmt.Errorf("%s: line %d is gone", d.Path, e.Line)
	}
	f, _, err := regfile.Open(d.Path)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	buf := make([]byte, e.Length)
	if _, err := f.ReadAt(buf, e.Offset); err != nil {
		return nil, fmt.Errorf("read %s line %d: %w", d.Path, e.Line, err)
	}
	return buf, nil
}

// ReadEntry reads entry i back from the file and parses it fully.
func (d *Digest) ReadEntry(i int) (*session.Entry, error) {
	line, err := d.ReadLine(i)
	if err != nil {
		return nil, err
	}
	e, err := session.ParseEntryLine(line, d.Entries[i].Line)
	if err != nil {
		return nil, fmt.Errorf("%s line %d: %w", d.Path, d.Entries[i].Line, err)
	}
	if d.Entries[i].HasID && e.ID != d.Entries[i].ID {
		return nil, fmt.Errorf("%s line %d changed since it was read", d.Path, d.Entries[i].Line)
	}
	return e, nil
}
