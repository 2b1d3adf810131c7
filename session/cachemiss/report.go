package cachemiss

import (
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// Break is one miss in a report: where, what it cost, why.
type Break struct {
	// File and SessionID name the session.
	File      string
	SessionID string
	Miss      Miss
	Cause     Cause
	// Timestamp is the assistant entry's ISO timestamp ("" when it has none).
	Timestamp string
}

// CostKnown reports whether the break's cost is a price.
func (b *Break) CostKnown() bool { return b.Miss.CostKnown && !math.IsNaN(b.Miss.MissedCost) }

// Report gathers the breaks and totals of many sessions (the cache report).
type Report struct {
	Sessions int
	Requests int
	Tokens   catalog.Usage
	// Needed sums Result.Needed (the re-write factor's denominator).
	Needed float64
	Breaks []Break
}

// Analyze finds the breaks of s (every entry, in file order, as Pi counts
// them) and their causes.
func Analyze(s *session.Session, opts replay.RequestOptions) (Result, []Cause) {
	res := Detect(s, nil, opts.Catalog)
	return res, Explain(s, res.Misses, opts)
}

// Add adds one session's result to the report.
func (r *Report) Add(s *session.Session, res Result, causes []Cause) {
	r.add(s.Path, s.Header.ID, s.Entries, res, causes)
}

// add adds the result of the session at path with the given id and
// entries.
func (r *Report) add(path, id string, entries []session.Entry, res Result, causes []Cause) {
	r.Sessions++
	r.Requests += res.Requests
	r.Tokens.Input += res.Tokens.Input
	r.Tokens.Output += res.Tokens.Output
	r.Tokens.CacheRead += res.Tokens.CacheRead
	r.Tokens.CacheWrite += res.Tokens.CacheWrite
	r.Needed += res.Needed
	if len(res.Misses) == 0 {
		return
	}
	// The report outlives the session: its strings may point into the
	// session's file (mapped, or a Scanner's buffer), so the breaks keep
	// copies of their own.
	path, id = strings.Clone(path), strings.Clone(id)
	r.Breaks = slices.Grow(r.Breaks, len(res.Misses))
	for i := range res.Misses {
		m := res.Misses[i]
		m.EntryID, m.PreviousEntryID = strings.Clone(m.EntryID), strings.Clone(m.PreviousEntryID)
		m.Provider, m.Model, m.PreviousModel = strings.Clone(m.Provider), strings.Clone(m.Model), strings.Clone(m.PreviousModel)
		c := Cause{Kind: causes[i].Kind, Detail: strings.Clone(causes[i].Detail), Ref: strings.Clone(causes[i].Ref), Also: causes[i].Also}
		r.Breaks = append(r.Breaks, Break{File: path, SessionID: id, Miss: m, Cause: c,
			Timestamp: strings.Clone(entries[m.Index].Timestamp)})
	}
}

// Merge adds another report's sessions, totals and breaks (after its own).
func (r *Report) Merge(o *Report) {
	r.Sessions += o.Sessions
	r.Requests += o.Requests
	r.Tokens.Input += o.Tokens.Input
	r.Tokens.Output += o.Tokens.Output
	r.Tokens.CacheRead += o.Tokens.CacheRead
	r.Tokens.CacheWrite += o.Tokens.CacheWrite
	r.Needed += o.Needed
	r.Breaks = append(r.Breaks, o.Breaks...)
}

// HitRate is cacheRead / prompt tokens; ok false when there were none.
func (r *Report) HitRate() (float64, bool) {
	prompt := r.Tokens.Input + r.Tokens.CacheRead + r.Tokens.CacheWrite
	if prompt <= 0 {
		return 0, false
	}
	return r.Tokens.CacheRead / prompt, true
}

// RewriteFactor is cache-write tokens / tokens that needed writing.
func (r *Report) RewriteFactor() (float64, bool) {
	if r.Needed <= 0 {
		return 0, false
	}
	return r.Tokens.CacheWrite / r.Needed, true
}

// Group is the breaks of one cause, item, model or session.
type Group struct {
	// Key identifies the group (a session's is its file); Label is what a
	// table shows for it (a session's id).
	Key, Label   string
	Count        int
	MissedTokens float64
	// MissedCost sums the priced breaks; Priced counts them.
	MissedCost float64
	Priced     int
}

// Dimensions a report groups by.
const (
	ByCause   = "cause"
	ByItem    = "item"
	ByModel   = "model"
	BySession = "session"
)

// GroupBy groups the breaks by dim: cause kinds in Kinds order, anything
// else by missed cost, costliest first (an item is the cause's ref, or the
// kind when the cause names none).
func (r *Report) GroupBy(dim string) []Group {
	idx := map[string]int{}
	var out []Group
	for i := range r.Breaks {
		b := &r.Breaks[i]
		var key, label string
		switch dim {
		case ByItem:
			key = b.Cause.Kind
			if b.Cause.Ref != "" {
				key += " " + b.Cause.Ref
			}
		case ByModel:
			key = b.Miss.Provider + "/" + b.Miss.Model
		case BySession:
			key, label = b.File, b.SessionID
		default:
			key = b.Cause.Kind
		}
		k, ok := idx[key]
		if !ok {
			k = len(out)
			idx[key] = k
			if label == "" {
				label = key
			}
			out = append(out, Group{Key: key, Label: label})
		}
		g := &out[k]
		g.Count++
		g.MissedTokens += finite(b.Miss.MissedTokens)
		if b.CostKnown() {
			g.MissedCost += b.Miss.MissedCost
			g.Priced++
		}
	}
	if dim == ByCause || dim == "" {
		rank := map[string]int{}
		for i, k := range Kinds {
			rank[k] = i
		}
		sort.SliceStable(out, func(i, j int) bool { return rank[out[i].Key] < rank[out[j].Key] })
	} else {
		sort.SliceStable(out, func(i, j int) bool { return out[i].MissedCost > out[j].MissedCost })
	}
	return out
}

// Costliest returns the n breaks that cost most (priced first, then by
// missed tokens), costliest first.
func (r *Report) Costliest(n int) []Break {
	all := append([]Break(nil), r.Breaks...)
	sort.SliceStable(all, func(i, j int) bool {
		a, b := &all[i], &all[j]
		if a.CostKnown() != b.CostKnown() {
			return a.CostKnown()
		}
		if a.CostKnown() && a.Miss.MissedCost != b.Miss.MissedCost {
			return a.Miss.MissedCost > b.Miss.MissedCost
		}
		return a.Miss.MissedTokens > b.Miss.MissedTokens
	})
	if n >= 0 && len(all) > n {
		all = all[:n]
	}
	return all
}

// TotalCost sums the priced breaks.
func (r *Report) TotalCost() float64 {
	t := 0.0
	for i := range r.Breaks {
		if r.Breaks[i].CostKnown() {
			t += r.Breaks[i].Miss.MissedCost
		}
	}
	return t
}

// Since keeps the breaks at or after t: by the time the report shows (the
// assistant entry's timestamp), else the message's own; a break with
// neither is kept.
func (r *Report) Since(t time.Time) {
	ms := float64(t.UnixMilli())
	kept := r.Breaks[:0]
	for _, b := range r.Breaks {
		at := math.NaN()
		if ts, err := time.Parse(time.RFC3339Nano, b.Timestamp); err == nil {
			at = float64(ts.UnixMilli())
		} else {
			at = b.Miss.TimestampMs
		}
		if math.IsNaN(at) || at >= ms {
			kept = append(kept, b)
		}
	}
	r.Breaks = kept
}

// Value renders the report as `forgebench cache report --json`'s contract,
// keys in this order: {sessions, requests, tokens: {input, output,
// cacheRead, cacheWrite}, hitRate, rewriteFactor, breaks: [{file,
// sessionId, entryId, previousEntryId, timestamp, model, missedTokens,
// missedCostUSD, idleSeconds, cause: {kind, detail, ref}}], byCause: {KIND:
// {count, missedTokens, missedCostUSD}}}. hitRate and rewriteFactor are
// null when there is nothing to divide by; missedCostUSD null when the
// prices are unknown (a group's when none of its breaks is priced);
// idleSeconds null when a time is missing; ref null when the cause names
// nothing.
func (r *Report) Value() *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("sessions", float64(r.Sessions))
	o.Set("requests", float64(r.Requests))
	tok := jsonv.NewObject()
	tok.Set("input", r.Tokens.Input)
	tok.Set("output", r.Tokens.Output)
	tok.Set("cacheRead", r.Tokens.CacheRead)
	tok.Set("cacheWrite", r.Tokens.CacheWrite)
	o.Set("tokens", tok)
	o.Set("hitRate", ratio(r.HitRate()))
	o.Set("rewriteFactor", ratio(r.RewriteFactor()))
	breaks := make([]any, len(r.Breaks))
	for i := range r.Breaks {
		breaks[i] = breakValue(&r.Breaks[i])
	}
	o.Set("breaks", breaks)
	by := jsonv.NewObject()
	for _, g := range r.GroupBy(ByCause) {
		v := jsonv.NewObject()
		v.Set("count", float64(g.Count))
		v.Set("missedTokens", g.MissedTokens)
		if g.Priced > 0 {
			v.Set("missedCostUSD", g.MissedCost)
		} else {
			v.Set("missedCostUSD", nil)
		}
		by.Set(g.Key, v)
	}
	o.Set("byCause", by)
	return o
}

func ratio(f float64, ok bool) any {
	if !ok {
		return nil
	}
	return f
}

func breakValue(b *Break) *jsonv.Object {
	m := &b.Miss
	o := jsonv.NewObject()
	o.Set("file", b.File)
	o.Set("sessionId", b.SessionID)
	o.Set("entryId", m.EntryID)
	o.Set("previousEntryId", m.PreviousEntryID)
	if b.Timestamp != "" {
		o.Set("timestamp", b.Timestamp)
	} else {
		o.Set("timestamp", nil)
	}
	o.Set("model", m.Provider+"/"+m.Model)
	o.Set("missedTokens", m.MissedTokens)
	o.Set("missedCostUSD", costValue(m))
	if math.IsNaN(m.IdleMs) {
		o.Set("idleSeconds", nil)
	} else {
		o.Set("idleSeconds", m.IdleMs/1000)
	}
	c := jsonv.NewObject()
	c.Set("kind", b.Cause.Kind)
	c.Set("detail", b.Cause.Line())
	if b.Cause.Ref != "" {
		c.Set("ref", b.Cause.Ref)
	} else {
		c.Set("ref", nil)
	}
	o.Set("cause", c)
	return o
}

// WriteJSON writes Value's JSON text (jsonv.Stringify of it, and a
// newline) straight from the breaks, a few kilobytes at a time: a project
// has tens of thousands of breaks, and an object per break cost as much
// as finding them.
func (r *Report) WriteJSON(w io.Writer) error {
	b := make([]byte, 0, 64<<10)
	b = append(b, `{"sessions":`...)
	b = appendNumber(b, float64(r.Sessions))
	b = append(b, `,"requests":`...)
	b = appendNumber(b, float64(r.Requests))
	b = append(b, `,"tokens":{"input":`...)
	b = appendNumber(b, r.Tokens.Input)
	b = append(b, `,"output":`...)
	b = appendNumber(b, r.Tokens.Output)
	b = append(b, `,"cacheRead":`...)
	b = appendNumber(b, r.Tokens.CacheRead)
	b = append(b, `,"cacheWrite":`...)
	b = appendNumber(b, r.Tokens.CacheWrite)
	b = append(b, `},"hitRate":`...)
	hit, ok := r.HitRate()
	b = appendRatio(b, hit, ok)
	b = append(b, `,"rewriteFactor":`...)
	rewrite, ok := r.RewriteFactor()
	b = appendRatio(b, rewrite, ok)
	b = append(b, `,"breaks":[`...)
	for i := range r.Breaks {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendBreak(b, &r.Breaks[i])
		if len(b) >= 48<<10 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, `],"byCause":{`...)
	for i, g := range r.GroupBy(ByCause) {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonv.AppendQuote(b, g.Key)
		b = append(b, `:{"count":`...)
		b = appendNumber(b, float64(g.Count))
		b = append(b, `,"missedTokens":`...)
		b = appendNumber(b, g.MissedTokens)
		b = append(b, `,"missedCostUSD":`...)
		if g.Priced > 0 {
			b = appendNumber(b, g.MissedCost)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, '}')
	}
	b = append(b, "}}\n"...)
	_, err := w.Write(b)
	return err
}

// appendBreak appends breakValue(b)'s JSON text.
func appendBreak(b []byte, k *Break) []byte {
	m := &k.Miss
	b = append(b, `{"file":`...)
	b = jsonv.AppendQuote(b, k.File)
	b = append(b, `,"sessionId":`...)
	b = jsonv.AppendQuote(b, k.SessionID)
	b = append(b, `,"entryId":`...)
	b = jsonv.AppendQuote(b, m.EntryID)
	b = append(b, `,"previousEntryId":`...)
	b = jsonv.AppendQuote(b, m.PreviousEntryID)
	b = append(b, `,"timestamp":`...)
	if k.Timestamp != "" {
		b = jsonv.AppendQuote(b, k.Timestamp)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"model":`...)
	b = jsonv.AppendQuote(b, m.Provider+"/"+m.Model)
	b = append(b, `,"missedTokens":`...)
	b = appendNumber(b, m.MissedTokens)
	b = append(b, `,"missedCostUSD":`...)
	if c, ok := costValue(m).(float64); ok {
		b = appendNumber(b, c)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"idleSeconds":`...)
	if math.IsNaN(m.IdleMs) {
		b = append(b, "null"...)
	} else {
		b = appendNumber(b, m.IdleMs/1000)
	}
	b = append(b, `,"cause":{"kind":`...)
	b = jsonv.AppendQuote(b, k.Cause.Kind)
	b = append(b, `,"detail":`...)
	b = jsonv.AppendQuote(b, k.Cause.Line())
	b = append(b, `,"ref":`...)
	if k.Cause.Ref != "" {
		b = jsonv.AppendQuote(b, k.Cause.Ref)
	} else {
		b = append(b, "null"...)
	}
	return append(b, "}}"...)
}

// appendNumber appends f as JSON.stringify writes a number (null for NaN
// and the infinities).
func appendNumber(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	return append(b, jsonv.FormatNumber(f)...)
}

func appendRatio(b []byte, f float64, ok bool) []byte {
	if !ok {
		return append(b, "null"...)
	}
	return appendNumber(b, f)
}
