package search

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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
		tree, err := newScanner(64, MaxLineBytes, &big).readTree(t.Context(), bytes.NewReader(data), int64(len(data)), nil, true)
		if err != nil {
			t.Fatal(err)
		}
		view := viewOf(tree)
		if len(view.entries) != len(s.Entries) {
			t.Fatalf("round %d: %d entries, the reader has %d", round, len(view.entries), len(s.Entries))
		}
		for k, e := range view.entries {
			if e.id != s.Entries[k].ID || e.line != s.Entries[k].Line {
				t.Fatalf("round %d: entry %d is %q on line %d, the reader's %q on line %d", round, k, e.id, e.line, s.Entries[k].ID, s.Entries[k].Line)
			}
			if e.active != want[e.line] {
				t.Fatalf("round %d: line %d active=%v, reader says %v\n%s", round, e.line, e.active, want[e.line], data)
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
// pass's: every entry (when the parts kept offsets) and, always, the place
// of every hit found through where the scan noted its line. preHit:
// another part (or file) found a hit before any of these was scanned.
func checkRecordedTree(t *testing.T, m *Matcher, data []byte, bufBytes, maxLine int, partBytes int64, preHit bool, rnd *rand.Rand) {
	t.Helper()
	size := int64(len(data))
	var big bigLines
	sc := newScanner(bufBytes, maxLine, &big)
	want, wantErr := sc.readTree(t.Context(), bytes.NewReader(data), size, nil, true)
	var starts []int64
	for s := int64(0); s < size; s += partBytes {
		starts = append(starts, s)
	}
	parts := make([]*partTree, len(starts))
	var hasHits atomic.Bool
	hasHits.Store(preHit)
	keep := rnd.IntN(2) == 0
	everything := headEscapesEverything(bytes.NewReader(data), size)
	var hits []rangeHit
	for _, k := range rnd.Perm(len(starts)) {
		sc.tree, sc.hasHits = &partTree{keepOffsets: keep}, &hasHits
		res, err := sc.scanRange(t.Context(), m, bytes.NewReader(data), size, starts[k], min(size, starts[k]+partBytes), everything && starts[k] > 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range res.hits {
			res.hits[i].at.part = int32(k)
		}
		hits = append(hits, res.hits...)
		parts[k] = sc.tree
	}
	sc.tree, sc.hasHits = nil, nil
	sort.Slice(hits, func(a, b int) bool { return hits[a].lineOff < hits[b].lineOff })
	if err := sc.fill(t.Context(), bytes.NewReader(data), size, parts, hits); err != nil {
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
		return
	}
	if keep {
		if g, w := viewOf(got), viewOf(want); !reflect.DeepEqual(g, w) {
			t.Fatalf("recorded tree\n%+v\nthe pass\n%+v\n%q", g, w, data)
		}
	}
	for k := range hits {
		h := hits[k]
		h.at = entryRef{}
		wi, wl, wok, werr := want.locate(&h)
		gi, gl, gok, gerr := got.locate(&hits[k])
		if werr != nil || gerr != nil || wok != gok || wl != gl {
			t.Fatalf("hit at %d: recorded line %d (%v, %v), the pass %d (%v, %v)\n%q", h.lineOff, gl, gok, gerr, wl, wok, werr, data)
		}
		if !wok {
			continue
		}
		wa, wb, wf := want.place(wi)
		ga, gb, gf := got.place(gi)
		if wa != ga || wb != gb || wf != gf || want.id(wi) != got.id(gi) {
			t.Fatalf("hit on line %d: recorded %v %q %q %q, the pass %v %q %q %q\n%q", wl, ga, gb, gf, got.id(gi), wa, wb, wf, want.id(wi), data)
		}
	}
}

// treeView is a tree as a list, for comparing trees.
type treeView struct {
	sessionID string
	v1        bool
	entries   []viewEntry
}

type viewEntry struct {
	off          int64
	line         int
	id           string
	active       bool
	branch, fork string
}

// viewOf lists a tree that keeps offsets.
func viewOf(t *treeInfo) treeView {
	v := treeView{sessionID: t.sessionID, v1: t.v1}
	for c, ch := range t.chunks {
		for pos := range ch.ids {
			i := int32(c<<chunkBits | pos)
			e := viewEntry{off: ch.offs[pos], line: int(ch.lineBase+ch.lines[pos]) + 1, id: t.id(i)}
			e.active, e.branch, e.fork = t.place(i)
			v.entries = append(v.entries, e)
		}
	}
	return v
}

// TestHitPlacementThroughSearch runs whole searches over random forests —
// short and long ids (some listed), duplicates, cycles, junk and session
// lines, long lines — split in small parts read through small buffers,
// with and without the cache (whose second search places hits by offset
// in a kept tree), and checks every hit's line, id and place against the
// whole tree pass over the file.
func TestHitPlacementThroughSearch(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 20))
	sc := newScope(t)
	for round := range 60 {
		n := 1 + rnd.IntN(80)
		ids := make([]string, n)
		for i := range ids {
			switch rnd.IntN(6) {
			case 0:
				ids[i] = fmt.Sprintf("long-id-%d-0000-7000-8000", rnd.IntN(n+3)) // listed
			case 1:
				ids[i] = fmt.Sprintf("%08x", rnd.IntN(n+3)) // Pi's shape
			default:
				ids[i] = fmt.Sprintf("e%d", rnd.IntN(n+3))
			}
		}
		lines := []string{headerLine(fmt.Sprintf("s%d", round))}
		for i := range n {
			parent := ""
			switch r := rnd.IntN(10); {
			case r == 0:
			case r == 1:
				parent = ids[rnd.IntN(n)]
			case r == 2:
				parent = "missing"
			case i > 0 && r < 6:
				parent = ids[i-1]
			case i > 0:
				parent = ids[rnd.IntN(i)]
			}
			text := "t"
			if rnd.IntN(4) == 0 {
				text = "a zebra"
			}
			if rnd.IntN(10) == 0 {
				text += strings.Repeat(" long", 50+rnd.IntN(200))
			}
			if rnd.IntN(8) == 0 {
				lines = append(lines, `{"type":"custom_message","customType":"x","content":`+parentJSON(text)+`,"display":true,"id":"`+ids[i]+`","parentId":`+parentJSON(parent)+`,"timestamp":"`+ts(i)+`"}`)
			} else {
				lines = append(lines, userLine(ids[i], parent, i, text))
			}
			switch rnd.IntN(25) {
			case 0:
				lines = append(lines, "{broken zebra")
			case 1:
				lines = append(lines, headerLine("again"))
			}
		}
		path := writeFile(t, filepath.Join(sc.dir, fmt.Sprintf("2026_r%d.jsonl", round)), t0.Add(time.Duration(round)*time.Second), lines...)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var big bigLines
		want, err := newScanner(64, MaxLineBytes, &big).readTree(t.Context(), bytes.NewReader(data), int64(len(data)), nil, true)
		if err != nil {
			t.Fatal(err)
		}
		byOff := map[int64]viewEntry{}
		for _, e := range viewOf(want).entries {
			byOff[e.off] = e
		}
		s := NewSearcher()
		opt := Options{PartBytes: int64(40 + rnd.IntN(3000)), BufferBytes: 64 + rnd.IntN(1500), NoCache: rnd.IntN(2) == 0}
		for pass := range 2 {
			hits, _ := run(t, s, Scope{Loc: session.Locations{AgentDir: sc.agentDir}, Cwd: "/p", Home: "/home"}, Query{Text: "zebra"}, opt)
			for _, h := range hits {
				if h.File != path {
					continue
				}
				e, ok := byOff[h.LineOffset]
				if !ok {
					t.Fatalf("round %d pass %d: hit at %d is not an entry of the tree pass", round, pass, h.LineOffset)
				}
				if h.Line != e.line || h.EntryID != e.id || h.OnActiveBranch != e.active || h.Branch != e.branch || h.Fork != e.fork {
					t.Fatalf("round %d pass %d (%+v): hit line %d %q active %v %q %q, the tree pass line %d %q active %v %q %q",
						round, pass, opt, h.Line, h.EntryID, h.OnActiveBranch, h.Branch, h.Fork, e.line, e.id, e.active, e.branch, e.fork)
				}
			}
		}
		os.Remove(path)
	}
}
