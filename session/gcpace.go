package session

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
)

// A mapped session file lies in a heap allocation (mapFile), so the
// collector counts the whole file as live heap and, with GOGC=100, lets
// the rest of the heap grow by as much as the file before its next cycle:
// beside a 1 GB mapping a program could gather a gigabyte of garbage, all
// of it private memory. The pacer below keeps the collector's pace as if
// the mapped bytes were not in the heap: after each cycle, and whenever a
// mapping comes or goes, it sets the GC percentage so that the next goal
// is the mapped bytes plus what GOGC allows for the rest,
//
//	goal = (live) × (1 + p/100) = mapped + other × (1 + GOGC/100)
//	  ⇒ p = GOGC × other / (mapped + other),  live = mapped + other.
//
// Without mappings the process's own GOGC is back in force. GOGC=off is
// left alone.

var pacer struct {
	sync.Mutex
	mapped  int64 // bytes of live mappings
	gogc    int   // the process's GOGC (-1: off), read once
	read    bool  // gogc is known
	watched bool  // a sentinel waits for the next cycle
	percent int   // the percentage last set (0: none set)
	limit   int64 // the memory limit last set (0: none set)
}

// mappedBytes adds delta to the bytes of live mappings and paces the
// collector for the new total.
func mappedBytes(delta int64) {
	pacer.Lock()
	defer pacer.Unlock()
	pacer.mapped += delta
	if !pacer.read {
		pacer.read = true
		pacer.gogc = processGOGC()
	}
	if pacer.gogc < 0 {
		return
	}
	repace()
	if pacer.mapped > 0 && !pacer.watched {
		pacer.watched = true
		watchNextCycle()
	}
}

// processGOGC is the GC percentage the process runs with: GOGC as the
// runtime reads it (100 when unset or not a number, -1 for "off").
func processGOGC() int {
	v := os.Getenv("GOGC")
	if v == "off" {
		return -1
	}
	if n, err := strconv.Atoi(v); err == nil {
		return n
	}
	return 100
}

// minOtherHeap is the least heap besides the mappings the pace assumes
// (the runtime's own smallest goal is 4 MB).
const minOtherHeap = 4 << 20

// repace sets the GC percentage for the mapped bytes and the live heap of
// the last cycle (pacer locked). It also sets a memory limit at that
// goal (and a little room): the runtime keeps freed heap pages resident up
// to its goal, and the goal it computes holds the mapped bytes, so without
// a limit hundreds of MB of freed pages beside a 1 GB mapping stay
// private memory. A GOMEMLIMIT of the user's own is left in force.
func repace() {
	p := pacer.gogc
	limit := int64(math.MaxInt64)
	if pacer.mapped > 0 {
		other := max(liveHeap()-pacer.mapped, minOtherHeap)
		p = max(1, int(int64(pacer.gogc)*other/(pacer.mapped+other)))
		limit = pacer.mapped + other*int64(100+pacer.gogc)/100 + limitSlack
	}
	if p != pacer.percent {
		pacer.percent = p
		debug.SetGCPercent(p)
	}
	if os.Getenv("GOMEMLIMIT") == "" && limit != pacer.limit {
		pacer.limit = limit
		debug.SetMemoryLimit(limit)
	}
}

// limitSlack is what the memory limit allows beyond the heap goal: the
// runtime's own memory (stacks, metadata) and room to allocate while a
// cycle runs.
const limitSlack = 48 << 20

// liveHeap is the heap the last cycle found live (mapped files included).
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// cycleSentinel is garbage from birth: its cleanup runs after the next
// collection cycle. It is larger than the runtime's tiny allocations,
// which share a block and would run it late.
type cycleSentinel struct{ _ [32]byte }

// watchNextCycle repaces after the next collection, and again after each
// one while files are mapped (pacer locked).
func watchNextCycle() {
	runtime.AddCleanup(new(cycleSentinel), func(struct{}) {
		pacer.Lock()
		defer pacer.Unlock()
		if pacer.mapped <= 0 {
			pacer.watched = false
			repace()
			return
		}
		repace()
		watchNextCycle()
	}, struct{}{})
}
