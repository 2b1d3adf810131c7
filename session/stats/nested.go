package stats

import (
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/internal/rawjson"
)

// NestedUsageKey is the toolResult.details member in which a tool whose
// execution itself calls models (a subagent) reports their usage, for
// pi-forge 0.5.5's cache view (FORGE_NESTED_USAGE_KEY, schemaVersion 1):
//
//	{"schemaVersion": 1, "requests": n, "input": n, "output": n,
//	 "cacheRead": n, "cacheWrite": n}
//
// every count a non-negative safe integer, no other member, cacheRead and
// cacheWrite both present or both absent (cache unknown), and requests 0
// only when every count is 0.
const NestedUsageKey = "forgeNestedUsage"

// RunTotals are model requests, the tokens they reported and what they
// cost.
type RunTotals struct {
	Requests   int
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
	// Cost is what is known of their cost; Unpriced counts the requests
	// (main) or tool calls (nested) whose cost is unknown, not in Cost.
	Cost     float64
	Unpriced int
}

// NestedTotals are the runs tools reported through NestedUsageKey, counted
// as pi-forge's cache view counts them (summarizeSessionCacheUsage).
type NestedTotals struct {
	RunTotals
	// Calls are the tool results with a valid report whose figures are in
	// RunTotals; CacheUnknownCalls valid reports without cache counts, left
	// out of every total as pi-forge leaves them out; InvalidCalls
	// malformed reports, ignored.
	Calls             int
	CacheUnknownCalls int
	InvalidCalls      int
}

// Streams are a scope's model requests in pi-forge's two streams, never
// mixed: Main, the session model's own requests, and Nested, the runs made
// inside tool calls.
type Streams struct {
	Main   RunTotals
	Nested NestedTotals
}

// Any reports whether a tool call in the scope reported nested usage
// (valid or not).
func (n *NestedTotals) Any() bool {
	return n.Calls+n.CacheUnknownCalls+n.InvalidCalls > 0
}

// SplitStreams reads the requests among the entries at indexes (a
// branch's path, or every entry) into the two streams. Main are the
// assistant messages whose usage reports a token (pi-forge leaves out
// aborted and failed requests that reported none), with each count taken
// when finite and positive, as pi-forge does, priced as Requests prices
// them. Nested are the tool results carrying NestedUsageKey; a counted
// call's cost is the tool result's own Pi usage cost (pi-forge-subagents
// writes it beside the report when its figures are complete), else the
// call is unpriced — the report itself names no model and carries no cost.
func SplitStreams(s *session.Session, indexes []int, cat *catalog.Catalog) Streams {
	return StreamsOf(s, indexes, Requests(s, indexes, cat))
}

// StreamsOf is SplitStreams for a caller that already has the requests
// Requests gives for the same indexes (session stats draws them too).
func StreamsOf(s *session.Session, indexes []int, requests []Request) Streams {
	var out Streams
	for _, r := range requests {
		u := r.Usage
		in, o, cr, cw := positive(u.Input), positive(u.Output), positive(u.CacheRead), positive(u.CacheWrite)
		if in+o+cr+cw <= 0 {
			continue
		}
		m := &out.Main
		m.Requests++
		m.Input, m.Output, m.CacheRead, m.CacheWrite = m.Input+in, m.Output+o, m.CacheRead+cr, m.CacheWrite+cw
		if r.Priced {
			m.Cost += r.Cost
		} else {
			m.Unpriced++
		}
	}
	for _, i := range indexes {
		e := &s.Entries[i]
		if e.Type != session.TypeMessage || e.Role != session.RoleToolResult {
			continue
		}
		report, present := nestedReport(e.MessageRaw())
		if !present {
			continue
		}
		n := &out.Nested
		u, ok := ParseNestedUsage(report)
		switch {
		case !ok:
			n.InvalidCalls++
			continue
		case !u.CacheKnown:
			n.CacheUnknownCalls++
			continue
		}
		n.Calls++
		n.Requests += int(u.Requests)
		n.Input += u.Input
		n.Output += u.Output
		n.CacheRead += u.CacheRead
		n.CacheWrite += u.CacheWrite
		if r := readStatRecord(e, nil); r.hasUsage && r.hasCost {
			n.Cost += r.costTotal
		} else {
			n.Unpriced++
		}
	}
	out.Main.Cost, out.Nested.Cost = RoundSum(out.Main.Cost), RoundSum(out.Nested.Cost)
	return out
}

// positive is pi-forge's tokenCount: a finite positive count, else 0.
func positive(v float64) float64 {
	if v > 0 && !math.IsInf(v, 1) {
		return v
	}
	return 0
}

// nestedReport finds message.details[NestedUsageKey] of a tool result
// (the last duplicate, as JSON.parse keeps it); present is false when
// details is not an object or has no such member.
func nestedReport(message []byte) (report []byte, present bool) {
	details := rawjson.Member(message, "details")
	if i := rawjson.SkipWS(details, 0); i >= len(details) || details[i] != '{' {
		return nil, false
	}
	report = rawjson.Member(details, NestedUsageKey)
	return report, report != nil
}

// NestedUsage is one valid NestedUsageKey report.
type NestedUsage struct {
	Requests, Input, Output float64
	// CacheKnown is false when the report left both cache counts out.
	CacheKnown            bool
	CacheRead, CacheWrite float64
}

// nestedMembers are the members a report may have.
var nestedMembers = map[string]bool{"schemaVersion": true, "requests": true, "input": true,
	"output": true, "cacheRead": true, "cacheWrite": true}

// ParseNestedUsage reads a report's raw JSON as pi-forge's strict
// parseForgeNestedUsage does; ok is false for anything malformed.
func ParseNestedUsage(raw []byte) (u NestedUsage, ok bool) {
	v, err := jsonv.Parse(raw)
	if err != nil {
		return u, false
	}
	o, isObject := v.(*jsonv.Object)
	if !isObject {
		return u, false
	}
	for _, k := range o.Keys() {
		if !nestedMembers[k] {
			return u, false
		}
	}
	if version, _ := o.Get("schemaVersion"); version != float64(1) {
		return u, false
	}
	var counts [5]float64
	for k, name := range [...]string{"requests", "input", "output", "cacheRead", "cacheWrite"} {
		v, has := o.Get(name)
		if !has && k >= 3 {
			continue
		}
		n, isCount := safeCount(v)
		if !isCount {
			return u, false
		}
		counts[k] = n
	}
	if o.Has("cacheRead") != o.Has("cacheWrite") {
		return u, false
	}
	if counts[0] == 0 && counts[1]+counts[2]+counts[3]+counts[4] > 0 {
		return u, false
	}
	return NestedUsage{Requests: counts[0], Input: counts[1], Output: counts[2],
		CacheKnown: o.Has("cacheRead"), CacheRead: counts[3], CacheWrite: counts[4]}, true
}

// safeCount is Number.isSafeInteger(v) && v >= 0.
func safeCount(v any) (float64, bool) {
	f, ok := v.(float64)
	if !ok || f < 0 || f > 1<<53-1 || f != math.Trunc(f) {
		return 0, false
	}
	return f, true
}

// StreamsValue is the JSON of a Streams value (`session stats --json`'s
// "streams"):
//
//	{"main": {"requests", "input", "output", "cacheRead", "cacheWrite", "cost", "unpriced"},
//	 "nested": {"calls", "cacheUnknownCalls", "invalidCalls", "requests", "input", "output",
//	            "cacheRead", "cacheWrite", "cost", "unpriced"}}
func StreamsValue(st Streams) *jsonv.Object {
	m, n := st.Main, st.Nested
	return orderedObject(
		"main", orderedObject("requests", float64(m.Requests), "input", m.Input, "output", m.Output,
			"cacheRead", m.CacheRead, "cacheWrite", m.CacheWrite, "cost", m.Cost, "unpriced", float64(m.Unpriced)),
		"nested", orderedObject("calls", float64(n.Calls), "cacheUnknownCalls", float64(n.CacheUnknownCalls),
			"invalidCalls", float64(n.InvalidCalls), "requests", float64(n.Requests), "input", n.Input, "output", n.Output,
			"cacheRead", n.CacheRead, "cacheWrite", n.CacheWrite, "cost", n.Cost, "unpriced", float64(n.Unpriced)))
}
