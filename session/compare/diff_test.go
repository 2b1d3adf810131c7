package compare

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

func openTestdata(t *testing.T, name string) *session.Session {
	t.Helper()
	s, err := session.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func side(t *testing.T, s *session.Session, id string) Side {
	t.Helper()
	i, ok := s.IndexOf(id)
	if !ok {
		t.Fatalf("no entry %s", id)
	}
	return Side{Session: s, Leaf: i}
}

func TestBranchesOfOneSession(t *testing.T) {
	s := openTestdata(t, "branches.jsonl")
	d, err := Branches(side(t, s, "a0000005"), side(t, s, "b0000004"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !d.HasForkPoint || d.ForkPoint != "r0000003" {
		t.Fatalf("fork point %q (%v), want r0000003", d.ForkPoint, d.HasForkPoint)
	}
	a, b := d.A, d.B
	if a.Leaf != "a0000005" || a.Entries != 5 || a.Messages != (Messages{User: 1, Assistant: 2, Errors: 1}) {
		t.Errorf("A: leaf %s entries %d messages %+v", a.Leaf, a.Entries, a.Messages)
	}
	if want := []NameCount{{"bash", 2}, {"edit", 1}}; !reflect.DeepEqual(a.ToolCalls, want) {
		t.Errorf("A tool calls %+v, want %+v", a.ToolCalls, want)
	}
	if want := []string{"src/parse.go", "test.log", "old.txt"}; !reflect.DeepEqual(a.FilesTouched, want) {
		t.Errorf("A files %q, want %q (the quoted name is not plain)", a.FilesTouched, want)
	}
	if a.Tokens != (Tokens{Input: 500, Output: 90, CacheRead: 300, CacheWrite: 10}) {
		t.Errorf("A tokens %+v", a.Tokens)
	}
	if !a.CostKnown || a.Cost != 0.0104 {
		t.Errorf("A cost %v known %v, want 0.0104", a.Cost, a.CostKnown)
	}
	// From the fork point (09:00:02) to the end of the last reply (09:01:06 + 4 s).
	if !a.DurationKnown || a.DurationMs != float64((68*time.Second).Milliseconds()) {
		t.Errorf("A wall time %v known %v, want 68000", a.DurationMs, a.DurationKnown)
	}
	if !reflect.DeepEqual(a.Models, []string{"anthropic/claude-test"}) || a.LastText != "The table version fails one test." {
		t.Errorf("A models %q last text %q", a.Models, a.LastText)
	}
	if b.Leaf != "b0000004" || b.Entries != 4 || b.Messages != (Messages{User: 1, Assistant: 2, Errors: 1}) {
		t.Errorf("B: leaf %s entries %d messages %+v", b.Leaf, b.Entries, b.Messages)
	}
	if !reflect.DeepEqual(b.FilesTouched, []string{"src/fsm.go"}) || !reflect.DeepEqual(b.Models, []string{"openai/gpt-test"}) {
		t.Errorf("B files %q models %q", b.FilesTouched, b.Models)
	}
	if b.CostKnown {
		t.Errorf("B cost known (%v) though gpt-test has no cost and no catalog prices it", b.Cost)
	}
	if b.HasLastText {
		t.Errorf("B last text %q, want none (no reply of B has text)", b.LastText)
	}
}

func TestBranchesAncestorIsEmptySide(t *testing.T) {
	s := openTestdata(t, "branches.jsonl")
	d, err := Branches(side(t, s, "r0000003"), side(t, s, "a0000002"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.ForkPoint != "r0000003" || d.A.Entries != 0 || d.B.Entries != 2 {
		t.Fatalf("fork %s, A %d entries, B %d; want r0000003, 0, 2", d.ForkPoint, d.A.Entries, d.B.Entries)
	}
	if !d.A.DurationKnown || d.A.DurationMs != 0 || d.A.HasLastText {
		t.Errorf("empty side: wall %v known %v, last text %v", d.A.DurationMs, d.A.DurationKnown, d.A.HasLastText)
	}
}

// writeFork writes Pi's fork of s at the entry with id, with extra lines
// appended after it, and opens it.
func writeFork(t *testing.T, s *session.Session, id string, extra ...string) *session.Session {
	t.Helper()
	i, _ := s.IndexOf(id)
	abs, err := filepath.Abs(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	src, err := session.Open(abs)
	if err != nil {
		t.Fatal(err)
	}
	f, err := session.PlanFork(src, i, session.ForkOptions{
		Now:          time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		NewSessionID: func(time.Time) string { return "0197d2a0-0000-7000-8000-00000000f0c4" },
		NewEntryID:   func() string { return "l0000099" },
	})
	if err != nil {
		t.Fatal(err)
	}
	data := append([]byte(nil), f.Data...)
	for _, l := range extra {
		data = append(data, l+"\n"...)
	}
	path := filepath.Join(t.TempDir(), "fork.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	fork, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return fork
}

func TestBranchesAcrossAFork(t *testing.T) {
	s := openTestdata(t, "branches.jsonl")
	// Label the fork point in the parent: the fork re-writes the label
	// after the path, which is not work done on the fork.
	fork := writeFork(t, s, "a0000002",
		`{"type":"message","id":"f0000001","parentId":"l0000099","timestamp":"2026-11-21T09:00:01.000Z","message":{"role":"user","content":"Undo that and try again."}}`,
		`{"type":"message","id":"f0000002","parentId":"f0000001","timestamp":"2026-11-21T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"provider":"anthropic","model":"claude-test","usage":{"input":10,"output":1,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.5}},"stopReason":"stop","timestamp":1763715602000}}`)
	if p, ok := fork.ParentSession(); !ok || p == "" {
		t.Fatal("the fork names no parentSession")
	}
	if e, ok := fork.Entry("l0000099"); !ok || e.Type != session.TypeLabel {
		t.Fatal("the fork holds no re-written label l0000099")
	}
	d, err := Branches(side(t, s, "a0000005"), side(t, fork, "f0000002"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.ForkPoint != "a0000002" {
		t.Fatalf("fork point %s, want a0000002 (the entry the fork was made at)", d.ForkPoint)
	}
	if d.A.Entries != 3 || d.B.Entries != 2 || d.B.Messages.User != 1 || d.B.Cost != 0.5 {
		t.Errorf("A %d entries, B %d entries, B %+v cost %v", d.A.Entries, d.B.Entries, d.B.Messages, d.B.Cost)
	}
	// The other way round gives the same fork point.
	back, err := Branches(side(t, fork, "f0000002"), side(t, s, "b0000004"), nil)
	if err != nil || back.ForkPoint != "r0000003" {
		t.Fatalf("fork vs the parent's other branch: %v, fork point %s; want r0000003", err, back.ForkPoint)
	}
}

func TestBranchesOfUnrelatedSessions(t *testing.T) {
	s := openTestdata(t, "branches.jsonl")
	other, err := session.Open(filepath.Join("..", "..", "cli", "testdata", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Branches(side(t, s, "a0000005"), Side{Session: other, Leaf: other.LeafIndex()}, nil)
	if !errors.Is(err, ErrUnrelated) {
		t.Fatalf("unrelated sessions: %v, want ErrUnrelated", err)
	}
}

func TestDiffValueKeysInContractOrder(t *testing.T) {
	s := openTestdata(t, "branches.jsonl")
	d, err := Branches(side(t, s, "a0000005"), side(t, s, "b0000004"), nil)
	if err != nil {
		t.Fatal(err)
	}
	v := d.Value()
	if got := strings.Join(v.Keys(), ","); got != "forkPoint,a,b" {
		t.Errorf("top keys %s", got)
	}
	b, _ := v.Get("b")
	if got := strings.Join(b.(*jsonv.Object).Keys(), ","); got != "leaf,entries,messages,toolCalls,filesTouched,tokens,cost,durationMs,models,lastText" {
		t.Errorf("side keys %s", got)
	}
	js := jsonv.Stringify(v)
	for _, want := range []string{`"cost":null`, `"lastText":null`, `"toolCalls":{"bash":2,"edit":1}`, `"tokens":{"input":500,"output":90,"cacheRead":300,"cacheWrite":10}`} {
		if !strings.Contains(js, want) {
			t.Errorf("JSON lacks %s:\n%s", want, js)
		}
	}
}
