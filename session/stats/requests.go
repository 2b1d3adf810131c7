package stats

import (
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// Request is one request of a branch, as the charts draw it: an assistant
// message that recorded a usage, its tokens and what it cost.
type Request struct {
	// Index and EntryID locate the assistant message; TimestampMs is its
	// entry's time (NaN when it has none).
	Index       int
	EntryID     string
	TimestampMs float64
	Usage       catalog.Usage
	// Cost is usage.cost.total, or the catalog's price when the message
	// recorded none (as SessionStats prices it); Priced is false when it
	// recorded none and the catalog does not know the model (Cost is 0).
	Cost   float64
	Priced bool
}

// Tokens is the request's input, cache read, cache write and output.
func (r *Request) Tokens() float64 {
	return r.Usage.Input + r.Usage.CacheRead + r.Usage.CacheWrite + r.Usage.Output
}

// Requests lists the requests among the entries at indexes (a branch's
// path, oldest first), read as the statistics read them, so their costs
// add up to the branch's assistant cost.
func Requests(s *session.Session, indexes []int, cat *catalog.Catalog) []Request {
	b := &statsBuilder{cat: cat}
	var names nameMemo
	var out []Request
	for _, i := range indexes {
		e := &s.Entries[i]
		if e.Type != session.TypeMessage || e.Role != session.RoleAssistant {
			continue
		}
		r := readStatRecord(e, &names)
		if !r.hasUsage {
			continue
		}
		cost, priced := b.price(&r)
		out = append(out, Request{Index: i, EntryID: e.ID, TimestampMs: e.TimestampMs(), Usage: r.usage, Cost: cost, Priced: priced})
	}
	return out
}

// price is a record's cost: stored, else from the catalog.
func (b *statsBuilder) price(r *statRecord) (float64, bool) {
	if r.hasCost {
		return r.costTotal, true
	}
	if m, ok := b.lookup(r.provider, r.model); ok {
		return m.Cost(r.usage).Total, true
	}
	return 0, false
}

// Spending is one usage record of a digested file: when, how many tokens,
// what it cost (priced as Requests prices).
type Spending struct {
	TimestampMs float64
	Tokens      float64
	Cost        float64
	Priced      bool
	// Request is true for an assistant message (a request to a model).
	Request bool
}

// Spendings lists every usage record of the digested file in file order
// (assistant messages, tool results, usage, compaction and branch summary
// entries: what SessionStats adds up), so a project's cost can be laid
// out over time.
func (d *Digest) Spendings(cat *catalog.Catalog) []Spending {
	b := &statsBuilder{cat: cat}
	var out []Spending
	for i := range d.Entries {
		e := &d.Entries[i]
		if !e.rec.hasUsage {
			continue
		}
		cost, priced := b.price(&e.rec)
		u := e.rec.usage
		out = append(out, Spending{TimestampMs: e.TimestampMs, Tokens: u.Input + u.Output + u.CacheRead + u.CacheWrite,
			Cost: cost, Priced: priced, Request: e.Type == session.TypeMessage && e.Role == session.RoleAssistant})
	}
	return out
}
