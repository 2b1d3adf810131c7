package cli

import (
	"fmt"
	"io"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/stats"
)

// writeStreams prints the scope's main requests apart from the runs made
// inside tool calls (pi-forge's forgeNestedUsage reports), when a tool
// call reported any: pi-forge never mixes the two, and neither do these
// lines.
func writeStreams(w io.Writer, sp stats.Streams) {
	n := &sp.Nested
	if !n.Any() {
		return
	}
	fmt.Fprintln(w, i18n.T("\nmain and nested requests (nested: runs inside tool calls, from pi-forge's forgeNestedUsage)"))
	m := &sp.Main
	fmt.Fprint(w, i18n.T("  main     %d request(s) · %s%s\n", m.Requests, runFigures(m), unpricedNote(m.Unpriced, i18n.Mark(" (%d request(s) without a known cost)"))))
	fmt.Fprint(w, i18n.T("  nested   %d call(s), %d request(s) · %s%s\n", n.Calls, n.Requests, runFigures(&n.RunTotals), unpricedNote(n.Unpriced, i18n.Mark(" (%d call(s) without a known cost)"))))
	if n.CacheUnknownCalls > 0 {
		fmt.Fprint(w, i18n.T("           %d call(s) reported no cache figures (not counted)\n", n.CacheUnknownCalls))
	}
	if n.InvalidCalls > 0 {
		fmt.Fprint(w, i18n.T("           %d malformed report(s) ignored\n", n.InvalidCalls))
	}
}

// runFigures is a stream's tokens and known cost.
func runFigures(t *stats.RunTotals) string {
	return i18n.T("in %s · out %s · cache read %s · cache write %s · $%.4f",
		count(t.Input), count(t.Output), count(t.CacheRead), count(t.CacheWrite), t.Cost)
}

// unpricedNote says how many of a stream's requests or calls have no
// known cost: key is the marked sentence, with the count.
func unpricedNote(n int, key string) string {
	if n == 0 {
		return ""
	}
	return i18n.T(key, n)
}
