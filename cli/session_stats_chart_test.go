package cli

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session/cachemiss"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/stats"
)

func TestRequestChartMarksTheBreaks(t *testing.T) {
	reqs := []stats.Request{
		{Index: 2, Usage: catalog.Usage{Input: 100, CacheRead: 900}, Cost: 0.001},
		{Index: 5, Usage: catalog.Usage{Input: 100, CacheWrite: 1900}, Cost: 0.008},
		{Index: 8, Usage: catalog.Usage{Input: 100, CacheRead: 1900}, Cost: 0.002},
	}
	var b strings.Builder
	writeRequestChart(&b, reqs, []cachemiss.Miss{{Index: 5}})
	want := "\nper request  3 request(s), oldest first, one per column; ▲ a cache break\n" +
		"  tokens     ▄██  max 2,000\n" +
		"              ▲\n" +
		"  cost       ▁█▂  max $0.0080\n"
	if b.String() != want {
		t.Errorf("chart:\n%s\nwant:\n%s", b.String(), want)
	}

	// More requests than columns: each column is the largest of its run,
	// and a break anywhere in the run marks it.
	reqs = reqs[:0]
	for i := 0; i < 3*statsChartWidth; i++ {
		reqs = append(reqs, stats.Request{Index: i, Usage: catalog.Usage{Input: float64(1 + i%3)}, Cost: 1})
	}
	b.Reset()
	writeRequestChart(&b, reqs, []cachemiss.Miss{{Index: 4}})
	lines := strings.Split(b.String(), "\n")
	if !strings.Contains(lines[1], "each column the largest of ~3") {
		t.Errorf("header: %q", lines[1])
	}
	if got := strings.TrimPrefix(lines[2], "  tokens     "); !strings.HasPrefix(got, strings.Repeat("█", statsChartWidth)+"  max 3") {
		t.Errorf("tokens row: %q", lines[2])
	}
	if lines[3] != "              ▲" {
		t.Errorf("the break at request 4 is in the second column: %q", lines[3])
	}

	b.Reset()
	writeRequestChart(&b, nil, nil)
	if b.Len() != 0 {
		t.Errorf("no requests, no chart: %q", b.String())
	}
}

// The demo's review session: its two breaks are marked under the tokens
// row, and the JSON output has no chart in it.
func TestSessionStatsDrawsTheRequestRows(t *testing.T) {
	code, out, errOut := runCLI(t, "--demo", "session", "stats", "01a2219b-7aa3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	i := strings.Index(out, "per request  12 request(s)")
	if i < 0 {
		t.Fatalf("no per-request rows:\n%s", out)
	}
	rows := strings.Split(out[i:], "\n")
	if !strings.HasPrefix(rows[1], "  tokens     ") || strings.Count(rows[2], "▲") != 2 || !strings.HasPrefix(rows[3], "  cost       ") {
		t.Errorf("rows:\n%s", strings.Join(rows[:4], "\n"))
	}
	_, js, _ := runCLI(t, "--demo", "session", "stats", "--json", "01a2219b-7aa3")
	if strings.ContainsAny(js, "▁▂▃▄▅▆▇█▲") {
		t.Error("the JSON output carries the chart")
	}
}
