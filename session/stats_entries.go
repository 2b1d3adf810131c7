package session

import "github.com/forgebench/forgebench/session/catalog"

// EntriesStats counts the entries at the given indexes (file order) as
// BranchStats counts a branch: messages, tool calls, tokens and cost with
// the catalog's repair of missing costs. Scope is StatsScopeBranch,
// LeafIndex the last index (-1 when none) and Context nil. The part of a
// branch after a fork point (session/compare) is counted this way.
func EntriesStats(s *Session, indexes []int, cat *catalog.Catalog) Stats {
	st := computeStats(s, indexes, cat)
	st.Scope = StatsScopeBranch
	st.LeafIndex = -1
	if len(indexes) > 0 {
		st.LeafIndex = indexes[len(indexes)-1]
	}
	return st
}
