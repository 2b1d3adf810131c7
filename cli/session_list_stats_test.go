package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// session list --stats on the demo: a bar per day against the costliest
// day, the sessions costliest first; --json is the documented object; and
// without the flag the list is what it was.
func TestSessionListStats(t *testing.T) {
	code, out, errOut := runCLI(t, "--demo", "session", "list", "--stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "cost by day · 3 session(s) · $") {
		t.Fatalf("header %q", lines[0])
	}
	full := strings.Repeat("█", spendBarWidth)
	if !strings.Contains(lines[1], "2026-11-27  "+full+"    $0.1652") || !strings.Contains(lines[2], "2026-11-28  ") || strings.Contains(lines[2], full) {
		t.Errorf("days:\n%s", strings.Join(lines[1:3], "\n"))
	}
	i := strings.Index(out, "sessions that cost most\n")
	if i < 0 || !strings.Contains(out[i:], "Invoice rounding fix") || strings.Index(out[i:], "Pre-release review") > strings.Index(out[i:], "Currency formatting") {
		t.Errorf("the costliest sessions:\n%s", out[i:])
	}

	code, js, errOut := runCLI(t, "--demo", "session", "list", "--stats", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var v struct {
		Cost float64
		Days []struct {
			Day                string
			Cost, Tokens       float64
			Requests, Sessions int
		}
		Sessions []struct {
			Path, ID, Title string
			Cost            float64
		}
		Problems []any
	}
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatalf("%v:\n%s", err, js)
	}
	if len(v.Days) != 2 || v.Days[0].Day != "2026-11-27" || v.Days[0].Sessions != 2 || len(v.Sessions) != 3 || v.Sessions[0].Title != "Invoice rounding fix" || v.Problems == nil {
		t.Errorf("JSON: %+v", v)
	}

	_, list, _ := runCLI(t, "--demo", "session", "list")
	if strings.Contains(list, "cost by day") || !strings.Contains(list, " msgs  ") {
		t.Errorf("session list without --stats changed:\n%s", list)
	}
}
