package session

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// TestBranchPathsShareDecodedMessages: contexts built on one branch
// through a shared BranchPaths — decoded up front, then built
// concurrently — equal the contexts built alone, and share the decoded
// message bodies instead of decoding them again.
func TestBranchPathsShareDecodedMessages(t *testing.T) {
	files, _ := filepath.Glob("../resources/demo/workspace/home/.pi/agent/sessions/*/*.jsonl")
	big, _ := writeGenerated(t, t.TempDir(), 1<<20)
	files = append(files, big)
	shared := 0
	for _, file := range files {
		s, err := Open(file)
		if err != nil {
			t.Fatal(err)
		}
		leaf := s.LeafIndex()
		paths := NewBranchPaths(s, leaf)
		for i := range s.Entries { // on the branch or off it, the path is PathTo's
			if got, want := paths.to(s, i), s.PathTo(i); !slices.Equal(got, want) {
				t.Fatalf("%s: path to %d is %v, PathTo %v", filepath.Base(file), i, got, want)
			}
		}
		paths.Decode(s)
		var path []int // at most 40 entries of the branch, its last two among them
		full := s.PathTo(leaf)
		for k := 0; k < len(full)-2; k += max(1, len(full)/40) {
			path = append(path, full[k])
		}
		path = append(path, full[max(0, len(full)-2):]...)
		got := make([]*Context, len(path))
		var wg sync.WaitGroup
		for k := range path {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[k], _ = s.ContextOn(path[k], paths)
			}()
		}
		wg.Wait()
		for k, i := range path {
			want, err := s.Context(i)
			if err != nil || got[k] == nil {
				t.Fatalf("%s at %d: %v", file, i, err)
			}
			if a, b := jsonv.Stringify(got[k].AgentMessages()), jsonv.Stringify(want.AgentMessages()); a != b {
				t.Fatalf("%s: the context at entry %d differs through the shared paths", filepath.Base(file), i)
			}
		}
		// The last two contexts hold the same decoded bodies.
		if n := len(got); n >= 2 {
			a, b := got[n-2].AgentMessages(), got[n-1].AgentMessages()
			for j := 0; j < min(len(a), len(b)); j++ {
				if _, isObj := a[j].(*jsonv.Object); isObj && a[j] == b[j] {
					shared++
				}
			}
		}
	}
	if shared < 10 {
		t.Fatalf("only %d message bodies shared between neighbouring contexts", shared)
	}
}
