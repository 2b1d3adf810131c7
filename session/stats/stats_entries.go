package stats

import (
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// EntriesStats counts the usage of the entries at the given indexes (file
// order) as BranchStats counts a branch's: message and role counts, tokens
// and cost with the catalog's repair of missing costs. It reads only what
// the reader already located (an assistant reply's usage, provider and
// model), never the content, so ToolCalls stays 0 and ByModel is keyed by
// model, not responseModel. Scope is StatsScopeBranch, LeafIndex the last
// index (-1 when none) and Context nil. The part of a branch after a fork
// point (session/compare) is counted this way.
func EntriesStats(s *session.Session, indexes []int, cat *catalog.Catalog) Stats {
	st := computeStatsWith(s, indexes, cat, readUsageRecord)
	st.Scope = StatsScopeBranch
	st.LeafIndex = -1
	if len(indexes) > 0 {
		st.LeafIndex = indexes[len(indexes)-1]
	}
	return st
}

// readUsageRecord is readStatRecord without the walk through an assistant
// reply's content: its usage and names come from the spans the reader
// kept.
func readUsageRecord(e *session.Entry, names *nameMemo) statRecord {
	if e.Type != session.TypeMessage || e.Role != session.RoleAssistant {
		return readStatRecord(e, names)
	}
	r := statRecord{isMessage: true, role: e.Role}
	u := e.UsageRaw()
	if len(u) == 0 || u[0] != '{' {
		return r
	}
	p, m, key := names.resolve(&assistantNames{provider: e.MessageProvider(), model: e.MessageModel()})
	r.readUsage(u, key, p, m)
	return r
}
