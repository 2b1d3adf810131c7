package cli

import (
	"fmt"
	"io"

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
	fmt.Fprintln(w, "\nmain and nested requests (nested: runs inside tool calls, from pi-forge's forgeNestedUsage)")
	m := &sp.Main
	fmt.Fprintf(w, "  main     %d request(s) · %s%s\n", m.Requests, runFigures(m), unpricedNote(m.Unpriced, "request"))
	fmt.Fprintf(w, "  nested   %d call(s), %d request(s) · %s%s\n", n.Calls, n.Requests, runFigures(&n.RunTotals), unpricedNote(n.Unpriced, "call"))
	if n.CacheUnknownCalls > 0 {
		fmt.Fprintf(w, "           %d call(s) reported no cache figures (not counted)\n", n.CacheUnknownCalls)
	}
	if n.InvalidCalls > 0 {
		fmt.Fprintf(w, "           %d malformed report(s) ignored\n", n.InvalidCalls)
	}
}

// runFigures is a stream's tokens and known cost.
func runFigures(t *stats.RunTotals) string {
	return fmt.Sprintf("in %s · out %s · cache read %s · cache write %s · $%.4f",
		count(t.Input), count(t.Output), count(t.CacheRead), count(t.CacheWrite), t.Cost)
}

// unpricedNote says how many of a stream's requests or calls have no
// known cost.
func unpricedNote(n int, what string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d %s(s) without a known cost)", n, what)
}
