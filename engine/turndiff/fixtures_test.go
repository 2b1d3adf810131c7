package turndiff

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
)

// sharedFixtureSets reads fixtures/pi-forge/context-diff-fixtures.json
// (skipped without FORGEBENCH_SHARED).
func sharedFixtureSets(t *testing.T) []any {
	t.Helper()
	raw := fixtures.Read(t, "pi-forge/context-diff-fixtures.json")
	v, err := jsonv.Parse(raw)
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	sets, ok := v.([]any)
	if !ok || len(sets) != 6 {
		t.Fatalf("fixture: want 6 sets, got %T", v)
	}
	return sets
}

func get(t *testing.T, v any, key string) any {
	t.Helper()
	o, ok := v.(*jsonv.Object)
	if !ok {
		t.Fatalf("want an object holding %q, got %T", key, v)
	}
	x, ok := o.Get(key)
	if !ok {
		t.Fatalf("missing %q", key)
	}
	return x
}

// TestContextDiffFixtures checks every block hash of the fixture turns
// (createBlock without metadata), every diffTurns result byte for byte, and
// the display rendering of every capture.
func TestContextDiffFixtures(t *testing.T) {
	for _, set := range sharedFixtureSets(t) {
		name := get(t, set, "name").(string)
		t.Run(name, func(t *testing.T) {
			turnsRaw := get(t, set, "turns").([]any)
			turns := map[string]*Turn{}
			for _, tv := range turnsRaw {
				turn, err := ParseTurn(tv)
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range turn.Blocks {
					fresh := NewBlock(b.Key, b.Role, b.Text)
					if fresh != b {
						t.Errorf("block %s: recomputed %+v, fixture %+v", b.Key, fresh, b)
					}
				}
				if got, want := jsonv.Stringify(TurnJSON(&turn)), jsonv.Stringify(tv); got != want {
					t.Errorf("turn JSON round trip\n got %s\nwant %s", got, want)
				}
				turns[turn.TurnID] = &turn
			}
			for _, dv := range get(t, set, "diffs").([]any) {
				var prev *Turn
				if from := get(t, dv, "from"); from != nil {
					prev = turns[from.(string)]
				}
				cur := turns[get(t, dv, "to").(string)]
				d := DiffTurns(prev, cur)
				got := jsonv.Stringify(DiffJSON(&d))
				want := jsonv.Stringify(get(t, dv, "diff"))
				if got != want {
					t.Errorf("diff %v→%v\n got %s\nwant %s", get(t, dv, "from"), get(t, dv, "to"), got, want)
				}
			}
			payloads := get(t, set, "payloads").([]any)
			for i, cv := range get(t, set, "captures").([]any) {
				f := FormatPayload(payloads[i])
				if want := get(t, cv, "text").(string); f.Text != want {
					t.Errorf("capture %d text\n got %q\nwant %q", i, f.Text, want)
				}
				if want := get(t, cv, "chars").(float64); float64(f.Chars) != want {
					t.Errorf("capture %d chars %d, want %v", i, f.Chars, want)
				}
				if want := get(t, cv, "approxTokens").(float64); float64(f.ApproxTokens) != want {
					t.Errorf("capture %d approxTokens %d, want %v", i, f.ApproxTokens, want)
				}
				if want := get(t, cv, "truncated").(bool); f.Truncated != want {
					t.Errorf("capture %d truncated %v", i, f.Truncated)
				}
				if got, want := jsonv.Stringify(f.Payload), jsonv.Stringify(get(t, cv, "payload")); got != want {
					t.Errorf("capture %d payload\n got %s\nwant %s", i, got, want)
				}
			}
		})
	}
}
