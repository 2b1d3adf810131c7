package search

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync/atomic"
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

// TestRecordedTreeIsTheTreePass: the tree the scan records part by part —
// recording from the first hit on, leaving the stretches before it to the
// tree pass — is exactly the tree of the whole pass, whatever the parts,
// the read buffer, the order the parts are scanned in and where the hits
// are: over forests with duplicate ids, cycles, junk and session lines,
// lines longer than the buffer and over the line limit, a header after
// junk and a last line without a newline.
func TestRecordedTreeIsTheTreePass(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 3))
	m, err := Compile(Query{Text: "zebra"})
	if err != nil {
		t.Fatal(err)
	}
	for round := range 400 {
		n := 1 + rnd.IntN(60)
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("e%d", rnd.IntN(n+3))
		}
		var lines []string
		switch rnd.IntN(8) {
		case 0:
			lines = append(lines, "", "{broken") // junk before the header
		case 1:
			lines = append(lines, userLine("q0", "", 0, "quick before the header")) // not a session
		case 2:
			lines = append(lines, `{"type":"custom","customType":"x","id":"c0","parentId":null}`) // not a session either
		}
		lines = append(lines, headerLine(fmt.Sprintf("s%d", round)))
		for i := range n {
			parent := ""
			switch r := rnd.IntN(10); {
			case r == 0:
			case r == 1:
				parent = ids[rnd.IntN(n)]
			case r == 2:
				parent = "missing"
			case i > 0:
				parent = ids[rnd.IntN(i)]
			}
			text := "t"
			if rnd.IntN(5) == 0 {
				text = "a zebra"
			}
			if rnd.IntN(12) == 0 {
				text += strings.Repeat(" long", 40+rnd.IntN(80))
			}
			switch rnd.IntN(8) {
			case 0:
				lines = append(lines, `{"type":"custom","customType":"x","data":{"t":`+parentJSON(text)+`},"id":"`+ids[i]+`","parentId":`+parentJSON(parent)+`,"timestamp":"`+ts(i)+`"}`)
			case 1:
				lines = append(lines, `{"type":"message","id":"`+ids[i]+`","parentId":`+parentJSON(parent)+`,"timestamp":"`+ts(i)+`","message":{"role":"user","content":"esc\u00e9 `+text+`"}}`)
			default:
				lines = append(lines, userLine(ids[i], parent, i, text))
			}
			switch rnd.IntN(20) {
			case 0:
				lines = append(lines, "{broken zebra")
			case 1:
				lines = append(lines, headerLine("again"))
			case 2:
				lines = append(lines, "")
			}
		}
		data := []byte(strings.Join(lines, "\n"))
		if rnd.IntN(3) > 0 {
			data = append(data, '\n')
		}
		maxLine := 1 << 20
		if rnd.IntN(4) == 0 {
			maxLine = 300 // some lines over the limit
		}
		checkRecordedTree(t, m, data, 64+rnd.IntN(400), maxLine, int64(50+rnd.IntN(2000)), rnd.IntN(4) == 0, rnd)
	}
}

// checkRecordedTree scans data in parts of partBytes (in a random order)
// with recording on, fills the gaps and compares the tree with the whole
// pass's. preHit: another part (or file) found a hit before any of these
// was scanned.
func checkRecordedTree(t *testing.T, m *Matcher, data []byte, bufBytes, maxLine int, partBytes int64, preHit bool, rnd *rand.Rand) {
	t.Helper()
	size := int64(len(data))
	var big bigLines
	sc := newScanner(bufBytes, maxLine, &big)
	want, wantErr := sc.readTree(t.Context(), bytes.NewReader(data), size)
	var starts []int64
	for s := int64(0); s < size; s += partBytes {
		starts = append(starts, s)
	}
	parts := make([]*partTree, len(starts))
	var hasHits atomic.Bool
	hasHits.Store(preHit)
	everything := headEscapesEverything(bytes.NewReader(data), size)
	for _, k := range rnd.Perm(len(starts)) {
		sc.tree, sc.hasHits = &partTree{}, &hasHits
		if _, err := sc.scanRange(t.Context(), m, bytes.NewReader(data), size, starts[k], min(size, starts[k]+partBytes), everything && starts[k] > 0); err != nil {
			t.Fatal(err)
		}
		parts[k] = sc.tree
	}
	sc.tree, sc.hasHits = nil, nil
	if err := sc.fill(t.Context(), bytes.NewReader(data), size, parts); err != nil {
		t.Fatal(err)
	}
	got, err := merge(parts)
	switch {
	case errors.Is(err, errQuickBeforeHeader):
		return // the whole pass decides (placeTree)
	case err != nil || wantErr != nil:
		if !errors.Is(err, wantErr) && !errors.Is(wantErr, err) {
			t.Fatalf("recorded %v, the pass %v\n%q", err, wantErr, data)
		}
	case !reflect.DeepEqual(got, want):
		t.Fatalf("recorded tree\n%+v\nthe pass\n%+v\n%q", got, want, data)
	}
}
