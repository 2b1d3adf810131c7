package stats

import (
	"math"
	"runtime"
	"sort"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/internal/rawjson"
)

// Scopes of a Stats value.
const (
	StatsScopeSession = "session"
	StatsScopeBranch  = "branch"
)

// ToolsSummariesKey is the per-model breakdown key Pi uses for usage that
// belongs to no model turn: toolResult, compaction and branch_summary usage.
const ToolsSummariesKey = "Tools/summaries"

// TokenTotals are summed token counts; Total = input + output + cacheRead +
// cacheWrite (reasoning and cacheWrite1h are subsets and never added).
type TokenTotals struct {
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
	Total      float64
}

// ModelBreakdown is one row of Pi's per-model cost breakdown
// (getUsageCostBreakdown): key "provider/model" or ToolsSummariesKey.
type ModelBreakdown struct {
	Key    string
	Cost   float64
	Tokens float64
}

// CostNote names one usage record whose stored cost was missing: either
// recomputed from the catalog or left unpriced.
type CostNote struct {
	// Index and Line locate the entry; EntryID is its id.
	Index   int
	Line    int
	EntryID string
	// Key is the breakdown key the usage was counted under.
	Key string
	// Provider and Model are the catalog key used for pricing ("" when the
	// record names no model, e.g. compaction usage).
	Provider string
	Model    string
	// Cost is the recomputed cost in USD (0 when unpriced).
	Cost float64
}

// ContextUsage is how full the model's context window is, as Pi's footer
// shows it (AgentSession.getContextUsage). Tokens and Percent are unknown
// (Known false) right after a compaction until an assistant answers.
type ContextUsage struct {
	Provider      string
	ModelID       string
	ContextWindow float64
	Known         bool
	Tokens        float64
	Percent       float64
}

// Stats are Pi's session statistics (spec §10) for the whole file or one
// branch, plus forgebench's cost repair for usage records without a cost.
type Stats struct {
	// Scope is StatsScopeSession (all entries) or StatsScopeBranch.
	Scope string
	// LeafIndex is the branch leaf (the default leaf for a session scope;
	// -1 for an empty session).
	LeafIndex int
	// Entries is the number of entries counted.
	Entries int
	// TotalMessages counts message entries; the role counters follow Pi.
	TotalMessages     int
	UserMessages      int
	AssistantMessages int
	ToolResults       int
	ToolCalls         int
	// RoleCounts counts message entries per role, in first-seen order.
	RoleCounts []RoleCount
	// Tokens sums every counted usage.
	Tokens TokenTotals
	// StoredCost is Σ usage.cost.total as Pi computes it (missing costs
	// count 0); Cost adds the recomputed costs to it.
	StoredCost float64
	Cost       float64
	// ByModel is the breakdown sorted by cost, highest first (rows with no
	// cost and no tokens dropped), with recomputed costs included.
	ByModel []ModelBreakdown
	// Recomputed lists usages without a cost priced from the catalog;
	// Unpriced lists those that could not be priced (unknown model).
	Recomputed []CostNote
	Unpriced   []CostNote
	// Context is the context usage at LeafIndex, nil when the model or its
	// context window is unknown (Pi shows nothing then).
	Context *ContextUsage
}

// RoleCount is the number of message entries with one role.
type RoleCount struct {
	Role  string
	Count int
}

// SessionStats counts every entry of the file, all branches, like Pi's
// getSessionStats; context usage is reported at the default leaf.
func SessionStats(s *session.Session, cat *catalog.Catalog) Stats {
	all := make([]int, len(s.Entries))
	for i := range all {
		all[i] = i
	}
	st := computeStats(s, all, cat)
	st.Scope = StatsScopeSession
	st.LeafIndex = s.LeafIndex()
	st.Context = contextUsageAt(s, st.LeafIndex, cat)
	return st
}

// BranchStats counts the entries on the root→leaf path of leafIndex (one
// branch), with context usage at that leaf. An out-of-range leaf gives
// empty stats.
func BranchStats(s *session.Session, leafIndex int, cat *catalog.Catalog) Stats {
	var path []int
	if leafIndex >= 0 && leafIndex < len(s.Entries) {
		path = s.PathTo(leafIndex)
	} else {
		leafIndex = -1
	}
	st := computeStats(s, path, cat)
	st.Scope = StatsScopeBranch
	st.LeafIndex = leafIndex
	st.Context = contextUsageAt(s, leafIndex, cat)
	return st
}

// statRecord is what one entry contributes, read in parallel and added up
// in file order afterwards (so float sums match Pi's sequential ones).
type statRecord struct {
	isMessage bool
	hasUsage  bool
	hasCost   bool
	toolCalls int
	role      string
	key       string
	provider  string
	model     string
	usage     catalog.Usage
	costTotal float64
}

// assistantNames are the raw name fields of an assistant message (nil when
// absent).
type assistantNames struct{ provider, model, responseModel []byte }

// equal compares two sets of raw names, absent apart from present.
func (a *assistantNames) equal(b *assistantNames) bool {
	same := func(x, y []byte) bool { return (x == nil) == (y == nil) && string(x) == string(y) }
	return same(a.provider, b.provider) && same(a.model, b.model) && same(a.responseModel, b.responseModel)
}

// nameMemo resolves the names of one reader's assistant messages, reusing
// the previous message's strings while the raw names repeat, as they do
// for long runs of one model: making three strings and a key per message
// was most of what reading them allocated. Each goroutine reading records
// has its own (the raw names are compared while they are in its cache).
type nameMemo struct {
	raw                  assistantNames
	have                 bool
	provider, model, key string
}

// resolve returns provider, model and the key "provider/model" (the
// responseModel when it is there and not null), as JavaScript template
// literals render them.
func (m *nameMemo) resolve(n *assistantNames) (provider, model, key string) {
	if !m.have || !n.equal(&m.raw) {
		keyModel := n.responseModel
		if keyModel == nil || rawjson.IsNull(keyModel) {
			keyModel = n.model
		}
		p := jsStringOf(n.provider)
		m.raw, m.have = *n, true
		m.provider, m.model, m.key = p, jsStringOf(n.model), p+"/"+jsStringOf(keyModel)
	}
	return m.provider, m.model, m.key
}

func computeStats(s *session.Session, indexes []int, cat *catalog.Catalog) Stats {
	return computeStatsWith(s, indexes, cat, readStatRecord)
}

// computeStatsWith is computeStats reading each entry's record with read.
func computeStatsWith(s *session.Session, indexes []int, cat *catalog.Catalog, read func(*session.Entry, *nameMemo) statRecord) Stats {
	st := Stats{Entries: len(indexes)}
	b := &statsBuilder{cat: cat, st: &st, byKey: map[string]int{}, roleIdx: map[string]int{}}
	// Records are read in parallel, a window at a time, and added in order;
	// the window's buffer is reused, so memory stays flat however long the
	// session is.
	recs := make([]statRecord, min(len(indexes), statsWindow))
	var names nameMemo // the serial reader's
	workers := runtime.GOMAXPROCS(0)
	for base := 0; base < len(indexes); base += statsWindow {
		window := indexes[base:min(len(indexes), base+statsWindow)]
		if len(window) < session.ParallelMin || workers < 2 {
			for k, i := range window {
				recs[k] = read(&s.Entries[i], &names)
			}
		} else {
			session.ForEachRange(len(window), (len(window)+workers-1)/workers, func(_, lo, hi int) {
				var names nameMemo
				for k := lo; k < hi; k++ {
					recs[k] = read(&s.Entries[window[k]], &names)
					if k&1023 == 1023 {
						runtime.Gosched() // as the reader's decoders: keys stay responsive
					}
				}
			})
		}
		for k, i := range window {
			b.add(i, &s.Entries[i], &recs[k])
		}
	}
	b.finish()
	return st
}

// statsWindow is how many entries' records computeStats holds at once.
const statsWindow = 16384

// finish adds the recomputed costs and sorts the per-model breakdown.
func (b *statsBuilder) finish() {
	st := b.st
	st.Cost = st.StoredCost
	for _, n := range st.Recomputed {
		st.Cost += n.Cost
	}
	// The sums are finished: rounded once, as people write them.
	st.StoredCost, st.Cost = RoundSum(st.StoredCost), RoundSum(st.Cost)
	for i := range st.Recomputed {
		st.Recomputed[i].Cost = RoundSum(st.Recomputed[i].Cost)
	}
	rows := make([]ModelBreakdown, 0, len(b.rows))
	for _, r := range b.rows {
		r.Cost = RoundSum(r.Cost)
		if r.Cost > 0 || r.Tokens > 0 {
			rows = append(rows, r)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Cost > rows[j].Cost })
	st.ByModel = rows
}

// readStatRecord reads what Pi's getSessionStats looks at in one entry;
// names resolves an assistant message's names (nil: a memo of its own).
func readStatRecord(e *session.Entry, names *nameMemo) statRecord {
	var r statRecord
	switch e.Type {
	case session.TypeMessage:
		r.isMessage, r.role = true, e.Role
		switch e.Role {
		case session.RoleToolResult:
			if u := e.UsageRaw(); u.Truthy() {
				r.readUsage(u, ToolsSummariesKey, "", "")
			}
		case session.RoleAssistant:
			if names == nil {
				names = &nameMemo{}
			}
			r.readAssistant(e, names)
		}
	case session.TypeUsage:
		provider, model := jsStringOf(e.Field("provider")), jsStringOf(e.Field("model"))
		r.readUsage(e.Field("usage"), provider+"/"+model, provider, model)
	case session.TypeCompaction, session.TypeBranchSummary:
		r.readUsage(e.Field("usage"), ToolsSummariesKey, "", "")
	}
	return r
}

// readAssistant reads an assistant message in one walk: the members Pi's
// stats use, and the tool calls of its content counted on the way through
// (the content was skipped, then walked block by block, then each block
// searched for its type: three passes over most of the message).
//
// Keys are compared as written (an escaped key names nothing here), the
// last duplicate wins, and a value nested past the walker's depth limit
// ends the walk where skipping it would: the members after it are unread.
func (r *statRecord) readAssistant(e *session.Entry, names *nameMemo) {
	var usage, provider, model, responseModel []byte
	rawjson.WalkObject(e.MessageRaw(), 0, 0, func(key, b []byte, v, depth int) int {
		switch string(key) {
		case "content":
			if b[v] != '[' {
				end := rawjson.SkipAt(b, v, depth)
				if end >= 0 {
					r.toolCalls = 0 // the last content wins
				}
				return end
			}
			calls := 0
			end := rawjson.WalkArray(b, v, depth, func(b []byte, block, depth int) int {
				if b[block] != '{' {
					return rawjson.Skip
				}
				var typ []byte
				end := rawjson.WalkObject(b, block, depth, func(key, b []byte, v, depth int) int {
					if !rawjson.KeyEquals(key, "type") {
						return rawjson.Skip
					}
					end := rawjson.SkipAt(b, v, depth)
					if end >= 0 {
						typ = b[v:end]
					}
					return end
				})
				if t, _ := rawjson.String(typ); end >= 0 && t == session.BlockToolCall {
					calls++
				}
				return end
			})
			if end >= 0 {
				r.toolCalls = calls
			}
			return end
		case "usage", "provider", "model", "responseModel":
			end := rawjson.SkipAt(b, v, depth)
			if end < 0 {
				return end
			}
			switch string(key) {
			case "usage":
				usage = b[v:end]
			case "provider":
				provider = b[v:end]
			case "model":
				model = b[v:end]
			default:
				responseModel = b[v:end]
			}
			return end
		}
		return rawjson.Skip
	})
	if len(usage) == 0 || usage[0] != '{' {
		return // readUsage would ignore it: no names needed
	}
	p, m, key := names.resolve(&assistantNames{provider, model, responseModel})
	r.readUsage(usage, key, p, m)
}

// readUsage reads one usage record like Pi's addUsageToTotals: non-objects
// are ignored, non-finite or non-number fields count 0.
func (r *statRecord) readUsage(raw []byte, key, provider, model string) {
	if len(raw) == 0 || raw[0] != '{' {
		return
	}
	cost := ReadUsageTokens(raw, &r.usage)
	r.hasUsage, r.key, r.provider, r.model = true, key, provider, model
	r.costTotal, r.hasCost = storedCostTotal(cost)
}

// ReadUsageTokens reads the token counts of one usage object into u and
// returns its raw "cost" member (nil when absent), unread: the cache
// report needs only the counts.
func ReadUsageTokens(raw []byte, u *catalog.Usage) (cost []byte) {
	rawjson.EachMember(raw, func(k, v []byte) bool {
		switch string(k) {
		case "input":
			u.Input = finiteNumber(v)
		case "output":
			u.Output = finiteNumber(v)
		case "cacheRead":
			u.CacheRead = finiteNumber(v)
		case "cacheWrite":
			u.CacheWrite = finiteNumber(v)
		case "cacheWrite1h":
			u.CacheWrite1h = finiteNumber(v)
		case "cost":
			cost = v
		}
		return true
	})
	return cost
}

type statsBuilder struct {
	cat     *catalog.Catalog
	st      *Stats
	byKey   map[string]int
	rows    []ModelBreakdown
	roleIdx map[string]int
}

// add counts one entry's record, in file order.
func (b *statsBuilder) add(i int, e *session.Entry, r *statRecord) {
	st := b.st
	if r.isMessage {
		st.TotalMessages++
		if k, ok := b.roleIdx[r.role]; ok {
			st.RoleCounts[k].Count++
		} else {
			b.roleIdx[r.role] = len(st.RoleCounts)
			st.RoleCounts = append(st.RoleCounts, RoleCount{Role: r.role, Count: 1})
		}
		switch r.role {
		case session.RoleUser:
			st.UserMessages++
		case session.RoleToolResult:
			st.ToolResults++
		case session.RoleAssistant:
			st.AssistantMessages++
			st.ToolCalls += r.toolCalls
		}
	}
	if !r.hasUsage {
		return
	}
	u := r.usage
	st.Tokens.Input += u.Input
	st.Tokens.Output += u.Output
	st.Tokens.CacheRead += u.CacheRead
	st.Tokens.CacheWrite += u.CacheWrite
	st.Tokens.Total = st.Tokens.Input + st.Tokens.Output + st.Tokens.CacheRead + st.Tokens.CacheWrite
	total := r.costTotal
	st.StoredCost += total
	if !r.hasCost {
		note := CostNote{Index: i, Line: e.Line, EntryID: e.ID, Key: r.key, Provider: r.provider, Model: r.model}
		if m, ok := b.lookup(r.provider, r.model); ok {
			note.Cost = m.Cost(u).Total
			total = note.Cost
			st.Recomputed = append(st.Recomputed, note)
		} else {
			st.Unpriced = append(st.Unpriced, note)
		}
	}
	k, ok := b.byKey[r.key]
	if !ok {
		k = len(b.rows)
		b.byKey[r.key] = k
		b.rows = append(b.rows, ModelBreakdown{Key: r.key})
	}
	b.rows[k].Cost += total
	b.rows[k].Tokens += u.Input + u.Output + u.CacheRead + u.CacheWrite
}

func (b *statsBuilder) lookup(provider, model string) (*catalog.Model, bool) {
	if b.cat == nil || model == "" {
		return nil, false
	}
	return b.cat.Lookup(provider, model)
}

// storedCostTotal reads usage.cost.total; hasCost is false when the usage
// has no cost object or its total is not a number (a record to recompute).
func storedCostTotal(cost []byte) (total float64, hasCost bool) {
	if len(cost) == 0 || cost[0] != '{' {
		return 0, false
	}
	t := rawjson.Member(cost, "total")
	if f, ok := rawjson.Number(t); ok {
		if math.IsInf(f, 0) {
			return 0, true
		}
		return f, true
	}
	return 0, false
}

func finiteNumber(v []byte) float64 {
	f, ok := rawjson.Number(v)
	if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0
	}
	return f
}

// jsStringOf renders a raw field like a JavaScript template literal does:
// absent → "undefined", strings as is, anything else through String().
func jsStringOf(raw []byte) string {
	if raw == nil {
		return "undefined"
	}
	if s, ok := rawjson.String(raw); ok {
		return s
	}
	v, err := jsonv.Parse(raw)
	if err != nil {
		return "undefined"
	}
	return jsonv.ToString(v)
}
