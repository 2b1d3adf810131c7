package turndiff

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// loadVectors reads testdata/piforge-vectors.json (see testdata/README.md).
func loadVectors(t testing.TB) *jsonv.Object {
	t.Helper()
	raw, err := os.ReadFile("testdata/piforge-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonv.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v.(*jsonv.Object)
}

// expandMarkers replaces {"$repeat":s,"n":k} and {"$concat":[…]} objects.
func expandMarkers(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = expandMarkers(x)
		}
		return out
	case *jsonv.Object:
		if s, ok := t.Get("$repeat"); ok {
			n, _ := t.Get("n")
			return strings.Repeat(s.(string), int(n.(float64)))
		}
		if parts, ok := t.Get("$concat"); ok {
			var b strings.Builder
			for _, p := range parts.([]any) {
				b.WriteString(expandMarkers(p).(string))
			}
			return b.String()
		}
		out := jsonv.NewObject()
		t.Range(func(k string, x any) bool {
			out.Set(k, expandMarkers(x))
			return true
		})
		return out
	}
	return v
}

// digestLong mirrors the generator: strings over 400 UTF-16 units become
// {"$long":{"length","sha256"}} over their UTF-16LE code units.
func digestLong(v any) any {
	switch t := v.(type) {
	case string:
		n := jsonv.UTF16Len(t)
		if n <= 400 {
			return t
		}
		h := sha256.New()
		var buf [4]byte
		for i := 0; i < len(t); {
			hi, lo, size := unitAt(t, i)
			buf[0], buf[1] = byte(hi), byte(hi>>8)
			h.Write(buf[:2])
			if lo != 0 {
				buf[0], buf[1] = byte(lo), byte(lo>>8)
				h.Write(buf[:2])
			}
			i += size
		}
		inner := jsonv.NewObject()
		inner.Set("length", float64(n))
		inner.Set("sha256", hex.EncodeToString(h.Sum(nil)))
		out := jsonv.NewObject()
		out.Set("$long", inner)
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = digestLong(x)
		}
		return out
	case *jsonv.Object:
		out := jsonv.NewObject()
		t.Range(func(k string, x any) bool {
			out.Set(k, digestLong(x))
			return true
		})
		return out
	}
	return v
}

func same(t *testing.T, what string, got any, want any) {
	t.Helper()
	g, w := jsonv.Stringify(digestLong(got)), jsonv.Stringify(want)
	if g != w {
		t.Errorf("%s\n got %.2000s\nwant %.2000s", what, g, w)
	}
}

// expectedRuntimeTurn is payload o's expected runtimeTurn: stored whole,
// or {"$displayTurnAs": id} when it is the displayTurn with turnId id.
func expectedRuntimeTurn(o *jsonv.Object) any {
	rt, _ := o.Get("runtimeTurn")
	ro, ok := rt.(*jsonv.Object)
	if !ok {
		return rt
	}
	id, ok := ro.Get("$displayTurnAs")
	if !ok {
		return rt
	}
	dt, _ := o.Get("displayTurn")
	out := jsonv.NewObject()
	dt.(*jsonv.Object).Range(func(k string, x any) bool {
		if k == "turnId" {
			x = id
		}
		out.Set(k, x)
		return true
	})
	return out
}

// diffInput is a diff's before or after: a turn, null, or
// {"$runtimeTurnOf": k}, payload k's expected runtimeTurn.
func diffInput(t *testing.T, v any, payloads []any) *Turn {
	t.Helper()
	if v == nil {
		return nil
	}
	if o, ok := v.(*jsonv.Object); ok {
		if k, ok := o.Get("$runtimeTurnOf"); ok {
			v = expectedRuntimeTurn(payloads[int(k.(float64))].(*jsonv.Object))
		}
	}
	turn, err := ParseTurn(v)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonv.Stringify(TurnJSON(&turn)), jsonv.Stringify(v); got != want {
		t.Fatalf("turn round trip\n got %.300s\nwant %.300s", got, want)
	}
	return &turn
}

// TestPiForgeVectors compares display rendering, snapshot extraction and
// diffs with the outputs of pi-forge's own code.
func TestPiForgeVectors(t *testing.T) {
	vectors := loadVectors(t)
	pv, _ := vectors.Get("payloads")
	payloads := pv.([]any)
	for i, item := range payloads {
		o := item.(*jsonv.Object)
		src, _ := o.Get("payloadJSON")
		parsed, err := jsonv.Parse([]byte(src.(string)))
		if err != nil {
			t.Fatalf("payload %d: %v", i, err)
		}
		value := expandMarkers(parsed)
		f := FormatPayload(value)
		want := func(k string) any { v, _ := o.Get(k); return v }
		same(t, "text of payload "+itoa(i), f.Text, want("text"))
		same(t, "serialized of payload "+itoa(i), f.Serialized, want("serializedPayload"))
		if float64(f.Chars) != want("chars") || float64(f.ApproxTokens) != want("approxTokens") || f.Truncated != want("truncated") {
			t.Errorf("payload %d: chars %d tokens %d truncated %v; want %v %v %v", i, f.Chars, f.ApproxTokens, f.Truncated,
				want("chars"), want("approxTokens"), want("truncated"))
		}
		if wp, ok := o.Get("payload"); ok {
			same(t, "display payload "+itoa(i), f.Payload, wp)
		} else if f.Payload != nil {
			t.Errorf("payload %d: display payload kept although truncated", i)
		}
		display := ExtractTurnSnapshot(Capture{TurnID: "saved", CapturedAt: "2026-01-01T00:00:00.000Z", Payload: f.Payload, Text: f.Text})
		same(t, "display turn "+itoa(i), TurnJSON(&display), want("displayTurn"))
		ser := f.Serialized
		runtime := ExtractTurnSnapshot(Capture{TurnID: "rt", CapturedAt: "2026-01-01T00:00:00.000Z", Payload: f.Payload, SerializedPayload: &ser, Text: f.Text})
		same(t, "runtime turn "+itoa(i), TurnJSON(&runtime), expectedRuntimeTurn(o))
		// A saved file is the display text: reading it back gives the same
		// snapshot as the capture did.
		if !f.Truncated {
			back, err := jsonv.Parse([]byte(f.Text))
			if err != nil {
				t.Fatalf("payload %d: display text does not parse: %v", i, err)
			}
			fromFile := ExtractPayload("saved", "2026-01-01T00:00:00.000Z", "", back, f.Text)
			same(t, "file turn "+itoa(i), TurnJSON(&fromFile), want("displayTurn"))
		}
	}
	dv, _ := vectors.Get("diffs")
	for i, item := range dv.([]any) {
		o := item.(*jsonv.Object)
		bv, _ := o.Get("before")
		av, _ := o.Get("after")
		prev, cur := diffInput(t, bv, payloads), diffInput(t, av, payloads)
		d := DiffTurns(prev, cur)
		wv, _ := o.Get("diff")
		checkVector(t, i, &d, prev, cur, wv.(*jsonv.Object))
	}
}

// checkVector compares a diff with pi-forge's, whose blocks name their
// before and after by index into the input turns (pi-forge returns the
// input blocks themselves): every row must hold those very blocks, and
// the rest of the result must match byte for byte.
func checkVector(t *testing.T, n int, d *Diff, prev, cur *Turn, want *jsonv.Object) {
	t.Helper()
	wb, _ := want.Get("blocks")
	rows := wb.([]any)
	if len(rows) != len(d.Blocks) {
		t.Errorf("diff %d: %d rows, want %d", n, len(d.Blocks), len(rows))
		return
	}
	side := func(blocks []Block, idx any, got *Block) bool {
		if idx == nil {
			return got == nil
		}
		k := int(idx.(float64))
		return got != nil && k < len(blocks) && got == &blocks[k]
	}
	var before []Block
	if prev != nil {
		before = prev.Blocks
	}
	for r, rv := range rows {
		ro := rv.(*jsonv.Object)
		status, _ := ro.Get("status")
		bi, _ := ro.Get("before")
		ai, _ := ro.Get("after")
		delta, _ := ro.Get("tokenDelta")
		b := &d.Blocks[r]
		if b.Status != status || float64(b.TokenDelta) != delta || !side(before, bi, b.Before) || !side(cur.Blocks, ai, b.After) {
			t.Errorf("diff %d row %d: %s before %v after %v delta %d; want %s", n, r, b.Status, b.Before != nil, b.After != nil, b.TokenDelta, jsonv.Stringify(ro))
		}
	}
	got := DiffJSON(d)
	got.Delete("blocks")
	rest := jsonv.NewObject()
	want.Range(func(k string, x any) bool {
		if k != "blocks" {
			rest.Set(k, x)
		}
		return true
	})
	if g, w := jsonv.Stringify(got), jsonv.Stringify(rest); g != w {
		t.Errorf("diff %d\n got %s\nwant %s", n, g, w)
	}
}
