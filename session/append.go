package session

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/flock"
)

// Append errors. The CLI maps ErrConflict to exit status 3 and ErrLive to 4.
var (
	// ErrConflict reports that the file no longer matches the Guard: it was
	// appended to, rewritten or replaced since it was read.
	ErrConflict = errors.New("session file changed since it was read")
	// ErrLive reports a file modified within the live window (a running Pi
	// is probably using it; spec §11). AppendOptions.Force overrides it.
	ErrLive = errors.New("session file is in use (modified recently)")
	// ErrPartialWrite reports that the write stopped part way; the file may
	// end in an incomplete line (AppendResult says how many bytes landed).
	ErrPartialWrite = errors.New("partial write")
	// ErrBadEntry reports an entry Append refuses to write.
	ErrBadEntry = errors.New("invalid entry to append")
	// ErrOldFormat reports a v1/v2 file: its entry ids exist only after an
	// in-memory migration, so a new entry could not name its parent on disk,
	// and forgebench never migrates files itself (spec §5, §11).
	ErrOldFormat = errors.New("session file predates format version 3")
)

// DefaultLiveWindow is how recently a file may have changed before Append
// treats it as in use by a running Pi.
const DefaultLiveWindow = 10 * time.Second

// Guard is what the caller believes the file looks like. Append writes only
// if both still hold, so an edit based on a stale read never lands.
type Guard struct {
	// Size is the file size in bytes when it was read (Session.Size).
	Size int64
	// LeafID is the id of the last entry in file order ("" when the session
	// has no entries or its last entry has no id).
	LeafID string
}

// GuardOf returns the guard for a session as it was read.
func GuardOf(s *Session) Guard {
	g := Guard{Size: s.Size}
	if leaf, ok := s.Leaf(); ok && leaf.HasID {
		g.LeafID = leaf.ID
	}
	return g
}

// NewEntry is an entry to append: its type and its type-specific fields in
// the order they are written. id, parentId and timestamp are added by
// Append and must not be in Fields.
type NewEntry struct {
	Type   string
	Fields *jsonv.Object
}

// CustomEntry is a custom entry (extension state, invisible to the model),
// written like Pi's appendCustomEntry(customType, data). data is a jsonv
// value; nil writes "data":null. Build a NewEntry directly to omit data.
func CustomEntry(customType string, data any) NewEntry {
	f := jsonv.NewObject()
	f.Set("customType", customType)
	f.Set("data", data)
	return NewEntry{Type: TypeCustom, Fields: f}
}

// LabelEntry labels the entry targetID; an empty label clears it (the
// label key is omitted, as Pi does).
func LabelEntry(targetID, label string) NewEntry {
	f := jsonv.NewObject()
	f.Set("targetId", targetID)
	if label != "" {
		f.Set("label", label)
	}
	return NewEntry{Type: TypeLabel, Fields: f}
}

// SessionInfoEntry names the session. Each run of line breaks becomes one
// space and the name is trimmed, like Pi's
// name.replace(/[\r\n]+/g, " ").trim(); an empty name clears it.
func SessionInfoEntry(name string) NewEntry {
	name = collapseLineBreaks(name)
	f := jsonv.NewObject()
	f.Set("name", jsonv.TrimJS(name))
	return NewEntry{Type: TypeSessionInfo, Fields: f}
}

// collapseLineBreaks replaces every run of "\r" and "\n" with one space.
func collapseLineBreaks(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	var b strings.Builder
	inRun := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\r' || c == '\n' {
			if !inRun {
				b.WriteByte(' ')
			}
			inRun = true
			continue
		}
		inRun = false
		b.WriteByte(s[i])
	}
	return b.String()
}

// AppendOptions tune Append. The zero value is the safe default.
type AppendOptions struct {
	// Force appends even to a file modified within LiveWindow, and while a
	// Pi process runs in the session's project.
	Force bool
	// RecentWriteIsOwn skips only the live window: the caller knows the
	// file is exactly as its own last append left it. A running Pi is
	// still refused.
	RecentWriteIsOwn bool
	// Project is the project directory the caller took trust, Presets and
	// capabilities from; when set, a session whose header names another
	// project is refused (ErrForeignProject). It is also where a running
	// Pi is looked for when the header names no cwd.
	Project string
	// FindPi lists the Pi processes running in a project (default FindPi;
	// tests inject their own).
	FindPi func(project string) ([]PiProcess, error)
	// LiveWindow is how recent a modification counts as live (default
	// DefaultLiveWindow).
	LiveWindow time.Duration
	// AllowContextTypes permits entry types other than custom, label and
	// session_info, which change what the model sees on the next turn.
	AllowContextTypes bool
	// Now is the clock (default time.Now).
	Now func() time.Time
	// NewID proposes entry ids (default: 8 lowercase hex digits, as Pi's
	// randomUUID().slice(0, 8), marked as forgebench's: appendmark.go).
	// Proposals already used in the file are retried up to 100 times, then
	// a full random UUID is used.
	NewID func() string
}

// AppendResult describes a successful (or partial) append.
type AppendResult struct {
	// IDs are the ids given to the entries, in order.
	IDs []string
	// LeafID is the new leaf (the last id written).
	LeafID string
	// Offset is where the first new entry starts (after a repaired newline).
	Offset int64
	// Size is the file size after the write.
	Size int64
	// RepairedNewline is true when a "\n" was written first because the file
	// did not end with one.
	RepairedNewline bool
	// Written is the number of bytes written (less than intended only with
	// ErrPartialWrite).
	Written int
	// RolledBack is true when a partial write was cut off again, leaving
	// the file exactly as it was before Append.
	RolledBack bool
}

// appendLockWait bounds how long Append waits for another forgebench
// append to the same file.
const appendLockWait = 10 * time.Second

// appendCheckedHook runs between Append's checks and its write; tests use
// it to hold one append there while another races it.
var appendCheckedHook = func() {}

// Append adds entries to the end of the session file at path the way Pi
// writes them (spec §11): each on its own line as JSON.stringify output,
// chained from the current leaf, with fresh ids unique in the file and
// millisecond UTC timestamps. It refuses (ErrConflict) unless the file still
// has guard.Size bytes and its last entry is guard.LeafID; refuses
// (ErrNoLeafID) when that entry has no usable string id; refuses
// (ErrForeignProject) a session of another project than opts.Project; and,
// unless opts.Force, refuses (ErrPiRunning) while a Pi process runs in the
// session's project and (ErrLive) a file modified within the live window
// or in the future — unless that modification was forgebench's own
// append with nothing written after it (lastWriteIsOwn), so an immediate
// undo needs no Force. The
// whole batch, including a newline repair, goes out in one O_APPEND write;
// should the system accept only part of it, the part is truncated away
// again when nothing was appended after it, and ErrPartialWrite is returned.
func Append(path string, guard Guard, entries []NewEntry, opts AppendOptions) (AppendResult, error) {
	if opts.LiveWindow <= 0 {
		opts.LiveWindow = DefaultLiveWindow
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.FindPi == nil {
		opts.FindPi = FindPi
	}
	if err := checkEntries(entries, opts.AllowContextTypes); err != nil {
		return AppendResult{}, err
	}
	// Lock, check, write: one step for every forgebench writer of this
	// file, so two appends that read the same guard cannot both pass it
	// (both appended, chaining two batches from one leaf). Pi takes no
	// lock; the guard and the live window stay what protects against it.
	if fi, err := os.Stat(path); err != nil {
		return AppendResult{}, fmt.Errorf("append: %w", err)
	} else if !fi.Mode().IsRegular() {
		return AppendResult{}, fmt.Errorf("append: %w", &NotRegularError{Path: path, Kind: FileKind(fi.Mode())})
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return AppendResult{}, fmt.Errorf("append: %w", err)
	}
	defer f.Close()
	unlock, err := flock.Lock(f, appendLockWait)
	if err != nil {
		return AppendResult{}, fmt.Errorf("append to %s: %v: %w", path, err, ErrConflict)
	}
	defer unlock()
	before, err := os.Stat(path)
	if err != nil {
		return AppendResult{}, fmt.Errorf("append: %w", err)
	}
	s, err := Open(path)
	if err != nil {
		return AppendResult{}, fmt.Errorf("append: %w", err)
	}
	if s.Migrated {
		return AppendResult{}, fmt.Errorf("append to %s: version %s: %w", path, jsonv.FormatNumber(s.Header.FileVersion), ErrOldFormat)
	}
	current := GuardOf(s)
	if current.Size != guard.Size {
		return AppendResult{}, fmt.Errorf("append to %s: size is %d, expected %d: %w", path, current.Size, guard.Size, ErrConflict)
	}
	if current.LeafID != guard.LeafID {
		return AppendResult{}, fmt.Errorf("append to %s: leaf is %q, expected %q: %w", path, current.LeafID, guard.LeafID, ErrConflict)
	}
	if err := CheckLeaf(s); err != nil {
		return AppendResult{}, fmt.Errorf("append to %s: %w", path, err)
	}
	project := s.Project(opts.Project)
	if opts.Project != "" && !SameProject(project, opts.Project) {
		return AppendResult{}, fmt.Errorf("append to %s: it belongs to project %s, not %s: %w", path, project, opts.Project, ErrForeignProject)
	}

	fi, err := f.Stat()
	if err != nil {
		return AppendResult{}, fmt.Errorf("append: stat %s: %w", path, err)
	}
	// The file must still be the one that was read, untouched since.
	if !os.SameFile(before, fi) || fi.Size() != guard.Size || !fi.ModTime().Equal(before.ModTime()) {
		return AppendResult{}, fmt.Errorf("append to %s: changed while it was read: %w", path, ErrConflict)
	}
	if !opts.Force && project != "" {
		if procs, err := opts.FindPi(project); err == nil && len(procs) > 0 {
			return AppendResult{}, fmt.Errorf("append to %s: %w", path, &PiRunningError{Project: project, Processes: procs})
		}
	}
	now := opts.Now()
	if !opts.Force && !opts.RecentWriteIsOwn {
		why := LiveReason(fi.ModTime(), now, opts.LiveWindow)
		if why != "" && !fi.ModTime().After(now) && lastWriteIsOwn(f, s, fi.Size(), fi.ModTime(), opts.LiveWindow) {
			why = "" // forgebench's own append, nothing after it: not in use
		}
		if why != "" {
			return AppendResult{}, fmt.Errorf("append to %s: %s: %w", path, why, ErrLive)
		}
	}

	appendCheckedHook()

	res := AppendResult{Offset: fi.Size()}
	var buf []byte
	if fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err != nil {
			return AppendResult{}, fmt.Errorf("append: read last byte of %s: %w", path, err)
		}
		if last[0] != '\n' {
			buf = append(buf, '\n')
			res.RepairedNewline = true
			res.Offset++
		}
	}
	used := make(map[string]bool, len(s.Entries)+len(entries))
	for i := range s.Entries {
		if s.Entries[i].HasID {
			used[s.Entries[i].ID] = true
		}
	}
	parent := guard.LeafID
	next := opts.NewID
	if next == nil {
		next = func() string { return markedEntryID(parent) }
	}
	for k, e := range entries {
		id := uniqueID(next, used)
		used[id] = true
		if k > 0 {
			now = opts.Now()
		}
		buf = jsonv.AppendStringify(buf, entryObject(e, id, parent, now))
		buf = append(buf, '\n')
		res.IDs = append(res.IDs, id)
		parent = id
	}
	res.LeafID = parent

	n, err := f.Write(buf)
	res.Written = n
	res.Size = fi.Size() + int64(n)
	if err != nil || n != len(buf) {
		if n > 0 {
			res.RolledBack = rollBack(f, fi.Size(), int64(n))
			if res.RolledBack {
				res.Size = fi.Size()
			}
		}
		return res, fmt.Errorf("append to %s: wrote %d of %d bytes at offset %d (rolled back: %v): %w",
			path, n, len(buf), fi.Size(), res.RolledBack, errors.Join(ErrPartialWrite, err))
	}
	if err := f.Sync(); err != nil {
		return res, fmt.Errorf("append: sync %s: %w", path, err)
	}
	return res, nil
}

// rollBack removes the n bytes of a partial write when nothing else was
// appended after them, so no torn line is left behind.
func rollBack(f *os.File, size, n int64) bool {
	fi, err := f.Stat()
	if err != nil || fi.Size() != size+n {
		return false
	}
	return f.Truncate(size) == nil
}

// safeTypes may be appended without changing the model context (spec §11).
var safeTypes = map[string]bool{TypeCustom: true, TypeLabel: true, TypeSessionInfo: true}

// reservedKeys are written by Append itself.
var reservedKeys = []string{"type", "id", "parentId", "timestamp"}

func checkEntries(entries []NewEntry, allowContext bool) error {
	if len(entries) == 0 {
		return fmt.Errorf("%w: no entries", ErrBadEntry)
	}
	for k, e := range entries {
		switch {
		case e.Type == "" || e.Type == TypeSession:
			return fmt.Errorf("%w: entry %d has type %q", ErrBadEntry, k, e.Type)
		case !safeTypes[e.Type] && !allowContext:
			return fmt.Errorf("%w: entry %d: type %q changes the model context (not allowed without AllowContextTypes)", ErrBadEntry, k, e.Type)
		}
		for _, key := range reservedKeys {
			if e.Fields != nil && e.Fields.Has(key) {
				return fmt.Errorf("%w: entry %d: field %q is set by Append", ErrBadEntry, k, key)
			}
		}
		var required string
		switch e.Type {
		case TypeCustom, TypeCustomMessage:
			required = "customType"
		case TypeLabel:
			required = "targetId"
		}
		if required != "" {
			var v any
			if e.Fields != nil {
				v, _ = e.Fields.Get(required)
			}
			if str, ok := v.(string); !ok || str == "" {
				return fmt.Errorf("%w: entry %d: %s needs a non-empty string %q", ErrBadEntry, k, e.Type, required)
			}
		}
	}
	return nil
}

// entryObject lays out an entry in Pi's key order: custom and
// custom_message put their own fields before id/parentId/timestamp (spec
// §3.3, pi-forge-formats §1.5); every other type puts them after.
func entryObject(e NewEntry, id, parent string, now time.Time) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("type", e.Type)
	common := func() {
		o.Set("id", id)
		if parent == "" {
			o.Set("parentId", nil)
		} else {
			o.Set("parentId", parent)
		}
		o.Set("timestamp", FormatTimestamp(now))
	}
	fieldsFirst := e.Type == TypeCustom || e.Type == TypeCustomMessage
	if !fieldsFirst {
		common()
	}
	if e.Fields != nil {
		e.Fields.Range(func(k string, v any) bool {
			o.Set(k, v)
			return true
		})
	}
	if fieldsFirst {
		common()
	}
	return o
}

// FormatTimestamp renders t like JavaScript's Date.prototype.toISOString
// for years 0–9999: UTC with milliseconds, e.g. 2026-11-29T22:47:39.368Z.
func FormatTimestamp(t time.Time) string {
	return t.UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}

// uniqueID asks next for an id not in used, up to 100 times like Pi, then
// falls back to a full random UUID.
func uniqueID(next func() string, used map[string]bool) string {
	for range 100 {
		if id := next(); id != "" && !used[id] {
			return id
		}
	}
	for {
		if id := randomUUID(); !used[id] {
			return id
		}
	}
}

// randomEntryID is randomUUID().slice(0, 8): eight lowercase hex digits.
func randomEntryID() string { return randomUUID()[:8] }

// LiveReason says why a file modified at mtime counts as live at now
// (within window; a file modified in the future says so: clock skew),
// or "" when it does not.
func LiveReason(mtime, now time.Time, window time.Duration) string {
	if window <= 0 {
		window = DefaultLiveWindow
	}
	switch age := now.Sub(mtime); {
	case age < 0:
		return fmt.Sprintf("modified in the future (clock skew?): its time is %s ahead of this clock", (-age).Round(time.Millisecond))
	case age < window:
		return fmt.Sprintf("modified %s ago (within %s)", age.Round(time.Millisecond), window)
	}
	return ""
}

// randomUUID returns a random (version 4) UUID in lowercase.
func randomUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported systems
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
