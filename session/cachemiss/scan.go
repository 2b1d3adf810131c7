package cachemiss

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// scanMaxBytes is the largest file a Scanner decodes itself; a larger one
// is opened in full (the reader decodes it on every core).
const scanMaxBytes = 64 << 20

// Scanner reports on many sessions one after another (one Scanner per
// goroutine), reusing its buffers: each file is held whole (mapped from a
// megabyte, else read into one buffer: session.ReadFileBytes) and its
// lines decoded exactly as session.Open's loader decodes them
// (session.ParseEntryLine), but without the reader's goroutines,
// batch buffers, id and parent tables and label resolution, which cost
// more than the detector itself over a project's thousands of small
// sessions. Only a session that needs more is opened in full: one whose
// format needs migrating (version 1 and 2), one that is not a session or
// has lines the display reader skips. One with a break whose cause needs
// the requests rebuilt becomes a session of the entries already decoded
// (session.Assemble), not read again.
type Scanner struct {
	// Open reads a session in full (nil: session.OpenForDisplay).
	Open func(path string) (*session.Session, error)

	buf     []byte
	file    session.FileBytes // the file scanned last: mapped, or in buf
	header  session.Entry     // its header
	entries []session.Entry
	byID    map[string]int
}

// scanTree is a scanned file's entries and their id index (the last of
// duplicate ids wins, as in session.Session).
type scanTree struct {
	entries []session.Entry
	byID    map[string]int
}

func (t *scanTree) at(i int) *session.Entry { return &t.entries[i] }
func (t *scanTree) indexOf(id string) (int, bool) {
	i, ok := t.byID[id]
	return i, ok
}

// errFull says a file needs the full reader.
var errFull = errors.New("read in full")

// Analyze adds the session at path, its breaks as Pi counts them and
// their causes, to rep, reading it as cheaply as its content allows. The
// result equals Analyze on the session read in full.
func (sc *Scanner) Analyze(path string, opts replay.RequestOptions, rep *Report) error {
	_, err := sc.analyze(path, opts, rep)
	return err
}

// analyze is Analyze; own is true when the result depends on the file,
// the catalog and this program alone: pi-forge never wrote to the file
// (its rewrite, which reads the Preset library, then leaves every request
// as Pi built it) and the Forge rewrote none of its requests.
func (sc *Scanner) analyze(path string, opts replay.RequestOptions, rep *Report) (own bool, err error) {
	var watch *watchedForge
	if opts.Forge != nil {
		watch = &watchedForge{inner: opts.Forge}
		opts.Forge = watch
	}
	err = sc.scan(path)
	if err == nil {
		t := &scanTree{entries: sc.entries, byID: sc.byID}
		res := detect(t.entries, nil, opts.Catalog, nil)
		kind, fork := classify(t, res.Misses, opts.Forge != nil && presetUsed(t.entries))
		causes := make([]Cause, len(res.Misses))
		for i := range res.Misses {
			if kind[i] == rebuild {
				err = errFull
				break
			}
			causes[i] = explainShort(t, &res.Misses[i], kind[i], fork[i])
		}
		if err == nil {
			own = !forgeTouched(t.entries)
			rep.add(path, sc.header.ID, t.entries, res, causes)
			sc.release()
			return own, nil
		}
		// The causes need the requests rebuilt: the session is the
		// entries already decoded, which it takes with the buffer they
		// lie in (the next file gets a new one).
		s, err := session.Assemble(path, sc.file, &sc.header, sc.entries)
		if !sc.file.Mapped() {
			sc.buf = nil
		}
		sc.entries = nil
		sc.release()
		if err != nil {
			return false, err
		}
		rep.Add(s, res, Explain(s, res.Misses, opts))
		return !forgeTouched(s.Entries) && !watch.rewrote(), nil
	}
	sc.release()
	if !errors.Is(err, errFull) {
		return false, err
	}
	open := sc.Open
	if open == nil {
		open = session.OpenForDisplay
	}
	s, err := open(path)
	if err != nil {
		return false, err
	}
	res := Detect(s, nil, opts.Catalog)
	causes := Explain(s, res.Misses, opts)
	rep.Add(s, res, causes)
	return !forgeTouched(s.Entries) && !watch.rewrote(), nil
}

// forgeTouched reports whether any entry is pi-forge's (a custom entry or
// message whose customType starts with "pi-forge-"): its rewrite of such a
// session reads the Preset library, so the causes depend on more than the
// file.
func forgeTouched(entries []session.Entry) bool {
	for i := range entries {
		e := &entries[i]
		if e.Type != session.TypeCustom && e.Type != session.TypeCustomMessage {
			continue
		}
		if ct, _, _ := e.CustomPayload(); strings.HasPrefix(ct, "pi-forge-") {
			return true
		}
	}
	return false
}

// watchedForge is a Forge that remembers whether it rewrote a request.
type watchedForge struct {
	inner replay.Forge
	did   atomic.Bool
}

// Rewrite implements replay.Forge.
func (w *watchedForge) Rewrite(s *session.Session, in replay.ForgeInput) (*replay.ForgeOutput, error) {
	out, err := w.inner.Rewrite(s, in)
	if out != nil || err != nil {
		w.did.Store(true)
	}
	return out, err
}

// rewrote reports whether the Forge rewrote a request (or failed on one).
func (w *watchedForge) rewrote() bool { return w != nil && w.did.Load() }

// release lets go of what the last file's entries point at, keeping the
// buffers.
func (sc *Scanner) release() {
	sc.header, sc.file = session.Entry{}, session.FileBytes{}
	clear(sc.entries)
	sc.entries = sc.entries[:0]
	clear(sc.byID)
}

// scan holds the file at path (mapped, or read into the buffer) and decodes
// its entries (the header kept apart, in sc.header) and their id index; it
// returns errFull when the file needs the full reader.
func (sc *Scanner) scan(path string) error {
	file, buf, err := session.ReadFileBytes(path, scanMaxBytes, sc.buf)
	sc.buf = buf
	switch {
	case errors.Is(err, session.ErrFileTooLarge), errors.Is(err, session.ErrFileChanged):
		return errFull // the full reader says what the file holds
	case err != nil:
		return err
	}
	sc.file = file
	data := file.Data
	if sc.byID == nil {
		sc.byID = map[string]int{}
	}
	header, no := false, 0
	for len(data) > 0 {
		line := data
		if k := bytes.IndexByte(data, '\n'); k >= 0 {
			line, data = data[:k], data[k+1:]
		} else {
			data = nil
		}
		no++
		if len(line) > session.DisplayMaxLineBytes {
			return errFull
		}
		e, err := session.ParseEntryLine(line, no)
		if err != nil {
			continue // blank, malformed or falsy: Pi's loader skips it
		}
		if !header {
			// The first entry is the header: a session of the current
			// format, or the full reader says what it is.
			v, ok := e.Field("version").Number()
			if e.NotObject || e.Type != session.TypeSession || !e.HasID || !ok || !(v >= session.CurrentVersion) || math.IsNaN(v) {
				return errFull
			}
			header = true
			sc.header = *e
			continue
		}
		if e.Type == session.TypeSession && !e.NotObject {
			continue // another header: not an entry
		}
		if e.HasID {
			sc.byID[e.ID] = len(sc.entries)
		}
		sc.entries = append(sc.entries, *e)
	}
	if !header || file.Shrunk() {
		return errFull
	}
	return nil
}

// ReportFiles reports on files, one per core, each core through its own
// Scanner (open reads a session in full when one needs it: nil is
// session.OpenForDisplay), gathering the breaks in the order of files; a
// file that cannot be read is a problem line, not a failure. stop (nil:
// never) is asked between files: once it says so the report ends where it
// is, incomplete (the TUI drops a report the user no longer waits for).
func ReportFiles(files []string, opts replay.RequestOptions, open func(string) (*session.Session, error), stop func() bool) (*Report, []string) {
	parts := make([]Report, len(files))
	errs := analyzeEach(files, opts, open, stop, parts, nil, nil)
	return mergeParts(files, parts, errs)
}

// analyzeEach analyzes files[i] into parts[i] on every core, each core
// through its own Scanner; skip (nil: none) says which files are already
// in parts, own (nil: not wanted) is set for each file whose result
// depends on the file alone (Scanner.analyze).
func analyzeEach(files []string, opts replay.RequestOptions, open func(string) (*session.Session, error), stop func() bool,
	parts []Report, skip, own []bool) []error {
	errs := make([]error, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(len(files), runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := &Scanner{Open: open}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) || (stop != nil && stop()) {
					return
				}
				if skip != nil && skip[i] {
					continue
				}
				if onAnalyze != nil {
					onAnalyze(files[i])
				}
				errs[i] = session.GuardFaults(func() error {
					o, err := sc.analyze(files[i], opts, &parts[i])
					if own != nil {
						own[i] = o && err == nil
					}
					return err
				})
			}
		}()
	}
	wg.Wait()
	return errs
}

// onAnalyze, when set (by tests), is told of every file read.
var onAnalyze func(path string)

// mergeParts gathers the files' reports in order, a problem line for
// each file that failed.
func mergeParts(files []string, parts []Report, errs []error) (*Report, []string) {
	n := 0
	for i := range parts {
		n += len(parts[i].Breaks)
	}
	rep := &Report{Breaks: make([]Break, 0, n)}
	var problems []string
	for i := range parts {
		if errs[i] != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", files[i], errs[i]))
			continue
		}
		rep.Merge(&parts[i])
		parts[i] = Report{}
	}
	return rep, problems
}
