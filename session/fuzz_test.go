package session

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the reader with a small line limit
// (bounded memory) and exercises everything built on top of it: no input
// may panic, and every produced JSON must be valid. Run with
// -fuzzminimizetime 1s: minimizing the multi-kilobyte seeds otherwise stalls
// the fuzzer for minutes.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"v3-all-types.jsonl", "v1.jsonl", "v2.jsonl"} {
		if data, err := os.ReadFile("testdata/" + name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(testHeader + "\n" + entryLine("a", "") + "\n{\"type\":\"compaction\",\"id\":\"c\",\"parentId\":\"a\",\"firstKeptEntryId\":\"a\"}"))
	f.Add([]byte("{\"type\":\"session\",\"id\":\"x\"}\n[1]\n\"s\"\n{\"type\":\"message\",\"id\":\"m\",\"message\":{\"role\":\"bashExecution\",\"exitCode\":\"7\"}}\n"))
	f.Add([]byte("\n\n{\"type\":\"session\",\"id\":\"\\u0000\"}\r\n{\"type\":\"label\",\"id\":\"l\",\"targetId\":\"l\",\"label\":[1]}"))
	f.Add([]byte(testHeader + "\n" + entryLine("a", "b") + "\n" + entryLine("b", "a") + "\n" + entryLine("a", "") + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read(bytes.NewReader(data), Options{MaxLineBytes: 1 << 16, ChunkBytes: 97, Workers: 2})
		if err != nil {
			return
		}
		tr := s.Tree()
		if len(tr.Parent) != len(s.Entries) {
			t.Fatalf("tree has %d nodes for %d entries", len(tr.Parent), len(s.Entries))
		}
		if got, want := s.RepairNotes(), s.TreeNotes(tr); !reflect.DeepEqual(got, want) {
			t.Fatalf("RepairNotes %q, TreeNotes %q", got, want)
		}
		forestCovers(t, s, tr)
		for _, n := range append(s.LoadNotes(), s.TreeNotes(tr)...) {
			if strings.ContainsAny(n, "\x1b\x07\u009b\u202e") {
				t.Fatalf("raw control character in note %q", n)
			}
		}
		for i := range s.Entries {
			if _, err := s.Context(i); err != nil {
				t.Fatalf("context at %d: %v", i, err)
			}
			e := &s.Entries[i]
			_, _ = e.Payload()
			_, _ = e.Value()
		}
		out, err := ContextJSON(s, "")
		if err != nil {
			t.Fatalf("ContextJSON: %v", err)
		}
		if !json.Valid(out) {
			t.Fatalf("ContextJSON produced invalid JSON: %s", out)
		}
		sum, err := SummaryJSON(s)
		if err != nil {
			t.Fatalf("SummaryJSON: %v", err)
		}
		if !json.Valid(sum) {
			t.Fatalf("SummaryJSON produced invalid JSON: %s", sum)
		}
	})
}
