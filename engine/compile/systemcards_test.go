package compile

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

func mustJSON(t *testing.T, text string) any {
	t.Helper()
	v, err := jsonv.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPresentSystemMessages: the leading System message carries the
// compiled prompt, Pi's own sections disappear, foreign sections and tool
// declarations stay (the latter as history), and a System message with
// nothing left is hidden.
func TestPresentSystemMessages(t *testing.T) {
	messages := mustJSON(t, `[
		{"role":"system","content":"","sections":{"preamble":"Pi","cwd":"<cwd>\n/x\n</cwd>"},"toolsAdded":[{"name":"read","parameters":{}},{"name":"ls"}],"timestamp":1},
		{"role":"user","content":"hi","timestamp":2},
		{"role":"system","content":"","sections":{"project_context":null},"timestamp":3},
		{"role":"system","content":"","toolsAdded":[{"name":"edit"}],"toolsRemoved":[{"name":"ls"}],"timestamp":4},
		{"role":"system","content":"late note","sections":{"team-rules":"be brief","gone":null},"timestamp":5}
	]`).([]any)
	stack, _ := preset.Parse([]byte(`{"id":"s","items":[{"kind":"block","id":"b","role":"system","content":"Compiled."},{"kind":"slot","id":"h","slot":"chat-history"}]}`), "s.json")
	res := PresentSystemMessages(Preview(stack, Runtime{}, "base", messages, nil))
	if res.HiddenSystem != 1 {
		t.Fatalf("hidden %d, want 1 (the section removal of a Pi section)", res.HiddenSystem)
	}
	if len(res.Messages) != 4 {
		t.Fatalf("%d parts", len(res.Messages))
	}
	lead := res.Messages[0]
	if lead.Kind != PartSystem || !lead.System.Leading || lead.Tokens != 0 ||
		!strings.Contains(lead.Text, "compiled system prompt above") || !strings.Contains(lead.Text, "+read +ls (history, not the current selection)") {
		t.Fatalf("leading card %+v", lead)
	}
	if strings.Contains(lead.Text, "Pi") {
		t.Fatalf("Pi's sections leaked: %q", lead.Text)
	}
	if tools := res.Messages[2]; tools.System == nil || tools.Text != "tools declared then: +edit -ls (history, not the current selection)" {
		t.Fatalf("tool card %q", tools.Text)
	}
	last := res.Messages[3].System
	if last.Body != "late note" || len(last.Sections) != 2 || *last.Sections[0].Value != "be brief" || last.Sections[1].Value != nil {
		t.Fatalf("late card %+v", last)
	}
	if res.Messages[3].Tokens != EstimateTokens("late note\n\nbe brief") {
		t.Fatalf("tokens %d", res.Messages[3].Tokens)
	}
}
