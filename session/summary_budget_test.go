package session

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	gen "github.com/forgebench/forgebench/internal/sessiongen"
)

// allocatedBy returns the bytes fn allocates (the whole process's
// counter: run it alone, not in parallel with other tests).
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDescribeEntryReadsWhatItShows: a summary is at most 240 runes, so
// describing an entry must cost about that, not the size of its body
// (session tree describes every entry of a 1 GB session).
func TestDescribeEntryReadsWhatItShows(t *testing.T) {
	big := strings.Repeat(`const v = parse(\"héllo\", {depth: 3}); // 日本\n`, 1<<16) // ~3.5 MB of JSON text
	lines := map[string]string{
		"user":       `{"role":"user","content":"` + big + `","timestamp":1}`,
		"toolResult": `{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"` + big + `"},{"type":"text","text":"tail"}],"isError":true,"timestamp":2}`,
		"assistant": `{"role":"assistant","content":[{"type":"thinking","thinking":"` + big + `"},{"type":"text","text":"` + big + `"},` +
			`{"type":"toolCall","id":"c2","name":"write","arguments":{"text":"` + big + `"}}],"usage":{"totalTokens":42},"stopReason":"error","errorMessage":"overloaded","timestamp":3}`,
		"bashExecution": `{"role":"bashExecution","command":"` + big + `","output":"` + big + `","timestamp":4}`,
	}
	for role, msg := range lines {
		e, err := ParseEntryLine([]byte(`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-11-29T10:00:00.000Z","message":`+msg+`}`), 1)
		if err != nil {
			t.Fatal(err)
		}
		var sum EntrySummary
		n := allocatedBy(func() { sum = DescribeEntry(e) })
		if sum.Kind != role || !strings.HasSuffix(sum.Text, "…") {
			t.Errorf("%s: summary %+v", role, sum)
		}
		if n > 256<<10 {
			t.Errorf("%s: describing a %d MB entry allocated %d KB; the summary needs a few", role, len(e.Raw)>>20, n>>10)
		}
	}
}

// BenchmarkDescribeEntry describes every entry of a session of small
// entries (what session tree and the Session panel's rows do).
func BenchmarkDescribeEntry(b *testing.B) {
	path := filepath.Join(b.TempDir(), "small.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{TargetBytes: 8 << 20, Seed: 42, Shape: gen.ManySmall}); err != nil {
		b.Fatal(err)
	}
	f.Close()
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range s.Entries {
			DescribeEntry(&s.Entries[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(s.Entries)), "ns/entry")
}
