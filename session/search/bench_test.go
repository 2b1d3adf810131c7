package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/session"
)

// BenchmarkCorpus searches the bench/search.sh corpus when
// FORGEBENCH_SEARCH_CORPUS names it (the directory given to searchcorpus
// -out); it is the in-process view of the budget, for profiling.
func BenchmarkCorpus(b *testing.B) {
	dir := os.Getenv("FORGEBENCH_SEARCH_CORPUS")
	if dir == "" {
		b.Skip("FORGEBENCH_SEARCH_CORPUS is not set (see bench/search.sh)")
	}
	sc := Scope{Loc: session.Locations{AgentDir: filepath.Join(dir, "agent")}, Cwd: filepath.Join(dir, "project"), Agents: true}
	for _, c := range []struct {
		name string
		q    Query
	}{
		{"literal", Query{Text: "quetzal overflow"}},
		{"sensitive", Query{Text: "quetzal overflow", CaseSensitive: true}},
		{"regex", Query{Text: `quetzal over\w+`, Regex: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			m, err := Compile(c.q)
			if err != nil {
				b.Fatal(err)
			}
			var bytes int64
			for b.Loop() {
				srcs, err := ListSources(sc)
				if err != nil {
					b.Fatal(err)
				}
				st, err := NewSearcher().Search(context.Background(), m, srcs, Options{}, func(FileResult) bool { return true })
				if err != nil {
					b.Fatal(err)
				}
				bytes = st.Bytes
			}
			b.SetBytes(bytes)
		})
	}
}

// BenchmarkTwoSessions searches a project directory given by
// FORGEBENCH_SEARCH_TWO (an agent dir's project holding the two 100 MB
// sessions of bench/run.sh, as bench/search.sh sets it up) for a phrase
// with hits in both (or FORGEBENCH_SEARCH_QUERY), case-sensitive: the
// branch placement of the hits is measured with the scan.
func BenchmarkTwoSessions(b *testing.B) {
	dir := os.Getenv("FORGEBENCH_SEARCH_TWO")
	if dir == "" {
		b.Skip("FORGEBENCH_SEARCH_TWO is not set (see bench/search.sh)")
	}
	sc := Scope{Loc: session.Locations{AgentDir: filepath.Join(dir, "agent")}, Cwd: filepath.Join(dir, "project")}
	q := Query{Text: twoSessionsQuery, CaseSensitive: true}
	if text := os.Getenv("FORGEBENCH_SEARCH_QUERY"); text != "" {
		q.Text = text
	}
	m, err := Compile(q)
	if err != nil {
		b.Fatal(err)
	}
	hits := 0
	for b.Loop() {
		srcs, err := ListSources(sc)
		if err != nil {
			b.Fatal(err)
		}
		st, err := NewSearcher().Search(context.Background(), m, srcs, Options{NoCache: true}, func(FileResult) bool { return true })
		if err != nil {
			b.Fatal(err)
		}
		hits = st.Hits
	}
	b.ReportMetric(float64(hits), "hits")
}

// twoSessionsQuery is bench/search.sh's phrase for the two sessions.
const twoSessionsQuery = "naïve 日本 ✓"

// BenchmarkLinkTree: indexing the ids and marking the active branch of a
// tree of Pi-shaped entries (random 8-character ids, nearly every parent
// the previous entry, a branch every 50), the size of bench/search.sh's
// 100 MB session of small entries.
func BenchmarkLinkTree(b *testing.B) {
	const n = 180_000
	rnd := rand.New(rand.NewPCG(1, 2))
	p := &partTree{}
	seg, _ := p.recording(0)
	ids := make([][]byte, n)
	for i := range ids {
		ids[i] = fmt.Appendf(nil, "%08x", rnd.Uint32())
		var parent []byte
		switch {
		case i == 0:
		case i%50 == 0:
			parent = ids[rnd.IntN(i)]
		default:
			parent = ids[i-1]
		}
		p.add(seg, ids[i], parent, 0, int32(i))
	}
	seg.first.kind, seg.first.hasID = recSession, true
	t, err := merge([]*partTree{p})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		t.link()
	}
}
