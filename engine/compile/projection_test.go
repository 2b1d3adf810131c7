package compile

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

const systemHistory = `[
 {"role":"system","content":"lead","sections":{"preamble":"P","tools":"<tools>\nT\n</tools>","my-ext":"E","cwd":"<cwd>\n/x\n</cwd>"},"toolsAdded":[{"name":"read"}],"timestamp":1},
 {"role":"user","content":"q","timestamp":2},
 {"role":"system","content":[{"type":"text","text":"later"}],"sections":{"tools":null,"addendum":"<addendum>\nA\n</addendum>","preamble":"P2"},"timestamp":3},
 {"role":"system","content":"","sections":{"cwd":"<cwd>\n/y\n</cwd>"},"timestamp":4}
]`

func TestPiBasePrompt(t *testing.T) {
	got := PiBasePrompt(parseMessages(t, systemHistory), "fallback")
	want := "lead\n\nP2\n\n<cwd>\n/y\n</cwd>\n\n<addendum>\nA\n</addendum>"
	if got != want {
		t.Errorf("base\n got %q\nwant %q", got, want)
	}
	if got := PiBasePrompt(parseMessages(t, `[{"role":"user","content":"q"}]`), "fallback"); got != "fallback" {
		t.Errorf("no system: %q", got)
	}
}

func TestProjectSystemPrompt(t *testing.T) {
	got := jsonv.Stringify(ProjectSystemPrompt(parseMessages(t, systemHistory), "COMPILED"))
	want := `[{"role":"system","content":"COMPILED","sections":{"my-ext":"E"},"toolsAdded":[{"name":"read"}],"timestamp":1},` +
		`{"role":"user","content":"q","timestamp":2},{"role":"system","content":[{"type":"text","text":"later"}],"timestamp":3},` +
		`{"role":"system","content":"","timestamp":4}]`
	if got != want {
		t.Errorf("projection\n got %s\nwant %s", got, want)
	}
	got = jsonv.Stringify(ProjectSystemPrompt(parseMessages(t, `[{"role":"user","content":"q"}]`), "C"))
	if want := `[{"role":"system","content":"C","timestamp":0},{"role":"user","content":"q"}]`; got != want {
		t.Errorf("unshift\n got %s\nwant %s", got, want)
	}
}

func TestPrepareRequest(t *testing.T) {
	stack := mustStack(t, `{"schemaVersion":2,"id":"p","mode":"append","regex":{"rules":[{"id":"req","stage":"history","frequency":"request","pattern":"q","replace":"Q"}]},"items":[
		{"kind":"block","id":"s","role":"system","content":"extra"},
		{"kind":"block","id":"u","role":"user","content":"latest={{ runtime.lastUserMessage }}"},
		{"kind":"slot","id":"h","slot":"chat-history"}]}`)
	rt := testRuntime()
	rt.LatestUserMessage = nil
	first := PrepareRequest(RequestInput{Stack: stack, Runtime: rt, Messages: parseMessages(t, systemHistory), FirstOfTurn: true, Prompt: strPtr("ignored")})
	if first.Base != "lead\n\nP2\n\n<cwd>\n/y\n</cwd>\n\n<addendum>\nA\n</addendum>" {
		t.Errorf("base %q", first.Base)
	}
	if first.System.SystemPrompt != first.Base+"\n\nextra" {
		t.Errorf("system %q", first.System.SystemPrompt)
	}
	joined, kinds := "", ""
	for _, p := range first.SystemParts {
		joined += p.Text
		kinds += p.Kind + "/" + p.ItemID + " "
	}
	if joined != first.System.SystemPrompt || kinds != "base/ separator/ item/s " {
		t.Errorf("system parts %q: %s", joined, kinds)
	}
	head := first.Projected[0].(*jsonv.Object)
	if content, _ := head.Get("content"); content != first.System.SystemPrompt {
		t.Errorf("projected head %s", jsonv.Stringify(head))
	}
	if text := PreviewText(first.Projected[1]); text != "latest=q" {
		t.Errorf("synthetic user sees %q", text)
	}
	if text := PreviewText(first.Projected[2]); text != "Q" {
		t.Errorf("history-stage regex on first request: %q", text)
	}
	followUp := PrepareRequest(RequestInput{Stack: stack, Runtime: rt, Messages: parseMessages(t, `[{"role":"user","content":"  "},{"role":"user","content":"q"}]`), FallbackBase: "FB"})
	if followUp.System.SystemPrompt != "FB\n\nextra" || len(followUp.Projected) != 3 || PreviewText(followUp.Projected[2]) != "Q" {
		t.Errorf("follow-up %s / %s", followUp.System.SystemPrompt, jsonv.Stringify(followUp.Projected))
	}
	noUser := PrepareRequest(RequestInput{Stack: stack, Runtime: rt, FirstOfTurn: true, Prompt: strPtr("from prompt")})
	if text := PreviewText(noUser.Messages.Messages[0]); text != "latest=from prompt" {
		t.Errorf("prompt fallback: %q", text)
	}
}
