package sessions

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
)

// freshLines builds a session from entry lines chained by parentId.
func freshSession(t *testing.T, types ...string) *session.Session {
	t.Helper()
	lines := []string{`{"type":"session","version":3,"id":"01a2297e-0000-7000-8000-00000000f001","timestamp":"2026-11-01T09:00:00.000Z","cwd":"/w"}`}
	parent := "null"
	for i, typ := range types {
		id := string(rune('a'+i)) + "0000001"
		body := ""
		switch typ {
		case "model_change":
			body = `"provider":"anthropic","modelId":"claude-sonnet-4-5"`
		case "thinking_level_change":
			body = `"thinkingLevel":"medium"`
		case "session_info":
			body = `"name":"x"`
		case "message":
			body = `"message":{"role":"user","content":"hi","timestamp":1}`
		}
		lines = append(lines, `{"type":"`+typ+`","id":"`+id+`","parentId":`+parent+`,"timestamp":"2026-11-01T09:00:01.000Z",`+body+`}`)
		parent = `"` + id + `"`
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A branch holding only what Pi writes before the first prompt is fresh
// (pi-forge would auto-activate its agent profile there); anything else,
// or a second model or thinking-level change, is not.
func TestFreshBranch(t *testing.T) {
	for _, c := range []struct {
		types []string
		fresh bool
	}{
		{[]string{"thinking_level_change"}, true},
		{[]string{"model_change", "thinking_level_change"}, true},
		{[]string{"model_change", "thinking_level_change", "session_info"}, true},
		{[]string{"model_change"}, false}, // exactly one thinking-level change
		{[]string{"model_change", "thinking_level_change", "model_change", "thinking_level_change"}, false},
		{[]string{"model_change", "thinking_level_change", "message"}, false},
		{[]string{"message", "thinking_level_change"}, false},
	} {
		s := freshSession(t, c.types...)
		if got := freshBranch(s, s.LeafIndex()); got != c.fresh {
			t.Errorf("%v: fresh %v, want %v", c.types, got, c.fresh)
		}
	}
	if freshBranch(freshSession(t, "thinking_level_change"), 5) {
		t.Error("an index outside the session is not fresh")
	}
}
