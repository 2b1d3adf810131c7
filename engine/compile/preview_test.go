package compile

import (
	"strings"
	"testing"
)

func concatParts(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func TestPreviewPartsConcatenate(t *testing.T) {
	items := []string{
		`{"kind":"block","id":"a","name":"Alpha block","role":"system","content":"  Alpha  "}`,
		systemBlock("skip", " "),
		systemSlot("cwd", "cwd", ""),
		`{"kind":"block","id":"u","name":"Ask","role":"user","content":"question"}`,
		`{"kind":"slot","id":"h","name":"History","slot":"chat-history"}`,
	}
	for _, mode := range []string{"", `"mode":"append"`, `"mode":"prepend"`} {
		stack := mustStack(t, stackWithItems(mode, items...))
		p := Preview(stack, testRuntime(), "BASE", parseMessages(t, `[{"role":"user","content":"hi","timestamp":1}]`), nil)
		if got := concatParts(p.System); got != p.Result.System.SystemPrompt {
			t.Errorf("%s: parts %q != prompt %q", mode, got, p.Result.System.SystemPrompt)
		}
		var labels []string
		for _, part := range p.System {
			labels = append(labels, part.Kind+":"+part.Label)
		}
		want := map[string]string{
			"":                 "item:Alpha block separator:separator item:cwd",
			`"mode":"append"`:  "base:Pi base system prompt separator:separator item:Alpha block separator:separator item:cwd",
			`"mode":"prepend"`: "item:Alpha block separator:separator item:cwd separator:separator base:Pi base system prompt",
		}[mode]
		if got := strings.Join(labels, " "); got != want {
			t.Errorf("%s: labels %s", mode, got)
		}
		if p.System[0].Tokens != EstimateTokens(p.System[0].Text) {
			t.Errorf("token estimate missing")
		}
		if len(p.Messages) != 2 || p.Messages[0].Label != "Ask" || p.Messages[0].Kind != PartItem ||
			p.Messages[1].Label != "History 1/1" || p.Messages[1].Kind != PartHistory || p.Messages[1].Text != "hi" {
			t.Errorf("%s: message parts %+v", mode, p.Messages)
		}
	}
}

func TestPreviewFallbackAndRegex(t *testing.T) {
	p := Preview(mustStack(t, stackWithItems("", systemBlock("e", " "))), testRuntime(), "BASE", nil, nil)
	if len(p.System) != 1 || p.System[0].Kind != PartBase || concatParts(p.System) != "BASE" {
		t.Errorf("fallback parts %+v", p.System)
	}
	rx := `"regex":{"rules":[{"id":"r","stage":"compiled","targets":["system"],"pattern":"A","replace":"B"}]}`
	p = Preview(mustStack(t, stackWithItems(rx, systemBlock("a", "A1"), systemBlock("b", "A2"))), testRuntime(), "", nil, nil)
	if len(p.System) != 1 || p.System[0].Kind != PartRegex || concatParts(p.System) != "B1\n\nA2" {
		t.Errorf("regex parts %+v", p.System)
	}
}

func TestEstimateTokens(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "abcd": 1, "abcde": 2, "😀😀": 1} {
		if got := EstimateTokens(in); got != want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", in, got, want)
		}
	}
}
