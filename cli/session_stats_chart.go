package cli

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/cachemiss"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/components/chart"
)

// statsChartWidth is the columns the per-request rows of session stats
// take: one request per column up to it, else the largest request of
// each run of requests.
const statsChartWidth = 60

// writeRequestChart prints the sparkline rows of session stats: tokens
// and cost per request along the scope (the branch, or the file in file
// order, as the breaks are counted), with the cache breaks marked under
// the tokens. Plain runes, no colour: the shapes carry it.
func writeRequestChart(w io.Writer, reqs []stats.Request, misses []cachemiss.Miss) {
	if len(reqs) == 0 {
		return
	}
	plain := themes.Styles{}
	broke := make(map[int]bool, len(misses))
	for i := range misses {
		broke[misses[i].Index] = true
	}
	buckets := chart.Buckets(len(reqs), statsChartWidth)
	tokens, costs := make([]float64, len(buckets)), make([]float64, len(buckets))
	marks := make([]bool, len(buckets))
	var maxTokens, maxCost float64
	anyMark := false
	for c, b := range buckets {
		for i := b.From; i < b.To; i++ {
			tokens[c] = math.Max(tokens[c], reqs[i].Tokens())
			costs[c] = math.Max(costs[c], reqs[i].Cost)
			if broke[reqs[i].Index] {
				marks[c], anyMark = true, true
			}
		}
		maxTokens, maxCost = math.Max(maxTokens, tokens[c]), math.Max(maxCost, costs[c])
	}
	per := i18n.T("one per column")
	if len(buckets) < len(reqs) {
		per = i18n.T("each column the largest of ~%d", (len(reqs)+len(buckets)-1)/len(buckets))
	}
	fmt.Fprint(w, i18n.T("\nper request  %d request(s), oldest first, %s", len(reqs), per))
	if anyMark {
		fmt.Fprint(w, i18n.T("; ▲ a cache break"))
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, i18n.T("  tokens     %s  max %s\n", chart.Sparkline(tokens, len(tokens), plain.Text.Normal), count(maxTokens)))
	if anyMark {
		fmt.Fprintf(w, "             %s\n", strings.TrimRight(chart.Marks(marks, len(marks), '▲', plain.Text.Normal), " "))
	}
	fmt.Fprint(w, i18n.T("  cost       %s  max $%.4f\n", chart.Sparkline(costs, len(costs), plain.Text.Normal), maxCost))
}
