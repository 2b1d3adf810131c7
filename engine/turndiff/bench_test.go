package turndiff

import (
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/timing"
)

// benchRequest builds a provider request with n blocks: a 12k-character
// system prompt, a tools field and n-2 messages of 300–6,000 characters.
func benchRequest(n int, variant int) *jsonv.Object {
	req := jsonv.NewObject()
	req.Set("model", "claude-sonnet-4-5")
	req.Set("system", strings.Repeat("You are a careful engineer. ", 430))
	var msgs []any
	for i := 0; i < n-3; i++ {
		m := jsonv.NewObject()
		role := []string{"user", "assistant"}[i%2]
		m.Set("role", role)
		text := strings.Repeat("line of message "+itoa(i)+" with naïve 😀 text\n", 10+(i*37)%160)
		if variant == 1 && i == n/2 {
			text += "edited"
		}
		part := jsonv.NewObject()
		part.Set("type", "text")
		part.Set("text", text)
		m.Set("content", []any{part})
		msgs = append(msgs, m)
	}
	if variant == 1 {
		m := jsonv.NewObject()
		m.Set("role", "user")
		m.Set("content", "one more question")
		msgs = append(msgs, m)
	}
	req.Set("messages", msgs)
	tool := jsonv.NewObject()
	tool.Set("name", "read")
	tool.Set("description", "Read a file")
	req.Set("tools", []any{tool})
	return req
}

func benchTurns(tb testing.TB) (Turn, Turn) {
	a := ExtractPayload("a", "", "", benchRequest(200, 0), "")
	b := ExtractPayload("b", "", "", benchRequest(200, 1), "")
	if len(a.Blocks) != 200 || len(b.Blocks) != 201 {
		tb.Fatalf("blocks %d %d", len(a.Blocks), len(b.Blocks))
	}
	return a, b
}

// BenchmarkDiffTurns200 is the budget: a diff of two 200-block
// requests takes at most 5 ms.
func BenchmarkDiffTurns200(b *testing.B) {
	x, y := benchTurns(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d := DiffTurns(&x, &y)
		if d.Summary.ModifiedBlocks != 1 {
			b.Fatal(d.Summary)
		}
	}
}

// BenchmarkExtractAndDiff200 includes splitting both requests into blocks
// (JSON.stringify and hashing of every message).
func BenchmarkExtractAndDiff200(b *testing.B) {
	ra, rb := benchRequest(200, 0), benchRequest(200, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x := ExtractPayload("a", "", "", ra, "")
		y := ExtractPayload("b", "", "", rb, "")
		d := DiffTurns(&x, &y)
		_ = jsonv.Stringify(DiffJSON(&d))
	}
}

// TestDiffBudget keeps the 5 ms budget honest (with FORGEBENCH_TIMING=1;
// BenchmarkExtractAndDiff200 measures the same): the median of several runs
// of DiffTurns on two 200-block requests.
func TestDiffBudget(t *testing.T) {
	timing.Require(t)
	x, y := benchTurns(t)
	var runs []time.Duration
	for i := 0; i < 15; i++ {
		start := time.Now()
		d := DiffTurns(&x, &y)
		runs = append(runs, time.Since(start))
		if d.Summary.AddedBlocks != 1 || d.Summary.ModifiedBlocks != 1 {
			t.Fatalf("summary %+v", d.Summary)
		}
	}
	if m := median(runs); m > 5*time.Millisecond {
		t.Errorf("diff of two 200-block requests: median %v > 5ms", m)
	}
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}

// BenchmarkCacheSeries60k runs the cache series of a big session's branch:
// 60,000 requests of one model, the cache dropping every other request.
func BenchmarkCacheSeries60k(b *testing.B) {
	usages := make([]Usage, 60000)
	for i := range usages {
		usages[i] = Usage{Index: i, Provider: "anthropic", Model: "claude-sonnet-4-5", Input: 100, CacheRead: float64(1000 * (i % 2))}
	}
	b.ReportAllocs()
	for b.Loop() {
		CacheSeries(usages)
	}
}
