package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
)

// TestActiveBranchAgreesWithTheReader builds random entry forests —
// branches, orphans, duplicate ids, self-parents and cycles, some lines in
// the quick shape and some not — and checks the search's tree pass puts
// exactly the reader's PathTo(leaf) on the active branch.
func TestActiveBranchAgreesWithTheReader(t *testing.T) {
	rnd := rand.New(rand.NewPCG(16, 16))
	for round := range 300 {
		n := 1 + rnd.IntN(40)
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("e%d", rnd.IntN(n+3)) // duplicates on purpose
		}
		lines := []string{headerLine("s")}
		for i := range n {
			parent := ""
			switch r := rnd.IntN(10); {
			case r == 0:
			case r == 1:
				parent = ids[rnd.IntN(n)] // anywhere, cycles and forward links
			case r == 2:
				parent = "missing"
			case i > 0:
				parent = ids[rnd.IntN(i)]
			}
			if rnd.IntN(4) == 0 {
				lines = append(lines, `{"type":"custom","customType":"x","data":{},"id":"`+ids[i]+`","parentId":`+parentJSON(parent)+`,"timestamp":"`+ts(i)+`"}`)
			} else {
				lines = append(lines, userLine(ids[i], parent, i, "t"))
			}
			if rnd.IntN(15) == 0 {
				lines = append(lines, "{broken")
			}
		}
		data := []byte(strings.Join(lines, "\n") + "\n")
		s, err := session.Read(bytes.NewReader(data), session.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]bool{}
		for _, i := range s.PathTo(s.LeafIndex()) {
			want[s.Entries[i].Line] = true
		}
		var big bigLines
		tree, err := newScanner(64, MaxLineBytes, &big).readTree(t.Context(), bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if len(tree.ids) != len(s.Entries) {
			t.Fatalf("round %d: %d entries, the reader has %d", round, len(tree.ids), len(s.Entries))
		}
		for i := range tree.ids {
			if tree.active[i] != want[int(tree.lines[i])] {
				t.Fatalf("round %d: line %d active=%v, reader says %v\n%s", round, tree.lines[i], tree.active[i], want[int(tree.lines[i])], data)
			}
		}
	}
}
