package session

import (
	"runtime"
	"sync/atomic"
)

// describeChunk is how many entries one helper describes at a time.
const describeChunk = 256

// DescribeInOrder calls fn(k, summary) for k = 0 … n-1 in that order, on
// the caller's goroutine, where summary is DescribeEntry(entry(k)). The
// other cores describe the entries ahead (at most a few chunks, so memory
// stays flat however many entries there are): a tree or an export that
// prints a line per entry describes a session on every core. fn must not
// keep the summary pointer. A fault in a mapped file on a helper
// goroutine is raised again on the caller's, for GuardFaults.
func DescribeInOrder(n int, entry func(k int) *Entry, fn func(k int, sum *EntrySummary)) {
	describeInOrder(n, func(e *Entry) EntrySummary { return DescribeEntryClipped(e, summaryRunes) }, entry, fn)
}

// DescribeLinesInOrder is DescribeInOrder for lines that show an entry's
// kind and text in a column of runes: each summary's Text is clipped to
// runes (DescribeEntryClipped), and Tokens and ToolCalls are not counted
// (zero). A tree that shows 80 runes of each entry builds no wider text.
func DescribeLinesInOrder(n, runes int, entry func(k int) *Entry, fn func(k int, sum *EntrySummary)) {
	describeInOrder(n, func(e *Entry) EntrySummary { return describeLine(e, runes) }, entry, fn)
}

// describeInOrder is DescribeInOrder with describeOne for DescribeEntry.
func describeInOrder(n int, describeOne func(*Entry) EntrySummary, entry func(k int) *Entry, fn func(k int, sum *EntrySummary)) {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || n < 2*describeChunk {
		for k := 0; k < n; k++ {
			sum := describeOne(entry(k))
			fn(k, &sum)
		}
		return
	}
	chunks := (n + describeChunk - 1) / describeChunk
	window := 4 * workers // chunks described but not yet consumed, at most
	slots := make([][]EntrySummary, window)
	for i := range slots {
		slots[i] = make([]EntrySummary, describeChunk)
	}
	done := make([]chan struct{}, chunks)
	for c := range done {
		done[c] = make(chan struct{})
	}
	free := make(chan struct{}, window) // a token per chunk that may be taken
	for range window {
		free <- struct{}{}
	}
	quit := make(chan struct{})
	var next atomic.Int64
	var failed atomic.Bool
	var g FaultGroup
	for range workers {
		g.Go(func() {
			for {
				select {
				case <-free:
				case <-quit:
					return
				}
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				describeChunkAt(c, n, describeOne, slots[c%window], entry, done[c], &failed)
			}
		})
	}
	defer g.Wait() // re-raises a helper's fault after the loop stopped
	defer close(quit)
	for c := 0; c < chunks; c++ {
		<-done[c]
		if failed.Load() {
			return
		}
		lo := c * describeChunk
		sums := slots[c%window]
		for k := lo; k < min(n, lo+describeChunk); k++ {
			fn(k, &sums[k-lo])
		}
		free <- struct{}{}
	}
}

// describeChunkAt describes the entries of chunk c into sums and closes
// done, also when describing faults (failed then says so).
func describeChunkAt(c, n int, describeOne func(*Entry) EntrySummary, sums []EntrySummary, entry func(int) *Entry, done chan struct{}, failed *atomic.Bool) {
	defer close(done)
	defer func() {
		if r := recover(); r != nil {
			failed.Store(true)
			panic(r)
		}
	}()
	lo := c * describeChunk
	for k := lo; k < min(n, lo+describeChunk); k++ {
		sums[k-lo] = describeOne(entry(k))
	}
}
