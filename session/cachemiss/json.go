package cachemiss

import (
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// BreaksValue renders misses for `session stats --json` (key
// cache.breaks): [{entryId, previousEntryId, missedTokens, missedCostUSD
// (null when the prices are unknown)}].
func BreaksValue(misses []Miss) []any {
	out := make([]any, 0, len(misses))
	for i := range misses {
		m := &misses[i]
		o := jsonv.NewObject()
		o.Set("entryId", m.EntryID)
		o.Set("previousEntryId", m.PreviousEntryID)
		o.Set("missedTokens", m.MissedTokens)
		o.Set("missedCostUSD", costValue(m))
		out = append(out, o)
	}
	return out
}

// costValue is a miss's cost as JSON: null when the prices are unknown or
// Pi's figure is NaN, never a made-up 0.
func costValue(m *Miss) any {
	if !m.CostKnown || math.IsNaN(m.MissedCost) {
		return nil
	}
	return m.MissedCost
}
