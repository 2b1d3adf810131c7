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

// TestCacheReportJSONContract: keys in the order, Pi's breaks on
// the demo project with their causes, nulls where nothing applies.
func TestCacheReportJSONContract(t *testing.T) {
	code, out, errOut := runCLI(t, "--demo", "cache", "report", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wantOrder := []string{`{"sessions":`, `,"requests":`, `,"tokens":{"input":`, `,"output":`, `,"cacheRead":`, `,"cacheWrite":`,
		`},"hitRate":`, `,"rewriteFactor":`, `,"breaks":[{"file":`, `,"sessionId":`, `,"entryId":`, `,"previousEntryId":`,
		`,"timestamp":`, `,"model":`, `,"missedTokens":`, `,"missedCostUSD":`, `,"idleSeconds":`, `,"cause":{"kind":`,
		`,"detail":`, `,"ref":`, `,"byCause":{"preset":{"count":1,"missedTokens":4460,"missedCostUSD":`, `"capability":{"count":1,"missedTokens":1180,`, `"provider":{"count":1,`}
	at := 0
	for _, k := range wantOrder {
		i := strings.Index(out[at:], k)
		if i < 0 {
			t.Fatalf("%s not found after offset %d in %s", k, at, out)
		}
		at += i + len(k)
	}
	var doc struct {
		Sessions int `json:"sessions"`
		Breaks   []struct {
			EntryID string `json:"entryId"`
			Cause   struct {
				Kind string  `json:"kind"`
				Ref  *string `json:"ref"`
			} `json:"cause"`
		} `json:"breaks"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Sessions != 3 || len(doc.Breaks) != 3 {
		t.Fatalf("%d sessions, %d breaks: %s", doc.Sessions, len(doc.Breaks), out)
	}
	for _, b := range doc.Breaks {
		if (b.Cause.Kind == "provider") != (b.Cause.Ref == nil) {
			t.Errorf("break %s: kind %s ref %v", b.EntryID, b.Cause.Kind, b.Cause.Ref)
		}
	}
}

// TestCacheReportTextAndExitCodes: the table by cause, the diff command of
// each costliest break, --fail-on-break-cost, and a session named that
// does not exist (the resolver's usage error).
func TestCacheReportTextAndExitCodes(t *testing.T) {
	code, out, errOut := runCLI(t, "--demo", "cache", "report", "01a2219b-7aa3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"1 session(s)", "by cause", "capability", "2 costliest break(s)",
		"forgebench payload diff session:", "#53a6ef48 session:", "#403c879a\n"} {
		if !strings.Contains(out, want) {
			t.Fatalf("%q missing from:\n%s", want, out)
		}
	}
	if code, out, _ = runCLI(t, "--demo", "cache", "report", "--by", "item", "01a2219b-7aa3"); code != exitOK || !strings.Contains(out, "preset project:guarded-worker") {
		t.Fatalf("--by item exit %d:\n%s", code, out)
	}
	// A session's row names it by its id (a path cut to the column said
	// nothing); a model's by provider/model.
	if code, out, _ = runCLI(t, "--demo", "cache", "report", "--by", "session"); code != exitOK || !strings.Contains(out, "\n01a2219b-7aa3-71cb-a60b-a97d171ea8a4 ") {
		t.Fatalf("--by session exit %d:\n%s", code, out)
	}
	if code, out, _ = runCLI(t, "--demo", "cache", "report", "--by", "model"); code != exitOK || !strings.Contains(out, "\nopenai/gpt-5.4 ") {
		t.Fatalf("--by model exit %d:\n%s", code, out)
	}
	if code, _, errOut = runCLI(t, "--demo", "cache", "report", "--fail-on-break-cost", "0.01"); code != exitFailed || !strings.Contains(errOut, "above --fail-on-break-cost") {
		t.Fatalf("--fail-on-break-cost 0.01: exit %d %s", code, errOut)
	}
	if code, _, errOut = runCLI(t, "--demo", "cache", "report", "--fail-on-break-cost", "1"); code != exitOK {
		t.Fatalf("--fail-on-break-cost 1: exit %d %s", code, errOut)
	}
	if code, _, _ = runCLI(t, "--demo", "cache", "report", "no-such-session"); code != exitUsage {
		t.Fatalf("unknown session: exit %d", code)
	}
	if code, _, _ = runCLI(t, "--demo", "cache", "report", "--since", "yesterday"); code != exitUsage {
		t.Fatalf("bad --since: exit %d", code)
	}
	// The break's shown timestamp (its entry's) decides: 67b7d815 was
	// written at 10:06:10.518 (its message says 10:06:09.617).
	if code, out, _ = runCLI(t, "--demo", "cache", "report", "--json", "--since", "2026-11-28T10:06:10Z"); code != exitOK || !strings.Contains(out, `"entryId":"67b7d815"`) || strings.Contains(out, `"entryId":"403c879a"`) {
		t.Fatalf("--since 2026-11-28T10:06:10Z exit %d: %s", code, out)
	}
	if code, out, _ = runCLI(t, "--demo", "cache", "report", "--json", "--since", "2026-11-28"); code != exitOK || !strings.Contains(out, `"byCause":{"preset"`) || strings.Contains(out, `"provider"`) {
		t.Fatalf("--since 2026-11-28 exit %d: %s", code, out)
	}
}
