package session

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/turndiff"
)

// streamSeeds are payloads the stream takes (and a few it leaves to
// ReadPayloadFile): integer-like keys, repeated keys, escaped keys,
// messages, a system prompt, redaction markers.
var streamSeeds = []string{
	`{"model":"m","max_tokens":10,"system":"Be brief.","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"yo"}]},{"role":"user","content":"hi"}]}`,
	`{"b":1,"10":"ten","a":{"x":[1,2,{"y":null}]},"2":true,"b":2,"0":0,"4294967294":"big","4294967295":"not an index","01":"no"}`,
	`{"k\u0041y":"escaped","kAy":"again","\ud800":"lone","é":"accent"}`,
	`{"api_key":"[redacted]","tools":[{"name":"t","input_schema":{"type":"object"}}],"metadata":{"[pi-forge: keys omitted]":true}}`,
	`{"messages":[],"system":[{"type":"text","text":"s"}],"stream":false}`,
	` {"only":"one"} `,
	`{"turnId":"t","blocks":[]}`,
	`{}`,
	`[1,2]`,
	`{"cut":`,
}

// streamAgrees checks one payload file: the stream's blocks are the
// turn's (hashes and wire values of request fields aside), with the same
// totals and losses. It reports whether the stream took the file.
func streamAgrees(t *testing.T, data []byte) bool {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ps := StreamPayloadFile(path)
	if ps == nil {
		return false
	}
	pf, err := ReadPayloadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if pf.Kind != PayloadCapture || !pf.Valid {
		t.Fatalf("the stream took %q, which reads as a %s (valid %v)", data, pf.Kind, pf.Valid)
	}
	var got []turndiff.Block
	ps.Each(func(b *turndiff.Block) { got = append(got, *b) })
	want := pf.Turn.Blocks
	if len(got) != len(want) || ps.Blocks != len(want) || ps.ApproxTokens() != pf.Turn.ApproxTokens() {
		t.Fatalf("%q: %d blocks (counted %d, ~%d tokens), the turn has %d (~%d tokens)", data, len(got), ps.Blocks, ps.ApproxTokens(), len(want), pf.Turn.ApproxTokens())
	}
	for i := range want {
		w := want[i]
		if w.Role == turndiff.RoleRequest {
			w.Hash, w.Wire = "", nil
		}
		if !reflect.DeepEqual(got[i], w) {
			t.Fatalf("%q: block %d\nstream %+v\nturn   %+v", data, i, got[i], w)
		}
	}
	if !reflect.DeepEqual(ps.Losses, pf.Losses) && (len(ps.Losses) > 0 || len(pf.Losses) > 0) {
		t.Fatalf("%q: losses %+v, the file's %+v", data, ps.Losses, pf.Losses)
	}
	return true
}

func TestPayloadStreamMatchesTurn(t *testing.T) {
	took := 0
	for _, s := range streamSeeds {
		if streamAgrees(t, []byte(s)) {
			took++
		}
	}
	if took < 5 || took == len(streamSeeds) {
		t.Errorf("the stream took %d of %d seeds", took, len(streamSeeds))
	}
}

// TestPayloadStreamKeepsLittle: showing a payload of many fields keeps the
// file and a few bytes a field, not a turn (a 35 MB payload of two
// million fields took 1.3 GB and 18 s to show).
func TestPayloadStreamKeepsLittle(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"model":"m"`)
	for i := 0; i < 200_000; i++ {
		b.WriteString(`,"k` + itoa(i) + `":` + itoa(i))
	}
	b.WriteString("}")
	path := filepath.Join(t.TempDir(), "wide.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	kept := func(read func() any) int64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		v := read()
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(v)
		return int64(after.HeapAlloc) - int64(before.HeapAlloc)
	}
	stream := kept(func() any {
		ps := StreamPayloadFile(path)
		if ps == nil || ps.Blocks != 200_001 {
			t.Fatalf("stream %+v", ps)
		}
		return ps
	})
	turn := kept(func() any { pf, _ := ReadPayloadFile(path); return pf })
	if stream > 3*int64(b.Len()) {
		t.Errorf("showing a %d KB payload keeps %d KB (its turn keeps %d KB)", b.Len()>>10, stream>>10, turn>>10)
	}
}

func FuzzPayloadStream(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		streamAgrees(t, data)
	})
}
