package turndiff

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// checkDiff asserts the invariants every diff keeps.
func checkDiff(t *testing.T, prev, cur *Turn, d *Diff) {
	t.Helper()
	s := d.Summary
	if s.SameBlocks+s.ChangedBlocks != len(d.Blocks) || s.ChangedBlocks != s.AddedBlocks+s.RemovedBlocks+s.ModifiedBlocks {
		t.Fatalf("summary %+v for %d rows", s, len(d.Blocks))
	}
	sum := 0
	befores, afters := 0, 0
	for _, b := range d.Blocks {
		sum += b.TokenDelta
		if b.Before != nil {
			befores++
		}
		if b.After != nil {
			afters++
		}
	}
	prevN := 0
	if prev != nil {
		prevN = len(prev.Blocks)
	}
	if befores != prevN || afters != len(cur.Blocks) {
		t.Fatalf("rows hold %d/%d before and %d/%d after blocks", befores, prevN, afters, len(cur.Blocks))
	}
	if s.ChangedBlocks > 0 && sum != d.DeltaTokens && hasCharDelta(d) {
		t.Fatalf("token deltas sum to %d, delta %d", sum, d.DeltaTokens)
	}
	if d.PrefixTokens < 0 || d.PrefixTokens > cur.ApproxTokens() || d.PrefixRatio < 0 || d.PrefixRatio > 1 {
		t.Fatalf("prefix %d ratio %v of %d", d.PrefixTokens, d.PrefixRatio, cur.ApproxTokens())
	}
	if (d.Boundary < 0) != (d.BoundaryRow < 0) {
		t.Fatalf("boundary %d row %d", d.Boundary, d.BoundaryRow)
	}
	if _, err := jsonv.Parse([]byte(jsonv.Stringify(DiffJSON(d)))); err != nil {
		t.Fatal(err)
	}
}

func hasCharDelta(d *Diff) bool {
	for _, b := range d.Blocks {
		n := 0
		if b.After != nil {
			n += b.After.Chars
		}
		if b.Before != nil {
			n -= b.Before.Chars
		}
		if b.Status != StatusSame && n != 0 {
			return true
		}
	}
	return false
}

func FuzzExtractAndDiff(f *testing.F) {
	f.Add(`{"model":"a","messages":[{"role":"user","content":"x"}]}`, `{"model":"b","messages":[{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"text","text":"y"}]}]}`)
	f.Add(`{"system":[{"type":"text","text":"😀a"}]}`, `{"system":[{"type":"text","text":"😁a"}]}`)
	f.Add(`[1]`, `{"messages":[1,"s",null,{"role":"","content":[null]}]}`)
	f.Add(`{"turnId":"t","blocks":[{"key":"","role":"r","text":"t"}]}`, `{"turnId":"u","blocks":[]}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		turnOf := func(text string) Turn {
			v, err := jsonv.Parse([]byte(text))
			if err != nil {
				return ExtractPayload("t", "", "", nil, text)
			}
			if LooksLikeTurn(v) {
				if turn, err := ParseTurn(v); err == nil {
					return turn
				}
			}
			return ExtractPayload("t", "", "", v, text)
		}
		ta, tb := turnOf(a), turnOf(b)
		d := DiffTurns(&ta, &tb)
		checkDiff(t, &ta, &tb, &d)
		d0 := DiffTurns(nil, &tb)
		checkDiff(t, nil, &tb, &d0)
		if self := DiffTurns(&tb, &tb); self.Summary.ChangedBlocks != 0 || self.PrefixTokens != tb.ApproxTokens() {
			t.Fatalf("a turn differs from itself: %+v", self.Summary)
		}
	})
}

// FuzzRequestFieldText: a request field's text is JSON.stringify({field:
// value}, null, 2), also on the short path for a scalar value.
func FuzzRequestFieldText(f *testing.F) {
	f.Add("model", `"claude"`)
	f.Add("max_tokens", `8192`)
	f.Add("\u2028k\"ey", `"\ud800 \u0000"`)
	f.Add("10", `-1.5e300`)
	f.Add("stream", `false`)
	f.Add("x", `null`)
	f.Add("tools", `[{"name":"t"}]`)
	f.Fuzz(func(t *testing.T, field, value string) {
		v, err := jsonv.Parse([]byte(value))
		if err != nil {
			return
		}
		wrapped := jsonv.NewObject()
		wrapped.Set(field, v)
		if got, want := requestFieldText(field, v), jsonv.StringifyIndent(wrapped, "  "); got != want {
			t.Fatalf("requestFieldText(%q, %s) = %q, want %q", field, value, got, want)
		}
	})
}
