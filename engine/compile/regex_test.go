package compile

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func TestRegexEffects(t *testing.T) {
	stack := `{"schemaVersion":2,"id":"rx","regex":{"schemaVersion":1,"rules":[
		{"id":"hist","stage":"history","pattern":"o","flags":"g","replace":"0","roles":["user"]},
		{"id":"sys","stage":"compiled","targets":["system"],"pattern":"(Al)pha","replace":"$1PHA"},
		{"id":"msg","stage":"compiled","targets":["messages"],"pattern":"injected","replace":"[$&]"},
		{"id":"off","enabled":false,"stage":"compiled","pattern":"A","replace":"Z"},
		{"id":"miss","stage":"compiled","pattern":"nothing-matches"}]},
		"items":[
		{"kind":"block","id":"a","role":"system","content":"Alpha and alpha"},
		{"kind":"block","id":"u","role":"user","content":"injected text"},
		{"kind":"slot","id":"h","slot":"chat-history"}]}`
	history := `[{"role":"system","content":"no change to control","timestamp":0},{"role":"user","content":"foo boo","timestamp":1},{"role":"assistant","content":[{"type":"text","text":"oo"}],"timestamp":2}]`
	res := Compile(mustStack(t, stack), testRuntime(), "", parseMessages(t, history), nil)
	if res.System.SystemPrompt != "AlPHA and alpha" {
		t.Errorf("system prompt %q", res.System.SystemPrompt)
	}
	if d := diagText(res.System.Diagnostics); d != `[{"level":"info","message":"Regex rule sys matched 1 time(s) and changed 1 text segment(s) in compiled/system."}]` {
		t.Errorf("system diagnostics %s", d)
	}
	got := jsonv.Stringify(res.Messages.Messages)
	want := `[{"role":"system","content":"no change to control","timestamp":0},{"role":"user","content":[{"type":"text","text":"[injected] text"}],"timestamp":1795989909123},` +
		`{"role":"user","content":"f00 b00","timestamp":1},{"role":"assistant","content":[{"type":"text","text":"oo"}],"timestamp":2}]`
	if got != want {
		t.Errorf("messages\n got %s\nwant %s", got, want)
	}
	wantDiags := `[{"level":"info","message":"Regex rule hist matched 4 time(s) and changed 1 text segment(s) in history/messages."},` +
		`{"level":"info","message":"Regex rule msg matched 1 time(s) and changed 1 text segment(s) in compiled/messages."}]`
	if d := diagText(res.Messages.Diagnostics); d != wantDiags {
		t.Errorf("message diagnostics\n got %s\nwant %s", d, wantDiags)
	}
}
