package palette

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// result is one row a query matched.
type result struct {
	kind  Kind
	index int
	score int
}

// MaxResults bounds the rows one query keeps, best first (the palette
// scrolls through them; the rest are counted, so typing more narrows).
const MaxResults = 500

// minIDQuery is the shortest query matched against ids: one character
// would match most ids.
const minIDQuery = 2

// fieldSource adapts one field of a Source to fuzzy.Source.
type fieldSource struct {
	n int
	f func(int) string
}

func (s fieldSource) String(i int) string { return s.f(i) }
func (s fieldSource) Len() int            { return s.n }

// match ranks the rows of srcs for query with sahilm/fuzzy (the
// Sublime-style scorer the rest of the workbench's filters use): each
// row scores its best field, and an id containing the query (spaces
// left out) scores as a contiguous match of the id. Rows of equal score
// keep the kinds' order, then their own. An empty query lists every row
// in that order. It returns at most MaxResults rows and how many matched;
// stale reports that a newer query superseded this one (ok is then
// false and the rows are incomplete).
func match(query string, srcs []Source, stale func() bool) (rows []result, total int, ok bool) {
	pattern := strings.TrimSpace(query)
	if pattern == "" {
		for _, s := range srcs {
			total += s.Len
			for i := 0; i < s.Len && len(rows) < MaxResults; i++ {
				rows = append(rows, result{kind: s.Kind, index: i})
			}
		}
		return rows, total, true
	}
	idQuery := strings.ToLower(strings.ReplaceAll(pattern, " ", ""))
	for _, s := range srcs {
		best := map[int]int{}
		for _, f := range s.Fields {
			if stale != nil && stale() {
				return nil, 0, false
			}
			for _, m := range fuzzy.FindFromNoSort(pattern, fieldSource{s.Len, f}) {
				if old, seen := best[m.Index]; !seen || m.Score > old {
					best[m.Index] = m.Score
				}
			}
		}
		if s.ID != nil && utf8.RuneCountInString(idQuery) >= minIDQuery {
			for i := 0; i < s.Len; i++ {
				id := s.ID(i)
				if id == "" || !containsFold(id, idQuery) {
					continue
				}
				if sc, found := idScore(idQuery, id); found {
					if old, seen := best[i]; !seen || sc > old {
						best[i] = sc
					}
				}
			}
		}
		for i, sc := range best {
			rows = append(rows, result{kind: s.Kind, index: i, score: sc})
		}
	}
	if stale != nil && stale() {
		return nil, 0, false
	}
	slices.SortFunc(rows, func(a, b result) int {
		switch {
		case a.score != b.score:
			return b.score - a.score
		case a.kind != b.kind:
			return int(a.kind - b.kind)
		}
		return a.index - b.index
	})
	total = len(rows)
	if len(rows) > MaxResults {
		rows = slices.Clip(rows[:MaxResults])
	}
	return rows, total, true
}

// idScore is the fuzzy score of an id that holds the query: the scorer's
// own, so ids rank among the other rows by the same rules.
func idScore(query, id string) (int, bool) {
	ms := fuzzy.Find(query, []string{id})
	if len(ms) == 0 {
		return 0, false
	}
	return ms[0].Score, true
}

// containsFold reports whether s contains the lower-case ASCII-folded
// needle, ignoring ASCII case (ids are ASCII; other runes compare
// exactly).
func containsFold(s, lowerNeedle string) bool {
	n := len(lowerNeedle)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for ; j < n; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lowerNeedle[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}
