package find

import (
	"context"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session/search"
)

// Messages of the search view's commands.
type (
	// debounceMsg starts the search for the query typed last, once the
	// user paused (seq tells a stale pause from the current one).
	debounceMsg struct{ seq int }
	// batchMsg carries what a running search found since the last batch.
	batchMsg struct {
		gen     int
		files   []search.FileResult // files with hits, in search order
		scanned int                 // files done so far
		total   int                 // files in scope
		done    bool
		stats   search.Stats
		err     error
		// feed is where the next batch comes from (nil once done).
		feed *feed
	}
)

// feed connects a search running in its own goroutine with the view: the
// search pushes each file with hits; the view's command takes whatever has
// arrived, so the screen is redrawn per batch, not per file.
type feed struct {
	files   chan search.FileResult
	done    chan batchMsg
	scanned atomic.Int64
	total   int
}

// batchWait bounds how long a batch waits for more files before the view
// shows progress anyway.
const batchWait = 100 * time.Millisecond

// startCmd resolves where the workspace's sessions are, lists the files
// and starts the search in the background; it returns the first batch.
func startCmd(ctx context.Context, gen int, s *search.Searcher, m *search.Matcher, opt search.Options, svc *services.Services, all, agents bool) tea.Cmd {
	return func() tea.Msg {
		srcs, err := search.ListSources(scopeFor(svc, all, agents))
		if err != nil {
			return batchMsg{gen: gen, done: true, err: err}
		}
		f := &feed{files: make(chan search.FileResult, 64), done: make(chan batchMsg, 1), total: len(srcs)}
		go func() {
			st, err := s.Search(ctx, m, srcs, opt, func(r search.FileResult) bool {
				f.scanned.Add(1)
				if len(r.Hits) == 0 {
					return true
				}
				select {
				case f.files <- r:
					return true
				case <-ctx.Done():
					return false
				}
			})
			close(f.files)
			f.done <- batchMsg{gen: gen, done: true, stats: st, err: err, total: len(srcs)}
		}()
		return f.next(gen)
	}
}

// waitCmd delivers the next batch of a running search.
func waitCmd(gen int, f *feed) tea.Cmd {
	return func() tea.Msg { return f.next(gen) }
}

// next blocks for the next file with hits (or until batchWait passes),
// then takes every file already waiting.
func (f *feed) next(gen int) batchMsg {
	b := batchMsg{gen: gen, total: f.total, feed: f}
	timer := time.NewTimer(batchWait)
	defer timer.Stop()
	select {
	case r, ok := <-f.files:
		if !ok {
			return f.finish(b)
		}
		b.files = append(b.files, r)
	case <-timer.C:
	}
	for {
		select {
		case r, ok := <-f.files:
			if !ok {
				return f.finish(b)
			}
			b.files = append(b.files, r)
			continue
		default:
		}
		break
	}
	b.scanned = int(f.scanned.Load())
	return b
}

// finish is the last batch: the files still queued and the search's stats.
func (f *feed) finish(b batchMsg) batchMsg {
	last := <-f.done
	last.files = append(b.files, last.files...)
	last.scanned = int(f.scanned.Load())
	last.feed = nil
	return last
}

// scopeFor is the search scope of the workspace: where Pi keeps its
// sessions for the cwd (a custom session directory honoured).
func scopeFor(svc *services.Services, all, agents bool) search.Scope {
	loc, _ := svc.Locations()
	return search.Scope{Loc: loc, Cwd: svc.Workspace().Cwd, Home: svc.Home(), AllProjects: all, Agents: agents}
}
