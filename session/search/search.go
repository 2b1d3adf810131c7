package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/session"
)

// Hit is one matching entry: where it is and the first match in it.
type Hit struct {
	// File is the session file; SessionID its header id; SessionName the
	// name the session picker shows for it.
	File        string
	SessionID   string
	SessionName string
	// EntryID, Timestamp: the entry's id and ISO timestamp as written.
	EntryID   string
	Timestamp string
	// Role is the kind of text of the first match (RoleUser …).
	Role string
	// OnActiveBranch is true when the entry lies on the path from a root
	// to the session's leaf (its last entry in file order).
	OnActiveBranch bool
	// Branch is, for an abandoned entry, the id of the first entry of its
	// branch (the one that leaves the active branch); Fork the id of the
	// active entry it leaves from ("" when the branch has its own root).
	Branch, Fork string
	// AgentPath is the pi-subagent agent path for an agent's transcript
	// ("" for a Pi session, and for a session of the root's trees that no
	// agent of the selected tree claims); RootFile the root session's file
	// for both kinds of transcript.
	AgentPath string
	RootFile  string
	// Snippet is sanitised one-row text around the first match.
	Snippet Snippet
	// Offset is the file offset of the first match's first byte (in the
	// raw line, escapes included); LineOffset that of the entry's line;
	// Line its 1-based line number.
	Offset     int64
	LineOffset int64
	Line       int
	// Matches counts the matches in the entry (up to 9999).
	Matches int
}

// FileResult is what one file holds for the query, hits in file order.
type FileResult struct {
	Source      Source
	SessionID   string
	SessionName string
	Hits        []Hit
	// Cached is true when the cache answered without reading the file.
	Cached bool
}

// Title names the file for people: the session's name or, for an agent
// transcript, "agent <path>" followed by the name when it says more than
// the path (pi-subagent names a transcript "[subagent] <path>"). It is
// file-derived text: sanitise it before it reaches a terminal.
func (r FileResult) Title() string {
	a := r.Source.AgentPath
	switch {
	case a == "":
		return r.SessionName
	case r.SessionName == "" || strings.Contains(r.SessionName, a):
		return "agent " + a
	}
	return "agent " + a + " · " + r.SessionName
}

// Options tune a search. The zero value is ready to use.
type Options struct {
	// Limit stops the search after this many hits (0 = no limit).
	Limit int
	// Workers is the number of files or parts read at once (GOMAXPROCS).
	Workers int
	// BufferBytes is each worker's read buffer (1 MiB).
	BufferBytes int
	// MaxLineBytes skips longer lines (MaxLineBytes).
	MaxLineBytes int
	// PartBytes splits larger files into parts read by several workers
	// (16 MiB).
	PartBytes int64
	// NoCache keeps nothing for later searches (a one-off search, as the
	// CLI's: memory then stays bounded whatever the number of hits).
	NoCache bool
}

func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.BufferBytes <= 0 {
		o.BufferBytes = defaultBufferBytes
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = MaxLineBytes
	}
	if o.PartBytes <= 0 {
		o.PartBytes = 16 << 20
	}
	return o
}

// Stats describes a finished search.
type Stats struct {
	Files  int   // files in the scope
	Read   int   // files read
	Cached int   // files the cache answered
	Bytes  int64 // bytes read while scanning
	Hits   int   // hits delivered
	// Oversized counts candidate lines skipped for being over the line limit.
	Oversized int
	// Limited is true when the search stopped at Options.Limit.
	Limited bool
	// Problems name files that could not be read (the search went on).
	Problems []string
}

// Searcher runs searches and keeps the process-local cache between them.
// It is safe for concurrent use.
type Searcher struct {
	cache cache
	big   bigLines
}

// NewSearcher returns a Searcher with an empty cache.
func NewSearcher() *Searcher { return &Searcher{} }

// fileRun is the state of one file during a search.
type fileRun struct {
	mu      sync.Mutex
	pending int
	hits    []rangeHit
	// trees are what each part recorded of the entry tree (by part), and
	// hasHits tells the parts that one of them found a hit; keepOffsets
	// makes them record offsets, for a tree the cache keeps.
	trees       []*partTree
	hasHits     atomic.Bool
	keepOffsets bool
	oversized   int
	bytes       int64
	err         error
	result      FileResult
	cached      bool // the cache answered (result is dropped once delivered)
}

type part struct {
	file       int
	index      int // of the part in its file
	start, end int64
	everything bool // the file escapes every character (parts after the first need telling)
}

// Search reads the sources for the query and calls fn with each file's
// result in source order, from the calling goroutine, as soon as that file
// and every file before it are done; files without hits are passed too
// (with no hits), so a view can show progress. fn returning false stops
// the search. With Options.Limit the last file's hits are cut to the limit
// and the search stops there.
func (s *Searcher) Search(ctx context.Context, m *Matcher, srcs []Source, opt Options, fn func(FileResult) bool) (Stats, error) {
	opt = opt.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st := Stats{Files: len(srcs)}
	key := keyOf(m.q)
	runs := make([]fileRun, len(srcs))
	done := make(chan int, len(srcs))
	window := make(chan struct{}, max(8, 4*opt.Workers))
	parts := make(chan part)

	go func() { // the producer: files in order, at most len(window) ahead
		defer close(parts)
		for i, src := range srcs {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			if res, ok := s.cache.lookup(src, key); ok {
				res.Cached = true
				runs[i].result, runs[i].cached = res, true
				done <- i
				continue
			}
			if src.Size == 0 || (!m.q.Since.IsZero() && src.ModTime.Before(m.q.Since)) {
				runs[i].result = FileResult{Source: src}
				done <- i
				continue
			}
			n := int((src.Size + opt.PartBytes - 1) / opt.PartBytes)
			runs[i].pending = n
			if s.cache.tree(src) == nil {
				runs[i].trees = make([]*partTree, n)
				runs[i].keepOffsets = !opt.NoCache
			}
			everything := false
			if n > 1 {
				if f, err := regfile.OpenSection(src.Path, src.Size); err == nil {
					everything = headEscapesEverything(f, f.Size())
					f.Close()
				}
			}
			for k := 0; k < n; k++ {
				p := part{file: i, index: k, start: int64(k) * opt.PartBytes, end: min(src.Size, int64(k+1)*opt.PartBytes), everything: everything}
				select {
				case parts <- p:
				case <-ctx.Done():
					return
				}
			}
		}
	}()

	var wg sync.WaitGroup
	for range opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newScanner(opt.BufferBytes, opt.MaxLineBytes, &s.big)
			for p := range parts {
				if s.scanPart(ctx, m, sc, srcs[p.file], &runs[p.file], p) {
					s.finish(ctx, m, sc, srcs[p.file], &runs[p.file], key, !opt.NoCache)
					done <- p.file
				}
			}
		}()
	}

	err := s.emit(ctx, runs, done, window, opt.Limit, &st, fn)
	cancel()
	wg.Wait()
	for i := range runs {
		if runs[i].cached {
			st.Cached++
		} else if runs[i].bytes > 0 {
			st.Read++
		}
		st.Bytes += runs[i].bytes
		st.Oversized += runs[i].oversized
	}
	return st, err
}

// emit delivers finished files in order and applies the limit.
func (s *Searcher) emit(ctx context.Context, runs []fileRun, done <-chan int, window <-chan struct{}, limit int, st *Stats, fn func(FileResult) bool) error {
	ready := make([]bool, len(runs))
	next := 0
	for next < len(runs) {
		select {
		case i := <-done:
			ready[i] = true
		case <-ctx.Done():
			return ctx.Err()
		}
		for next < len(runs) && ready[next] {
			run := &runs[next]
			<-window
			next++
			if run.err != nil {
				st.Problems = append(st.Problems, run.err.Error())
				continue
			}
			res := run.result
			run.result = FileResult{} // delivered: the caller keeps what it wants
			if limit > 0 && st.Hits+len(res.Hits) >= limit {
				res.Hits = res.Hits[:limit-st.Hits]
				st.Hits = limit
				st.Limited = true
				fn(res)
				return nil
			}
			st.Hits += len(res.Hits)
			if !fn(res) {
				return nil
			}
		}
	}
	return nil
}

// scanPart scans one part of a file and reports whether it was the file's
// last part to finish.
func (s *Searcher) scanPart(ctx context.Context, m *Matcher, sc *scanner, src Source, run *fileRun, p part) bool {
	var res rangeResult
	var tree *partTree
	if run.trees != nil {
		tree = &partTree{keepOffsets: run.keepOffsets}
		sc.tree, sc.hasHits = tree, &run.hasHits
		defer func() { sc.tree, sc.hasHits = nil, nil }()
	}
	f, err := regfile.OpenSection(src.Path, src.Size) // listed earlier: it may be a FIFO by now
	if err == nil {
		res, err = sc.scanRange(ctx, m, f, f.Size(), p.start, p.end, p.everything)
		for i := range res.hits {
			res.hits[i].at.part = int32(p.index)
		}
		if err == nil && tree != nil && run.hasHits.Load() {
			// The file has hits: read what this part left before they
			// came now, on this worker, not in the file's last step.
			err = sc.fillPart(ctx, f, f.Size(), tree, int32(p.index), res.hits)
		}
		f.Close()
	}
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.trees != nil {
		run.trees[p.index] = tree
	}
	run.hits = append(run.hits, res.hits...)
	run.oversized += res.oversized
	run.bytes += res.bytes
	if err != nil && run.err == nil && ctx.Err() == nil {
		run.err = searchError(src, err)
	}
	run.pending--
	return run.pending == 0
}

// finish places a file's hits in its tree, names the session and, with
// remember, stores the result, the tree and the name in the cache.
func (s *Searcher) finish(ctx context.Context, m *Matcher, sc *scanner, src Source, run *fileRun, key queryKey, remember bool) {
	hits, trees := run.hits, run.trees
	run.hits, run.trees = nil, nil // placed into run.result below, or dropped
	if run.err != nil || ctx.Err() != nil {
		return
	}
	res := FileResult{Source: src}
	if len(hits) > 0 {
		sort.Slice(hits, func(a, b int) bool { return hits[a].lineOff < hits[b].lineOff })
		var tree *treeInfo
		if trees == nil {
			tree = s.cache.tree(src) // the scan did not record: hits are found by offset
		}
		if tree == nil {
			var err error
			tree, err = s.placeTree(ctx, sc, src, trees, hits, remember)
			switch {
			case errors.Is(err, errNotSession):
				run.result = res // not a Pi session: nothing in it counts
				if remember {
					s.cache.store(src, key, res)
				}
				return
			case err != nil:
				if ctx.Err() == nil {
					run.err = searchError(src, err)
				}
				return
			}
			if remember {
				s.cache.storeTree(src, tree)
			}
		}
		var err error
		res, err = s.place(src, tree, hits, remember)
		if err != nil {
			run.err = fmt.Errorf("search %s: %w", src.Path, err)
			return
		}
	}
	run.result = res
	if remember {
		s.cache.store(src, key, res)
	}
}

// searchError says which file a search could not read; the opener's
// errors name it already.
func searchError(src Source, err error) error {
	var pe *fs.PathError
	if errors.Is(err, regfile.ErrNotRegular) || errors.Is(err, regfile.ErrTooLarge) || errors.As(err, &pe) {
		return fmt.Errorf("search: %w", err)
	}
	return fmt.Errorf("search %s: %w", src.Path, err)
}

// placeTree builds the tree of a file with hits (sorted by offset) from
// what its parts recorded while they were scanned, reading only what they
// left (the stretches scanned before the first hit); without records (or
// when a line read quickly precedes the header) it makes the whole tree
// pass. Either way it notes on each hit where its line is in the tree;
// keep makes the tree keep offsets, for the cache.
func (s *Searcher) placeTree(ctx context.Context, sc *scanner, src Source, parts []*partTree, hits []rangeHit, keep bool) (*treeInfo, error) {
	if parts == nil {
		return s.readTree(ctx, sc, src, hits, keep)
	}
	f, err := regfile.OpenSection(src.Path, src.Size)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := sc.fill(ctx, f, f.Size(), parts, hits); err != nil {
		return nil, err
	}
	tree, err := merge(parts)
	if errors.Is(err, errQuickBeforeHeader) {
		return sc.readTree(ctx, f, f.Size(), hits, keep)
	}
	return tree, err
}

func (s *Searcher) readTree(ctx context.Context, sc *scanner, src Source, hits []rangeHit, keep bool) (*treeInfo, error) {
	f, err := regfile.OpenSection(src.Path, src.Size)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sc.readTree(ctx, f, f.Size(), hits, keep)
}

// place turns the raw hits of a file into Hits.
func (s *Searcher) place(src Source, tree *treeInfo, hits []rangeHit, remember bool) (FileResult, error) {
	res := FileResult{Source: src, SessionID: tree.sessionID, SessionName: s.sessionName(src, remember)}
	var v1 map[int32]string
	if tree.v1 {
		var err error
		if v1, err = v1IDs(src.Path); err != nil {
			return res, err
		}
	}
	for k := range hits {
		rh := &hits[k]
		i, line, ok, err := tree.locate(rh)
		if err != nil {
			return res, err
		}
		if !ok {
			continue // not an entry of the session (e.g. a second header)
		}
		h := rh.hit
		hit := Hit{
			File: src.Path, SessionID: tree.sessionID, SessionName: res.SessionName,
			EntryID: h.id, Timestamp: h.timestamp, Role: h.first.Role,
			AgentPath: src.AgentPath, RootFile: src.RootFile,
			Snippet: h.snippet, Offset: rh.lineOff + int64(h.first.Offset), LineOffset: rh.lineOff,
			Line: line, Matches: h.count,
		}
		if tree.v1 {
			hit.EntryID = v1[int32(line)]
		}
		hit.OnActiveBranch, hit.Branch, hit.Fork = tree.place(i)
		res.Hits = append(res.Hits, hit)
	}
	return res, nil
}

// sessionName is what forgebench calls the session everywhere
// (session.Title over the bounded reads the session picker makes).
func (s *Searcher) sessionName(src Source, remember bool) string {
	if name, ok := s.cache.name(src); ok {
		return name
	}
	it := session.SummarizeFile(src.Path, session.ListOptions{})
	name := it.Title()
	if remember {
		s.cache.storeName(src, name)
	}
	return name
}
