package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// DefaultMaxLineBytes is the longest line the reader accepts (1 GiB). Longer
// lines are counted and skipped without being held in memory. It is the
// limit of the paths that must match Pi (context rebuilding, compiles):
// Pi itself cannot hold a session file with a longer line.
const DefaultMaxLineBytes = 1 << 30

// DisplayMaxLineBytes is the longest line the display paths (show, tree,
// export, stats, tail, the Session panel) read (32 MiB). A longer line —
// in practice a runaway tool output — costs one scan and no copy: it is
// measured, skipped and named in the diagnostics. Raw-byte scanners (search)
// use the same limit for the lines they decode.
const DisplayMaxLineBytes = 32 << 20

// DisplayOptions are the reader options of the display paths: lines above
// DisplayMaxLineBytes are skipped.
func DisplayOptions() Options { return Options{MaxLineBytes: DisplayMaxLineBytes} }

const (
	defaultChunkBytes = 4 << 20
	batchBytes        = 512 << 10
	batchLines        = 1024
	// measureMinBytes is the partial-line length from which a seekable
	// input is scanned ahead to learn the line's full length.
	measureMinBytes = 64 << 10
)

// ErrNotSession reports a non-empty file whose first parsed entry is not a
// session header (Pi: "Session file is not a valid pi session").
var ErrNotSession = errors.New("not a valid pi session")

// ErrEmptySession reports a file that holds no bytes at all.
var ErrEmptySession = errors.New("empty session file")

// Options tune how a session is read. The zero value is ready to use.
type Options struct {
	// MaxLineBytes refuses longer lines (default DefaultMaxLineBytes).
	MaxLineBytes int
	// ChunkBytes is the size of each read (default 4 MiB).
	ChunkBytes int
	// Workers is the number of line decoders (default GOMAXPROCS).
	Workers int
}

func (o Options) withDefaults() Options {
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.ChunkBytes <= 0 {
		o.ChunkBytes = defaultChunkBytes
	}
	if o.ChunkBytes > o.MaxLineBytes+1 {
		o.ChunkBytes = o.MaxLineBytes + 1
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// Diagnostics describes what the tolerant reader skipped or noticed. Pi
// skips the same lines silently; forgebench reports them.
type Diagnostics struct {
	// Lines is the number of physical lines (a final line without "\n" counts).
	Lines int `json:"lines"`
	// BlankLines counts empty or whitespace-only lines.
	BlankLines int `json:"blankLines"`
	// BlankLineNumbers lists the first blank lines (at most 100).
	BlankLineNumbers []int `json:"blankLineNumbers,omitempty"`
	// MalformedLines counts lines that are not valid JSON.
	MalformedLines int `json:"malformedLines"`
	// MalformedLineNumbers lists the first malformed lines (at most 100).
	MalformedLineNumbers []int `json:"malformedLineNumbers,omitempty"`
	// FalsyLines counts valid JSON lines whose value is falsy (null, false,
	// 0, ""), which Pi drops.
	FalsyLines int `json:"falsyLines"`
	// FalsyLineNumbers lists the first falsy lines (at most 100).
	FalsyLineNumbers []int `json:"falsyLineNumbers,omitempty"`
	// OversizedLines lists lines longer than the limit (skipped unread).
	OversizedLines []int `json:"oversizedLines,omitempty"`
	// OversizedLineBytes is the length of each of OversizedLines, in the
	// same order (without the newline).
	OversizedLineBytes []int64 `json:"oversizedLineBytes,omitempty"`
	// LineLimit is the line limit the reader applied (Options.MaxLineBytes).
	LineLimit int `json:"lineLimit"`
	// MissingFinalNewline is true when the file does not end with "\n"
	// (Pi 1.6.0 would append one; forgebench never writes).
	MissingFinalNewline bool `json:"missingFinalNewline"`
	// ExtraHeaders counts later "session" lines, which are not entries.
	ExtraHeaders int `json:"extraHeaders"`
	// DuplicateIDs counts entries whose id was already used (later wins).
	DuplicateIDs int `json:"duplicateIds"`
}

// SkippedLines is the number of lines that did not become an entry or the header.
func (d *Diagnostics) SkippedLines() int {
	return d.BlankLines + d.MalformedLines + d.FalsyLines + len(d.OversizedLines)
}

// Open reads the session file at path with default options: every line Pi
// accepts is read (the context and compile paths use it).
func Open(path string) (*Session, error) { return OpenWithOptions(path, Options{}) }

// OpenForDisplay reads the session file at path with DisplayOptions: lines
// above DisplayMaxLineBytes are skipped and reported in the diagnostics.
func OpenForDisplay(path string) (*Session, error) {
	return OpenWithOptions(path, DisplayOptions())
}

// OpenWithOptions reads the session file at path. The file is read in
// chunks and never modified; migration happens in memory only.
// Only a regular file is read (a FIFO, device or directory, also behind a
// symbolic link, fails with ErrNotRegular without blocking), and only up to
// the size it had when it was opened.
func OpenWithOptions(path string, opt Options) (*Session, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	s, err := readOpened(f, fi, opt)
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", path, err)
	}
	s.Path = path
	return s, nil
}

// readOpened reads an opened regular file up to its size at open: a large
// file is memory-mapped (mapFile) and split in place; a small one, or one
// the platform cannot map, is read in chunks.
func readOpened(f *os.File, fi os.FileInfo, opt Options) (*Session, error) {
	if data, m, ok := mapIfLarge(f, fi); ok {
		return readMapped(data, m, opt)
	}
	return Read(sizedReader(f, fi), opt)
}

// mapIfLarge maps an opened file of mapMinBytes or more; ok is false for
// a smaller one, or one the platform cannot map: that one is read.
func mapIfLarge(f *os.File, fi os.FileInfo) (data []byte, m *mapping, ok bool) {
	if fi.Size() < mapMinBytes {
		return nil, nil, false
	}
	data, m, err := mapFile(f, f.Name(), fi.Size())
	return data, m, err == nil
}

// readMapped reads a session from a mapped file. A file that shrank while
// it was read fails with ErrFileChanged: the lines past its new end would
// have read as zeros.
func readMapped(data []byte, m *mapping, opt Options) (*Session, error) {
	opt = opt.withDefaults()
	sp := splitter{opt: opt, mapped: true}
	s, err := decodeLines(opt, int64(len(data)), &sp, func() error { return sp.runBytes(data) })
	if err == nil && m.shrunk() {
		err = fmt.Errorf("%s: %w", m.path, ErrFileChanged)
	}
	if err != nil {
		return nil, err
	}
	s.mapping = m
	return s, nil
}

// lineRef is one physical line handed from the splitter to a decoder.
type lineRef struct {
	no   int
	data []byte
}

type lineBatch struct {
	seq   int
	lines []lineRef
}

// batchResult is one decoded batch: its entries in order and what was skipped.
type batchResult struct {
	seq       int
	entries   []Entry
	bytes     int   // bytes of the lines that became entries
	blank     []int // line numbers
	falsy     []int
	malformed []int
	err       error // a fault in a mapped file (ErrFileChanged)
}

func decodeBatch(b lineBatch, sc *lineScratch, bufs *batchBuffers) (res batchResult) {
	res = batchResult{seq: b.seq, entries: bufs.entries(len(b.lines))}
	defer bufs.putLines(b.lines)
	defer catchFault(&res.err)
	for _, l := range b.lines {
		kind, e := parseLine(l.data, l.no, sc)
		switch kind {
		case LineEntry:
			res.entries = append(res.entries, e)
			res.bytes += len(l.data) + 1
		case LineBlank:
			res.blank = append(res.blank, l.no)
		case LineFalsy:
			res.falsy = append(res.falsy, l.no)
		default:
			res.malformed = append(res.malformed, l.no)
		}
	}
	return res
}

// batchBuffers recycles the line and entry slices of the batches in
// flight during one read, so a big file does not allocate (and fault in)
// a fresh pair per batch: entries are copied into Session.Entries and
// their batch slice comes back here. The free lists belong to one read
// and are dropped with it.
type batchBuffers struct {
	freeLines   chan []lineRef
	freeEntries chan []Entry
}

func newBatchBuffers(n int) *batchBuffers {
	return &batchBuffers{freeLines: make(chan []lineRef, n), freeEntries: make(chan []Entry, n)}
}

func (b *batchBuffers) lines() []lineRef {
	select {
	case l := <-b.freeLines:
		return l
	default:
		return make([]lineRef, 0, batchLines)
	}
}

func (b *batchBuffers) putLines(l []lineRef) {

	select {
	case b.freeLines <- l[:0]:
	default:
	}
}

func (b *batchBuffers) entries(n int) []Entry {
	select {
	case e := <-b.freeEntries:
		if cap(e) >= n {
			return e
		}
	default:
	}
	return make([]Entry, 0, max(n, batchLines))
}

func (b *batchBuffers) putEntries(e []Entry) {
	select {
	case b.freeEntries <- e[:0]:
	default:
	}
}

// Read reads a session from r: one goroutine splits lines, Options.Workers
// goroutines validate and decode them, and the caller's goroutine assembles
// the entries in file order. Read is the streaming path (standard input,
// pipes); files are opened with Open, which maps large ones.
func Read(r io.Reader, opt Options) (*Session, error) {
	opt = opt.withDefaults()
	sizeHint := remainingSize(r) // before the splitter starts reading r
	sp := splitter{opt: opt}
	return decodeLines(opt, sizeHint, &sp, func() error { return sp.run(r) })
}

// decodeLines runs split on its own goroutine (it feeds sp.out), decodes
// the batches on Options.Workers goroutines and assembles them in file
// order. Every goroutine runs with debug.SetPanicOnFault, so a mapped file
// truncated under the reader ends the read with ErrFileChanged instead of
// crashing.
func decodeLines(opt Options, sizeHint int64, sp *splitter, split func() error) (s *Session, err error) {
	batches := make(chan lineBatch, 2*opt.Workers)
	results := make(chan batchResult, 2*opt.Workers)
	bufs := newBatchBuffers(64)
	sp.out, sp.bufs = batches, bufs
	var splitErr error
	go func() {
		defer close(batches)
		splitErr = GuardFaults(split)
	}()
	var wg sync.WaitGroup
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			var sc lineScratch
			for b := range batches {
				results <- decodeBatch(b, &sc, bufs)
				// A batch is about a millisecond of work. Yielding after
				// each one lets a goroutine that just woke (the TUI's key
				// handling, its renderer) run at once instead of waiting
				// for the scheduler's 10 ms preemption while every core
				// decodes; alone, the call costs well under a microsecond.
				runtime.Gosched()
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	defer func() {
		for range results { // let the decoders finish after a fault here
		}
	}()
	var decodeErr error
	err = GuardFaults(func() error {
		asm := newAssembler(sizeHint)
		pending := map[int]batchResult{}
		next := 0
		for res := range results {
			if res.err != nil && decodeErr == nil {
				decodeErr = res.err
			}
			pending[res.seq] = res
			for {
				res, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				if decodeErr == nil {
					asm.add(res)
				}
				bufs.putEntries(res.entries)
				next++
			}
		}
		if splitErr != nil || decodeErr != nil {
			return nil
		}
		asm.diag.Lines = sp.lines
		asm.diag.MissingFinalNewline = sp.missingNewline
		asm.diag.OversizedLines = sp.oversized
		asm.diag.OversizedLineBytes = sp.oversizedBytes
		asm.diag.LineLimit = opt.MaxLineBytes
		var ferr error
		s, ferr = asm.finish(sp.totalBytes)
		return ferr
	})
	switch {
	case splitErr != nil:
		return nil, splitErr
	case decodeErr != nil:
		return nil, decodeErr
	case err != nil:
		return nil, err
	}
	return s, nil
}

// remainingSize returns how many bytes a seekable reader has left (0 when
// unknown); it only sizes the entry slice up front.
func remainingSize(r io.Reader) int64 {
	sr, ok := r.(io.Seeker)
	if !ok {
		return 0
	}
	cur, err := sr.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	end, err := sr.Seek(0, io.SeekEnd)
	if _, err2 := sr.Seek(cur, io.SeekStart); err != nil || err2 != nil {
		return 0
	}
	return end - cur
}
