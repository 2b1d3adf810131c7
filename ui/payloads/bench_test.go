package payloads

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/ui/uitest"
)

// bigPair writes two 200-block turn snapshots (one block edited, one
// added) and returns their paths.
func bigPair(tb testing.TB) (string, string) {
	tb.Helper()
	dir := tb.TempDir()
	write := func(name string, edit bool) string {
		t := turndiff.Turn{TurnID: name}
		t.Blocks = append(t.Blocks, turndiff.NewBlock("system", "system", strings.Repeat("You are careful.\n", 400)))
		for i := 1; i < 200; i++ {
			text := strings.Repeat("line of message "+jsonv.FormatNumber(float64(i))+"\n", 20+i%40)
			if edit && i == 120 {
				text += "edited\n"
			}
			t.Blocks = append(t.Blocks, turndiff.NewBlock("message-"+jsonv.FormatNumber(float64(i)), []string{"user", "assistant"}[i%2], text))
		}
		if edit {
			t.Blocks = append(t.Blocks, turndiff.NewBlock("message-200", "user", "one more"))
		}
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, []byte(jsonv.Stringify(turndiff.TurnJSON(&t))), 0o644); err != nil {
			tb.Fatal(err)
		}
		return p
	}
	return write("a", false), write("b", true)
}

// BenchmarkKeypressFrame200Blocks is one cursor move in the block list of
// a 200-block diff and the frame it draws (the line diff of the new block
// computed by its command, as the harness runs it).
func BenchmarkKeypressFrame200Blocks(b *testing.B) {
	hs := newHarness(b, 160, 48, true, "-")
	a, bb := bigPair(b)
	refs := [2]string{a, bb}
	cmp, err := compare(hs.m.env, refs)
	if err != nil {
		b.Fatal(err)
	}
	hs.m.auto = false
	hs.m.gen++
	hs.Send(compareMsg{gen: hs.m.gen, cmp: cmp})
	if len(hs.m.view.Diff().Blocks) != 201 {
		b.Fatalf("blocks %d", len(hs.m.view.Diff().Blocks))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			hs.Press("j")
		} else {
			hs.Press("k")
		}
		_ = hs.m.View()
	}
}

// TestKeypressFrameBudget keeps a keypress frame on a 200-block diff under
// 16 ms (one frame at 60 Hz); a wall-clock test, run with FORGEBENCH_TIMING=1.
func TestKeypressFrameBudget(t *testing.T) {
	uitest.RequireTiming(t)
	r := testing.Benchmark(BenchmarkKeypressFrame200Blocks)
	if per := r.NsPerOp(); per > 16e6 {
		t.Errorf("a keypress frame takes %.1f ms", float64(per)/1e6)
	}
	t.Logf("%s per keypress frame", r.T/time.Duration(max(1, r.N)))
}
