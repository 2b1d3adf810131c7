package cachemiss

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// scanMaxBytes is the largest file a Scanner reads into its buffer; a
// larger one is opened in full (mapped by session.Open, not copied).
const scanMaxBytes = 64 << 20

// Scanner reports on many sessions one after another (one Scanner per
// goroutine), reusing its buffers: each file is read whole into one
// buffer and its lines decoded exactly as session.Open's loader decodes
// them (session.ParseEntryLine), but without the reader's goroutines,
// batch buffers, id and parent tables and label resolution, which cost
// more than the detector itself over a project's thousands of small
// sessions. Only a session that needs more is opened in full: one whose
// format needs migrating (version 1 and 2), one that is not a session or
// has lines the display reader skips, and one with a break whose cause
// needs the requests rebuilt.
type Scanner struct {
	// Open reads a session in full (nil: session.OpenForDisplay).
	Open func(path string) (*session.Session, error)

	buf     []byte
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
	id, err := sc.scan(path)
	if err == nil {
		t := &scanTree{entries: sc.entries, byID: sc.byID}
		res := detect(t.entries, nil, opts.Catalog)
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
			rep.add(path, id, t.entries, res, causes)
			sc.release()
			return nil
		}
	}
	sc.release()
	if !errors.Is(err, errFull) {
		return err
	}
	open := sc.Open
	if open == nil {
		open = session.OpenForDisplay
	}
	s, err := open(path)
	if err != nil {
		return err
	}
	res, causes := Analyze(s, opts)
	rep.Add(s, res, causes)
	return nil
}

// release lets go of what the last file's entries point at, keeping the
// buffers.
func (sc *Scanner) release() {
	clear(sc.entries)
	sc.entries = sc.entries[:0]
	clear(sc.byID)
}

// scan reads the file at path into the buffer and decodes its entries
// (the header left out) and their id index; it returns the header's id,
// or errFull when the file needs the full reader.
func (sc *Scanner) scan(path string) (string, error) {
	f, fi, err := regfile.Open(path)
	if err != nil {
		return "", fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	size := fi.Size()
	if size > scanMaxBytes {
		return "", errFull
	}
	if int64(cap(sc.buf)) < size {
		sc.buf = make([]byte, size+size/4)
	}
	data := sc.buf[:size]
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, size), data); err != nil {
		return "", errFull // shrank while read: the full reader says what is left
	}
	if sc.byID == nil {
		sc.byID = map[string]int{}
	}
	header, no := false, 0
	id := ""
	for len(data) > 0 {
		line := data
		if k := bytes.IndexByte(data, '\n'); k >= 0 {
			line, data = data[:k], data[k+1:]
		} else {
			data = nil
		}
		no++
		if len(line) > session.DisplayMaxLineBytes {
			return "", errFull
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
				return "", errFull
			}
			header, id = true, e.ID
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
	if !header {
		return "", errFull
	}
	return id, nil
}

// ReportFiles reports on files, one per core, each core through its own
// Scanner (open reads a session in full when one needs it: nil is
// session.OpenForDisplay), gathering the breaks in the order of files; a
// file that cannot be read is a problem line, not a failure. stop (nil:
// never) is asked between files: once it says so the report ends where it
// is, incomplete (the TUI drops a report the user no longer waits for).
func ReportFiles(files []string, opts replay.RequestOptions, open func(string) (*session.Session, error), stop func() bool) (*Report, []string) {
	parts := make([]Report, len(files))
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
				errs[i] = session.GuardFaults(func() error { return sc.Analyze(files[i], opts, &parts[i]) })
			}
		}()
	}
	wg.Wait()
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
