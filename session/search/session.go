package search

import (
	"context"
	"runtime"
	"sync"

	"github.com/forgebench/forgebench/session"
)

// EntryHit is an entry of a loaded session that matches, with its matches.
type EntryHit struct {
	// Index is the entry's position in Session.Entries.
	Index   int
	Matches []Match
}

// MatchSession finds the entries of a loaded session that match (the
// Session panel's search): the same prefilter as a file search runs over
// each entry's raw line, on all cores, and only candidates are decoded.
// Hits are in file order; at most perEntry matches are kept per entry (0:
// all). It stops early, returning what it has, when ctx is cancelled.
func (m *Matcher) MatchSession(ctx context.Context, s *session.Session, perEntry int) []EntryHit {
	everything := m.pf.all || escapesEverything(s.Header.Raw)
	n := len(s.Entries)
	workers := min(runtime.GOMAXPROCS(0), max(1, n/256))
	chunk := (n + workers - 1) / max(workers, 1)
	parts := make([][]EntryHit, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var cur cursor
			for i := w * chunk; i < min(n, (w+1)*chunk); i++ {
				if i%1024 == 0 && ctx.Err() != nil {
					return
				}
				e := &s.Entries[i]
				cur.reset(m.pf, e.Raw, everything)
				if cur.candidate(0) < 0 {
					continue
				}
				if ms := m.EntryMatches(e, perEntry); len(ms) > 0 {
					parts[w] = append(parts[w], EntryHit{Index: i, Matches: ms})
				}
			}
		}()
	}
	wg.Wait()
	var out []EntryHit
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
