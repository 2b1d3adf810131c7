// Package cachemiss finds the requests of a Pi session that lost their
// prompt-cache prefix exactly as Pi 1.6.0 counts them (core/cache-stats.js,
// collectCacheMisses, behind showCacheMissNotices), with what forgebench
// adds on top of Pi's set: the previous request, the idle gap and its
// retention, and the session's totals.
//
// Pi's rule, over the entries it is given in order (Pi's interactive mode
// gives every entry of the file, getEntries(), not only the active branch):
// an assistant message misses when min(previous prompt, this prompt) −
// cacheRead exceeds 1,024 tokens, with prompt = input + cacheRead +
// cacheWrite; a compaction or a branch_summary forgets the previous request;
// a usage entry of kind "cache_warm" becomes the previous request; a turn
// that reports no cache figures counts only after cache activity was
// reported; the missed cost is the missed tokens at this request's paid
// rate (input and cache write) minus its read rate (from the model catalog
// when it read nothing).
package cachemiss

import (
	"math"
	"runtime"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/internal/rawjson"
)

// NoiseFloorTokens is Pi's noise floor: a miss of at most this many tokens
// is cache-breakpoint granularity, not counted.
const NoiseFloorTokens = 1024

// Miss is one request Pi counts as a cache miss.
type Miss struct {
	// Index and EntryID locate the assistant message that paid for it.
	Index   int
	EntryID string
	// PreviousIndex and PreviousEntryID locate the previous request: an
	// assistant message or a cache_warm usage entry.
	PreviousIndex   int
	PreviousEntryID string
	// Provider and Model name the model that answered; PreviousModel is
	// the previous request's "provider/model".
	Provider, Model string
	PreviousModel   string
	// TimestampMs is the message's timestamp (NaN when it has none).
	TimestampMs float64
	// IdleMs is Pi's idleMs: the time since the previous request, at least
	// 0 (NaN when either time is unknown).
	IdleMs float64
	// LongRetention is true when the last cache writes before this request
	// were long-retention (usage.cacheWrite1h > 0): the cache then lives an
	// hour, not five minutes.
	LongRetention bool
	// ModelChanged is Pi's modelChanged: provider/model differs from the
	// previous request's.
	ModelChanged bool
	// MissedTokens and MissedCost are Pi's figures; CostKnown is false when
	// the message recorded no cost and the catalog does not know the model,
	// or recorded nothing but zeros for a model the catalog does not know
	// (the prices are unknown: MissedCost is then not a price).
	MissedTokens float64
	MissedCost   float64
	CostKnown    bool
	// Usage is this request's token counts.
	Usage catalog.Usage
}

// Result is what Detect finds in one session.
type Result struct {
	// Misses are Pi's misses, in entry order.
	Misses []Miss
	// Requests counts the assistant messages with a usage object; Tokens
	// sums their counts.
	Requests int
	Tokens   catalog.Usage
	// Needed is the prompt tokens that were new to the cache: each
	// request's prompt beyond the previous request's (the whole prompt
	// after a reset or at the start). RewriteFactor = Tokens.CacheWrite /
	// Needed.
	Needed float64
}

// request is Pi's "previous request".
type request struct {
	index         int
	promptTokens  float64
	provider      string
	model         string
	timestampMs   float64
	reportedCache bool
}

// Detect runs Pi's detector over the entries of s at indexes, in that order
// (nil: every entry of the file, in file order, as Pi's interactive mode
// does). cat prices a request that read nothing from the cache (its
// cache-read rate), and one that recorded no cost; nil is an empty catalog.
func Detect(s *session.Session, indexes []int, cat *catalog.Catalog) Result {
	n := len(s.Entries)
	if indexes != nil {
		n = len(indexes)
	}
	var ahead *readAhead
	if n >= readAheadMin && runtime.GOMAXPROCS(0) > 1 {
		ahead = &readAhead{}
	}
	return detect(s.Entries, indexes, cat, ahead)
}

// readAheadMin is the entry count from which Detect reads the assistant
// messages ahead on every core: a long session's messages take most of
// its time, and the detector's walk itself is cheap.
const readAheadMin = 1 << 14

// readAhead reads the assistant messages of the entries to walk, a
// window at a time, on every core, ahead of the detector's walk (which
// must stay in order: each request is measured against the one before).
type readAhead struct {
	lo, hi int // the window read: walk positions [lo, hi)
	window []assistant
}

// readAheadWindow is how many walk positions one window reads.
const readAheadWindow = 1 << 13

// at is the assistant message at position k of the walk over the n
// entries (of entries, or those at indexes), read with its window.
func (r *readAhead) at(entries []session.Entry, indexes []int, n, k int) *assistant {
	if k < r.lo || k >= r.hi {
		r.lo, r.hi = k, min(n, k+readAheadWindow)
		if cap(r.window) < r.hi-r.lo {
			r.window = make([]assistant, readAheadWindow)
		}
		r.window = r.window[:r.hi-r.lo]
		chunk := (r.hi - r.lo + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0)
		session.ForEachRange(r.hi-r.lo, chunk, func(_, a, b int) {
			for j := a; j < b; j++ {
				i := r.lo + j
				if indexes != nil {
					i = indexes[i]
				}
				if e := &entries[i]; e.Type == session.TypeMessage && e.Role == session.RoleAssistant {
					r.window[j] = readAssistant(e)
				}
			}
		})
	}
	return &r.window[k-r.lo]
}

// detect is Detect over a session's entries (in file order, the header
// left out, as session.Session holds them and Scanner reads them); ahead
// (nil: none) reads the assistant messages ahead of the walk.
func detect(entries []session.Entry, indexes []int, cat *catalog.Catalog, ahead *readAhead) Result {
	var res Result
	var prev *request
	var prevSlot request
	long := false
	n := len(entries)
	if indexes != nil {
		n = len(indexes)
	}
	for k := 0; k < n; k++ {
		i := k
		if indexes != nil {
			i = indexes[k]
		}
		e := &entries[i]
		switch e.Type {
		case session.TypeCompaction, session.TypeBranchSummary:
			prev = nil
			continue
		case session.TypeUsage:
			if kind, _ := e.Field("kind").Str(); kind != "cache_warm" {
				continue
			}
			u := readUsage(e.Field("usage"))
			if !u.present {
				continue
			}
			if p := u.input + u.cacheRead + u.cacheWrite; p > 0 {
				prevSlot = request{index: i, promptTokens: p, provider: jsString(e.Field("provider")),
					model: jsString(e.Field("model")), timestampMs: e.TimestampMs(), reportedCache: true}
				prev = &prevSlot
			}
			if u.cacheWrite > 0 {
				long = u.cacheWrite1h > 0
			}
		case session.TypeMessage:
			if e.Role != session.RoleAssistant {
				continue
			}
			var m assistant
			if ahead != nil {
				m = *ahead.at(entries, indexes, n, k)
			} else {
				m = readAssistant(e)
			}
			if !m.usage.present {
				// Pi would fail on this message (usage.input of
				// undefined); forgebench passes over it.
				continue
			}
			u := &m.usage
			res.Requests++
			res.Tokens.Input += finite(u.input)
			res.Tokens.Output += finite(u.output)
			res.Tokens.CacheRead += finite(u.cacheRead)
			res.Tokens.CacheWrite += finite(u.cacheWrite)
			promptTokens := u.input + u.cacheRead + u.cacheWrite
			if promptTokens > 0 {
				grown := promptTokens
				if prev != nil {
					grown = promptTokens - prev.promptTokens
				}
				if grown > 0 && !math.IsInf(grown, 0) {
					res.Needed += grown
				}
			}
			if miss, ok := detectMiss(prev, i, e, &m, cat); ok {
				miss.LongRetention = long
				miss.PreviousEntryID = entries[miss.PreviousIndex].ID
				res.Misses = append(res.Misses, miss)
			}
			if promptTokens > 0 {
				reported := prev != nil && prev.reportedCache
				prevSlot = request{index: i, promptTokens: promptTokens, provider: m.provider, model: m.model,
					timestampMs: m.timestampMs, reportedCache: reported || u.cacheRead+u.cacheWrite > 0}
				prev = &prevSlot
			}
			if u.cacheWrite > 0 {
				long = u.cacheWrite1h > 0
			}
		}
	}
	return res
}

// RewriteFactor is cache-write tokens / tokens that needed writing; ok is
// false when nothing needed writing.
func (r *Result) RewriteFactor() (float64, bool) {
	if r.Needed <= 0 {
		return 0, false
	}
	return r.Tokens.CacheWrite / r.Needed, true
}

// detectMiss is Pi's detectMiss for the assistant message e at index i.
func detectMiss(prev *request, i int, e *session.Entry, m *assistant, cat *catalog.Catalog) (Miss, bool) {
	u := &m.usage
	promptTokens := u.input + u.cacheRead + u.cacheWrite
	if prev == nil || promptTokens <= 0 || (u.cacheRead+u.cacheWrite == 0 && !prev.reportedCache) {
		return Miss{}, false
	}
	missed := math.Min(prev.promptTokens, promptTokens) - u.cacheRead
	if missed <= NoiseFloorTokens {
		return Miss{}, false
	}
	miss := Miss{
		Index: i, EntryID: e.ID, PreviousIndex: prev.index, Provider: m.provider, Model: m.model,
		TimestampMs: m.timestampMs, MissedTokens: missed, PreviousModel: prev.provider + "/" + prev.model,
		ModelChanged: m.provider+"/"+m.model != prev.provider+"/"+prev.model,
		Usage: catalog.Usage{Input: u.input, Output: u.output, CacheRead: u.cacheRead,
			CacheWrite: u.cacheWrite, CacheWrite1h: u.cacheWrite1h},
	}
	miss.IdleMs = math.Max(0, m.timestampMs-prev.timestampMs)
	if math.IsNaN(m.timestampMs) || math.IsNaN(prev.timestampMs) {
		miss.IdleMs = math.NaN()
	}
	model, known := cat.Lookup(m.provider, m.model)
	cost := u.cost
	switch {
	case cost.present:
		miss.CostKnown = known || cost.input != 0 || cost.cacheWrite != 0 || cost.cacheRead != 0
	case known:
		// Pi fails on a message without a cost; forgebench prices it
		// from the catalog, as session stats does.
		c := model.Cost(miss.Usage)
		cost = usageCost{present: true, input: c.Input, cacheRead: c.CacheRead, cacheWrite: c.CacheWrite}
		miss.CostKnown = true
	}
	paidTokens := u.input + u.cacheWrite
	paidPerToken := 0.0
	if paidTokens > 0 {
		paidPerToken = (cost.input + cost.cacheWrite) / paidTokens
	}
	var readPerToken float64
	if u.cacheRead > 0 {
		readPerToken = cost.cacheRead / u.cacheRead
	} else if known {
		readPerToken = model.Pricing.CacheRead / 1_000_000
	}
	miss.MissedCost = missed * math.Max(0, paidPerToken-readPerToken)
	if math.IsNaN(paidPerToken - readPerToken) {
		miss.MissedCost = math.NaN() // Math.max(0, NaN) is NaN
	}
	return miss, true
}

// usageCost is usage.cost as Pi reads it.
type usageCost struct {
	present                      bool
	input, cacheRead, cacheWrite float64
}

// usage is a usage object's counts with JavaScript's arithmetic in mind: a
// missing member is undefined (NaN in a sum), null counts 0.
type usage struct {
	present                                            bool
	input, output, cacheRead, cacheWrite, cacheWrite1h float64
	cost                                               usageCost
}

// assistant is what the detector reads of an assistant message.
type assistant struct {
	usage           usage
	provider, model string
	timestampMs     float64
}

// readAssistant reads usage, provider, model and timestamp of e's message
// in one pass (the last duplicate member wins, as in JSON.parse).
func readAssistant(e *session.Entry) assistant {
	var a assistant
	var usageRaw, provider, model, timestamp []byte
	rawjson.EachMember(e.MessageRaw(), func(k, v []byte) bool {
		switch string(k) {
		case "usage":
			usageRaw = v
		case "provider":
			provider = v
		case "model":
			model = v
		case "timestamp":
			timestamp = v
		}
		return true
	})
	a.usage = readUsage(usageRaw)
	a.provider, a.model = jsString(provider), jsString(model)
	a.timestampMs = jsNumber(timestamp)
	return a
}

// readUsage reads a usage object; present is false when raw is not one.
func readUsage(raw []byte) usage {
	u := usage{input: math.NaN(), output: math.NaN(), cacheRead: math.NaN(), cacheWrite: math.NaN()}
	if len(raw) == 0 || raw[0] != '{' {
		return u
	}
	u.present = true
	rawjson.EachMember(raw, func(k, v []byte) bool {
		switch string(k) {
		case "input":
			u.input = jsNumber(v)
		case "output":
			u.output = jsNumber(v)
		case "cacheRead":
			u.cacheRead = jsNumber(v)
		case "cacheWrite":
			u.cacheWrite = jsNumber(v)
		case "cacheWrite1h":
			u.cacheWrite1h = finite(jsNumber(v))
		case "cost":
			u.cost = readCost(v)
		}
		return true
	})
	return u
}

// readCost reads usage.cost's input, cacheRead and cacheWrite.
func readCost(raw []byte) usageCost {
	c := usageCost{input: math.NaN(), cacheRead: math.NaN(), cacheWrite: math.NaN()}
	if len(raw) == 0 || raw[0] != '{' {
		return usageCost{}
	}
	c.present = true
	rawjson.EachMember(raw, func(k, v []byte) bool {
		switch string(k) {
		case "input":
			c.input = jsNumber(v)
		case "cacheRead":
			c.cacheRead = jsNumber(v)
		case "cacheWrite":
			c.cacheWrite = jsNumber(v)
		}
		return true
	})
	return c
}

// jsNumber is the value of a raw JSON member in JavaScript's arithmetic:
// a number as is, null 0, true 1, false 0, anything else (missing, a
// string, an object) NaN.
func jsNumber(v []byte) float64 {
	if f, ok := rawjson.Number(v); ok {
		return f
	}
	switch string(v) {
	case "null", "false":
		return 0
	case "true":
		return 1
	}
	return math.NaN()
}

// finite is f, or 0 when f is NaN or infinite (for totals).
func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// jsString is a raw JSON string's value as a template literal shows it
// ("undefined" when missing, the raw text for other values).
func jsString(v []byte) string {
	if len(v) == 0 {
		return "undefined"
	}
	if s, ok := rawjson.String(v); ok {
		return s
	}
	return string(v)
}

// rawjsonString is the string member key of the raw object obj.
func rawjsonString(obj []byte, key string) (string, bool) {
	return rawjson.String(rawjson.Member(obj, key))
}
