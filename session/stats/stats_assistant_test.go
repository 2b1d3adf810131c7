package stats

import (
	"reflect"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/internal/rawjson"
)

// readAssistantByPasses is the former readAssistant, one pass per question:
// the reference the one-walk reader must agree with.
func readAssistantByPasses(e *session.Entry) statRecord {
	var r statRecord
	var content, usage, provider, model, responseModel []byte
	rawjson.EachMember(e.MessageRaw(), func(key, value []byte) bool {
		switch string(key) {
		case "content":
			content = value
		case "usage":
			usage = value
		case "provider":
			provider = value
		case "model":
			model = value
		case "responseModel":
			responseModel = value
		}
		return true
	})
	rawjson.EachElement(content, func(block []byte) bool {
		if t, _ := rawjson.String(rawjson.Member(block, "type")); t == session.BlockToolCall {
			r.toolCalls++
		}
		return true
	})
	keyModel := responseModel
	if responseModel == nil || rawjson.IsNull(responseModel) {
		keyModel = model
	}
	p, m := jsStringOf(provider), jsStringOf(model)
	r.readUsage(usage, p+"/"+jsStringOf(keyModel), p, m)
	return r
}

// assistantMessages are assistant message bodies with duplicates, escapes,
// odd content and nesting around the walker's depth limit.
func assistantMessages() []string {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	return []string{
		`{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"toolCall","id":"t1"},{"id":"t2","type":"toolCall"}],"provider":"p","model":"m","usage":{"input":1,"output":2,"cost":{"total":0.5}}}`,
		`{"role":"assistant","content":[{"type":"toolCall"}],"content":[{"type":"text"}],"provider":"p","model":"m","usage":{"input":1}}`,
		`{"role":"assistant","content":[{"type":"toolCall"},{"type":"toolCall"}],"content":"text","usage":{"input":1}}`,
		`{"role":"assistant","content":[{"type":"toolCall","type":"text"},{"type":"text","typ\u0065":"toolCall"},{"t\u0079pe":"toolCall"}],"usage":{"input":1}}`,
		`{"role":"assistant","content":[1,"toolCall",null,[{"type":"toolCall"}],{"type":"toolCall"}],"us\u0061ge":{"input":9},"usage":{"input":1},"responseModel":"r","model":"m","provider":"p"}`,
		`{"role":"assistant","content":[],"responseModel":null,"model":"m","provider":"p","usage":{"input":1,"cost":{"total":"x"}}}`,
		`{"role":"assistant","content":[{"type":"toolCall","arguments":` + deep(505) + `}],"usage":{"input":1}}`,
		`{"role":"assistant","content":[{"type":"toolCall","arguments":` + deep(520) + `}],"usage":{"input":1}}`,
		`{"role":"assistant","content":[{"type":"toolCall"}],"content":[{"type":"toolCall","x":` + deep(600) + `}],"usage":{"input":1}}`,
		`{"role":"assistant","usage":{"input":3},"content":{"type":"toolCall","x":` + deep(600) + `},"provider":"p"}`,
		`{"role":"assistant","content":` + deep(511) + `,"usage":{"input":1}}`,
		`{"role":"assistant","content":` + deep(512) + `,"usage":{"input":1}}`,
	}
}

// TestReadAssistantOneWalk checks that the one-walk reader reads what the
// pass-per-question reader read, message by message.
func TestReadAssistantOneWalk(t *testing.T) {
	for _, msg := range assistantMessages() {
		checkReadAssistant(t, msg)
	}
}

func checkReadAssistant(t *testing.T, msg string) {
	t.Helper()
	line := `{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":` + msg + `}`
	var lines session.LineParser
	kind, e := lines.Parse([]byte(line), 1)
	if kind != session.LineEntry || e.Role != session.RoleAssistant {
		return
	}
	want := readAssistantByPasses(&e)
	var got statRecord
	got.readAssistant(&e, &nameMemo{})
	var again statRecord
	memo := nameMemo{}
	again.readAssistant(&e, &memo)
	again = statRecord{}
	again.readAssistant(&e, &memo) // from the previous message's strings
	if !reflect.DeepEqual(again, want) {
		t.Errorf("%.200s, names reused:\n got  %+v\n want %+v", msg, again, want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%.200s:\n got  %+v\n want %+v", msg, got, want)
	}
}

func FuzzReadAssistant(f *testing.F) {
	for _, msg := range assistantMessages() {
		f.Add(msg)
	}
	f.Fuzz(func(t *testing.T, msg string) { checkReadAssistant(t, msg) })
}

// TestNameMemoFollowsChanges checks that names resolved from the previous
// message's strings change as soon as any raw name does.
func TestNameMemoFollowsChanges(t *testing.T) {
	raw := func(s string) []byte {
		if s == "-" {
			return nil
		}
		return []byte(s)
	}
	seq := [][3]string{
		{`"p"`, `"m"`, `-`}, {`"p"`, `"m"`, `-`}, {`"p"`, `"m"`, `null`}, {`"p"`, `"m"`, `"r"`},
		{`"p"`, `"m2"`, `"r"`}, {`"q"`, `"m2"`, `"r"`}, {`-`, `"m2"`, `"r"`}, {`7`, `"m2"`, `"r"`}, {`"p"`, `"m"`, `-`},
	}
	var memo nameMemo
	for _, names := range seq {
		n := assistantNames{raw(names[0]), raw(names[1]), raw(names[2])}
		p, m, k := memo.resolve(&n)
		wp, wm, wk := (&nameMemo{}).resolve(&n)
		if p != wp || m != wm || k != wk {
			t.Errorf("%v: got %q %q %q, want %q %q %q", names, p, m, k, wp, wm, wk)
		}
	}
}
