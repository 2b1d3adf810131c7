package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSessionStatsCountsBreaksAsPi: on the demo's "Pre-release review" Pi
// 1.6.0 counts two cache misses (session/cachemiss's differential test
// pins them); session stats reports the same two, in text and JSON.
func TestSessionStatsCountsBreaksAsPi(t *testing.T) {
	code, out, errOut := runCLI(t, "--demo", "session", "stats", "01a2219b-7aa3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "2 break(s) as Pi counts them") {
		t.Fatalf("no Pi break count in:\n%s", out)
	}
	code, out, errOut = runCLI(t, "--demo", "session", "stats", "--json", "01a2219b-7aa3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Cache struct {
			Breaks []struct {
				EntryID      string   `json:"entryId"`
				MissedTokens float64  `json:"missedTokens"`
				MissedCost   *float64 `json:"missedCostUSD"`
			} `json:"breaks"`
		} `json:"cache"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cache.Breaks) != 2 {
		t.Fatalf("%d breaks in JSON, Pi counts 2: %s", len(doc.Cache.Breaks), out)
	}
	for _, b := range doc.Cache.Breaks {
		if b.EntryID == "" || b.MissedTokens <= 1024 || b.MissedCost == nil || *b.MissedCost <= 0 {
			t.Fatalf("break %+v", b)
		}
	}
}
