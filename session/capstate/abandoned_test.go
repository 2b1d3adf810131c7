package capstate

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// TestAbandonedWrites: entries forgebench appended while a Pi held the
// session in memory end up on an abandoned branch once that Pi writes
// its next message (chained from its in-memory leaf); the state says so,
// and the entries Pi itself wrote on other branches are not reported.
func TestAbandonedWrites(t *testing.T) {
	b := newBuilder()
	b.message("user", `"content":"hi","timestamp":1`)
	piLeaf := b.message("assistant", `"content":[],"provider":"anthropic","model":"claude-sonnet-4-5","api":"anthropic-messages","stopReason":"stop","timestamp":2`)
	path := b.file(t)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	s := openFile(t, path)
	p, err := PlanAt(s, Inputs{Workspace: defaultWorkspace(t)}, Operation{Kind: OpAdd, Arg: "Answer in French."}, DefaultOptions(nil))
	if err != nil || p.Refusal != nil {
		t.Fatalf("plan: %v %+v", err, p.Refusal)
	}
	res, err := session.Append(path, p.Guard, p.Entries(), session.AppendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := AbandonedWrites(openFile(t, path)); len(got) != 0 {
		t.Fatalf("entries at the leaf are not abandoned: %+v", got)
	}
	// Pi, which still holds the session, continues from its own leaf.
	appendLine(t, path, `{"type":"message","id":"0000bbb1","parentId":"`+piLeaf+`","timestamp":"2026-10-01T11:00:00.000Z","message":{"role":"user","content":"next","timestamp":3}}`)
	s = openFile(t, path)
	got := AbandonedWrites(s)
	if len(got) != 1 || strings.Join(got[0].IDs, ",") != strings.Join(res.IDs, ",") || got[0].ParentID != piLeaf {
		t.Fatalf("abandoned %+v, appended %v after %s", got, res.IDs, piLeaf)
	}
	st, err := At(s, s.LeafIndex(), Inputs{Workspace: defaultWorkspace(t)}, DefaultOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	st.Abandoned = got
	if len(st.Active()) != 0 {
		t.Fatal("the abandoned directive is active on the current branch")
	}
	v := StatusValue(st)
	keys := v.Keys()
	if keys[len(keys)-1] != "abandonedWrites" {
		t.Fatalf("keys %v: abandonedWrites must come last", keys)
	}
	js := jsonv.Stringify(v)
	if !strings.Contains(js, `"abandonedWrites":[{"entryIds":["`+res.IDs[0]) || !strings.Contains(js, `"parentId":"`+piLeaf+`"`) {
		t.Fatalf("json %s", js)
	}
	note := AbandonedNote(got)
	if !strings.Contains(note, "abandoned branch") || !strings.Contains(note, res.IDs[0]) || !strings.Contains(note, piLeaf) {
		t.Fatalf("note %q", note)
	}
	// The same entries written by Pi (unmarked ids) are not forgebench's.
	b2 := newBuilder()
	b2.message("user", `"content":"hi","timestamp":1`)
	leaf := b2.last
	b2.custom("pi-forge-capability-event", jsonv.NewObject())
	b2.last = leaf
	b2.message("user", `"content":"other branch","timestamp":2`)
	if got := AbandonedWrites(b2.session(t)); len(got) != 0 {
		t.Fatalf("Pi's own abandoned entries reported: %+v", got)
	}
}

func openFile(t *testing.T, path string) *session.Session {
	t.Helper()
	s, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func appendLine(t *testing.T, path, line string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}
