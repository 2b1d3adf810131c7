package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
)

// DefaultMaxLineBytes is the longest line the reader accepts (1 GiB). Longer
// lines are counted and skipped without being held in memory.
const DefaultMaxLineBytes = 1 << 30

const (
	defaultChunkBytes = 4 << 20
	batchBytes        = 512 << 10
	batchLines        = 2048
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
	// MalformedLines counts lines that are not valid JSON.
	MalformedLines int `json:"malformedLines"`
	// MalformedLineNumbers lists the first malformed lines (at most 100).
	MalformedLineNumbers []int `json:"malformedLineNumbers,omitempty"`
	// FalsyLines counts valid JSON lines whose value is falsy (null, false,
	// 0, ""), which Pi drops.
	FalsyLines int `json:"falsyLines"`
	// OversizedLines lists lines longer than the limit (skipped unread).
	OversizedLines []int `json:"oversizedLines,omitempty"`
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

// Open reads the session file at path with default options.
func Open(path string) (*Session, error) { return OpenWithOptions(path, Options{}) }

// OpenWithOptions reads the session file at path. The file is read in
// chunks and never modified; migration happens in memory only.
func OpenWithOptions(path string, opt Options) (*Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	s, err := Read(f, opt)
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", path, err)
	}
	s.Path = path
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

type parsedLine struct {
	kind  lineKind
	no    int
	entry Entry
}

type batchResult struct {
	seq   int
	items []parsedLine
}

// Read reads a session from r: one goroutine splits lines, Options.Workers
// goroutines validate and decode them, and the caller's goroutine assembles
// the entries in file order.
func Read(r io.Reader, opt Options) (*Session, error) {
	opt = opt.withDefaults()
	batches := make(chan lineBatch, 2*opt.Workers)
	results := make(chan batchResult, 2*opt.Workers)
	sp := splitter{opt: opt, out: batches}
	var splitErr error
	go func() {
		splitErr = sp.run(r)
		close(batches)
	}()
	var wg sync.WaitGroup
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sc lineScratch
			for b := range batches {
				items := make([]parsedLine, len(b.lines))
				for k, l := range b.lines {
					kind, e := parseLine(l.data, l.no, &sc)
					items[k] = parsedLine{kind: kind, no: l.no, entry: e}
				}
				results <- batchResult{seq: b.seq, items: items}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	asm := newAssembler()
	pending := map[int][]parsedLine{}
	next := 0
	for res := range results {
		pending[res.seq] = res.items
		for {
			items, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			asm.add(items)
			next++
		}
	}
	if splitErr != nil {
		return nil, splitErr
	}
	asm.diag.Lines = sp.lines
	asm.diag.MissingFinalNewline = sp.missingNewline
	asm.diag.OversizedLines = sp.oversized
	return asm.finish(sp.totalBytes)
}

// splitter reads chunks and cuts them into lines. Complete lines are
// sub-slices of the chunk they were read into (chunks are never reused), so
// entry bytes are stored once; a line crossing a chunk boundary is moved
// into the next chunk.
type splitter struct {
	opt            Options
	out            chan<- lineBatch
	seq            int
	cur            []lineRef
	curBytes       int
	lines          int
	totalBytes     int64
	missingNewline bool
	oversized      []int
}

func (sp *splitter) emit(data []byte) {
	sp.lines++
	sp.cur = append(sp.cur, lineRef{no: sp.lines, data: data})
	sp.curBytes += len(data)
	if sp.curBytes >= batchBytes || len(sp.cur) >= batchLines {
		sp.flush()
	}
}

func (sp *splitter) flush() {
	if len(sp.cur) == 0 {
		return
	}
	sp.out <- lineBatch{seq: sp.seq, lines: sp.cur}
	sp.seq++
	sp.cur = make([]lineRef, 0, 64)
	sp.curBytes = 0
}

func (sp *splitter) run(r io.Reader) error {
	defer sp.flush()
	buf := make([]byte, sp.opt.ChunkBytes)
	n, start, scan := 0, 0, 0
	for {
		m, err := r.Read(buf[n:])
		n += m
		sp.totalBytes += int64(m)
		for {
			idx := bytes.IndexByte(buf[scan:n], '\n')
			if idx < 0 {
				break
			}
			end := scan + idx
			sp.emit(buf[start:end:end])
			start = end + 1
			scan = start
		}
		scan = n
		if err == io.EOF {
			if start < n {
				sp.missingNewline = true
				sp.emit(buf[start:n:n])
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		if n < len(buf) {
			continue
		}
		tail := n - start
		if tail > sp.opt.MaxLineBytes {
			rest, eof, err := sp.skipLongLine(r)
			if err != nil {
				return err
			}
			if eof {
				return nil
			}
			buf = make([]byte, max(sp.opt.ChunkBytes, 2*len(rest)))
			n = copy(buf, rest)
			start, scan = 0, 0
			continue
		}
		size := sp.opt.ChunkBytes
		if tail*2 > size {
			size = min(tail*2, sp.opt.MaxLineBytes+1)
		}
		nb := make([]byte, size)
		copy(nb, buf[start:n])
		buf, n, start, scan = nb, tail, 0, tail
	}
}

// skipLongLine discards the rest of an oversized line, reading through a
// fixed scratch buffer, and returns the bytes after its newline.
func (sp *splitter) skipLongLine(r io.Reader) (rest []byte, eof bool, err error) {
	sp.lines++
	sp.oversized = append(sp.oversized, sp.lines)
	scratch := make([]byte, min(sp.opt.ChunkBytes, 1<<20))
	for {
		m, rerr := r.Read(scratch)
		sp.totalBytes += int64(m)
		if idx := bytes.IndexByte(scratch[:m], '\n'); idx >= 0 {
			return scratch[idx+1 : m], false, nil
		}
		if rerr == io.EOF {
			sp.missingNewline = true
			return nil, true, nil
		}
		if rerr != nil {
			return nil, false, fmt.Errorf("read: %w", rerr)
		}
	}
}
