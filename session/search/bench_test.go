package search

import (
	"context"
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
