package stats

import (
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// StatsJSON renders `forgebench session stats --json` (JSON.stringify
// number formatting, keys in this order, always present):
//
//	{"scope": "session"|"branch", "leafId": string|null, "entries": n,
//	 "messages": {"total", "user", "assistant", "toolResult", "byRole": {role: n}},
//	 "toolCalls": n,
//	 "tokens": {"input", "output", "cacheRead", "cacheWrite", "total"},
//	 "cost": {"total", "stored", "recomputed"},
//	 "costRecomputed": [{"entryId", "line", "key", "provider", "model", "cost"}],
//	 "costUnpriced": [{"entryId", "line", "key", "provider", "model"}],
//	 "byModel": [{"key", "cost", "tokens"}],
//	 "contextUsage": null | {"provider", "modelId", "contextWindow", "tokens": n|null, "percent": n|null}}
//
// cost.stored is what Pi shows (missing costs count 0); cost.total adds
// cost.recomputed, the catalog price of the usages listed in costRecomputed.
func StatsJSON(s *session.Session, st Stats) []byte {
	return []byte(jsonv.Stringify(StatsValue(s, st)))
}

// StatsValue is StatsJSON before stringification.
func StatsValue(s *session.Session, st Stats) *jsonv.Object {
	var leaf any
	if st.LeafIndex >= 0 && st.LeafIndex < len(s.Entries) && s.Entries[st.LeafIndex].HasID {
		leaf = s.Entries[st.LeafIndex].ID
	}
	roles := jsonv.NewObject()
	for _, rc := range st.RoleCounts {
		roles.Set(rc.Role, float64(rc.Count))
	}
	recomputed := 0.0
	for _, n := range st.Recomputed {
		recomputed += n.Cost
	}
	recomputed = RoundSum(recomputed)
	rows := make([]any, 0, len(st.ByModel))
	for _, r := range st.ByModel {
		rows = append(rows, orderedObject("key", r.Key, "cost", r.Cost, "tokens", r.Tokens))
	}
	var cu any
	if c := st.Context; c != nil {
		var tokens, percent any
		if c.Known {
			tokens, percent = c.Tokens, c.Percent
		}
		cu = orderedObject("provider", c.Provider, "modelId", c.ModelID, "contextWindow", c.ContextWindow, "tokens", tokens, "percent", percent)
	}
	t := st.Tokens
	return orderedObject(
		"scope", st.Scope, "leafId", leaf, "entries", float64(st.Entries),
		"messages", orderedObject("total", float64(st.TotalMessages), "user", float64(st.UserMessages),
			"assistant", float64(st.AssistantMessages), "toolResult", float64(st.ToolResults), "byRole", roles),
		"toolCalls", float64(st.ToolCalls),
		"tokens", orderedObject("input", t.Input, "output", t.Output, "cacheRead", t.CacheRead, "cacheWrite", t.CacheWrite, "total", t.Total),
		"cost", orderedObject("total", st.Cost, "stored", st.StoredCost, "recomputed", recomputed),
		"costRecomputed", costNotesValue(st.Recomputed, true),
		"costUnpriced", costNotesValue(st.Unpriced, false),
		"byModel", rows,
		"contextUsage", cu)
}

// orderedObject builds an object from key, value pairs in order.
func orderedObject(pairs ...any) *jsonv.Object {
	o := jsonv.NewObject()
	for i := 0; i+1 < len(pairs); i += 2 {
		k, _ := pairs[i].(string)
		o.Set(k, pairs[i+1])
	}
	return o
}

func costNotesValue(notes []CostNote, withCost bool) []any {
	out := make([]any, 0, len(notes))
	for _, n := range notes {
		no := orderedObject("entryId", n.EntryID, "line", float64(n.Line), "key", n.Key, "provider", n.Provider, "model", n.Model)
		if withCost {
			no.Set("cost", n.Cost)
		}
		out = append(out, no)
	}
	return out
}
