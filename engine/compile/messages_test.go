package compile

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

const sampleHistory = `[
 {"role":"system","content":"","sections":{"preamble":"P"},"timestamp":1},
 {"role":"user","content":[{"type":"text","text":"first"}],"timestamp":2},
 {"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"answer"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a"}}],"api":"x","provider":"p","model":"m","usage":{},"stopReason":"toolUse","timestamp":3,"extra":{"kept":true}},
 {"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"file body"}],"isError":false,"timestamp":4},
 {"role":"compactionSummary","summary":"earlier","tokensBefore":10,"timestamp":5},
 {"role":"custom","customType":"pi-forge-capability-delivery","content":"cap","display":false,"timestamp":6},
 {"role":"assistant","content":[{"type":"thinking","thinking":"only thinking"}],"api":"x","provider":"p","model":"m","usage":{},"stopReason":"stop","timestamp":7},
 {"role":"bashExecution","command":"ls","output":"a b","exitCode":0,"cancelled":false,"truncated":false,"timestamp":8},
 {"role":"user","content":"second","timestamp":9}
]`

func compileMessagesJSON(t *testing.T, stackJSON, history string) (string, string, string) {
	t.Helper()
	var messages []any
	if history != "" {
		messages = parseMessages(t, history)
	}
	res := Compile(mustStack(t, stackJSON), testRuntime(), "BASE", messages, nil).Messages
	sources := make([]any, len(res.MessageSources))
	for i, s := range res.MessageSources {
		sources[i] = SourceJSON(s)
	}
	return jsonv.Stringify(res.Messages), jsonv.Stringify(sources), diagText(res.Diagnostics)
}

func TestSyntheticMessages(t *testing.T) {
	stack := `{"schemaVersion":2,"id":"syn","defaults":{"syntheticMessagesVisible":true},"items":[
		{"kind":"block","id":"u","name":"User note","role":"user","content":"  hi {{ runtime.lastUserMessage }}  "},
		{"kind":"block","id":"blank","role":"user","content":"   "},
		{"kind":"block","id":"a","role":"assistant","content":"ok"},
		{"kind":"slot","id":"c","role":"custom","slot":"cwd"},
		{"kind":"block","id":"none","content":"ignored"},
		{"kind":"block","id":"sys","role":"system","content":"system only"}]}`
	messages, sources, diags := compileMessagesJSON(t, stack, `[{"role":"user","content":"q","timestamp":1}]`)
	const ts = "1795989909123"
	want := `[{"role":"user","content":[{"type":"text","text":"  hi latest question  "}],"timestamp":` + ts + `},` +
		`{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5",` +
		`"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":` + ts + `},` +
		`{"role":"custom","customType":"pi-forge","content":[{"type":"text","text":"Current working directory: C:/work/demo"}],"display":true,"details":{"stackId":"syn"},"timestamp":` + ts + `},` +
		`{"role":"user","content":"q","timestamp":1}]`
	if messages != want {
		t.Errorf("messages\n got %s\nwant %s", messages, want)
	}
	wantSources := `[{"kind":"stack-item","itemId":"u","itemName":"User note","role":"user"},{"kind":"stack-item","itemId":"a","role":"assistant"},` +
		`{"kind":"stack-item","itemId":"c","role":"custom"},{"kind":"implicit-history","itemName":"Conversation history","slot":"chat-history","historyIndex":1,"historyCount":1,"role":"user"}]`
	if sources != wantSources {
		t.Errorf("sources\n got %s\nwant %s", sources, wantSources)
	}
	if diags != "[]" {
		t.Errorf("diagnostics %s", diags)
	}

	noModel := testRuntime()
	noModel.Model = nil
	res := Compile(mustStack(t, `{"id":"x","items":[{"kind":"block","id":"a","role":"assistant","content":"ok"},{"kind":"block","id":"c","role":"custom","content":"c"}]}`), noModel, "", nil, nil)
	got := jsonv.Stringify(res.Messages.Messages)
	wantNoModel := `[{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"unknown","provider":"unknown","model":"unknown",` +
		`"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":` + ts + `},` +
		`{"role":"custom","customType":"pi-forge","content":[{"type":"text","text":"c"}],"display":false,"details":{"stackId":"x"},"timestamp":` + ts + `}]`
	if got != wantNoModel {
		t.Errorf("no model\n got %s\nwant %s", got, wantNoModel)
	}
}

func TestChatHistoryInsertionAndDuplicates(t *testing.T) {
	items := `{"kind":"block","id":"pre","role":"user","content":"before"},
		{"kind":"slot","id":"h1","name":"History","slot":"chat-history","options":{"roles":["user"]}},
		{"kind":"block","id":"mid","role":"user","content":"middle"},
		{"kind":"slot","id":"h2","slot":"chat-history","options":{"maxMessages":1}}`
	history := `[{"role":"user","content":"q1","timestamp":1},{"role":"assistant","content":[{"type":"text","text":"a1"}],"timestamp":2}]`

	messages, sources, diags := compileMessagesJSON(t, `{"id":"d","items":[`+items+`]}`, history)
	if want := `[{"role":"user","content":[{"type":"text","text":"before"}],"timestamp":1795989909123},{"role":"user","content":"q1","timestamp":1},{"role":"user","content":[{"type":"text","text":"middle"}],"timestamp":1795989909123}]`; messages != want {
		t.Errorf("messages\n got %s\nwant %s", messages, want)
	}
	if want := `[{"kind":"stack-item","itemId":"pre","role":"user"},{"kind":"chat-history","itemId":"h1","itemName":"History","slot":"chat-history","historyIndex":1,"historyCount":1,"role":"user"},{"kind":"stack-item","itemId":"mid","role":"user"}]`; sources != want {
		t.Errorf("sources\n got %s\nwant %s", sources, want)
	}
	if want := `[{"level":"info","message":"Filtered 1 chat-history message(s) by role.","itemId":"h1"},{"level":"warning","message":"Skipped duplicate chat-history slot.","itemId":"h2"}]`; diags != want {
		t.Errorf("diagnostics %s", diags)
	}

	_, sources, diags = compileMessagesJSON(t, `{"id":"d","context":{"allowDuplicateChatHistory":true},"items":[`+items+`]}`, history)
	if want := `[{"kind":"stack-item","itemId":"pre","role":"user"},{"kind":"chat-history","itemId":"h1","itemName":"History","slot":"chat-history","historyIndex":1,"historyCount":1,"role":"user"},{"kind":"stack-item","itemId":"mid","role":"user"},{"kind":"chat-history","itemId":"h2","slot":"chat-history","historyIndex":1,"historyCount":1,"role":"assistant"}]`; sources != want {
		t.Errorf("duplicate sources\n got %s\nwant %s", sources, want)
	}
	if want := `[{"level":"info","message":"Filtered 1 chat-history message(s) by role.","itemId":"h1"},{"level":"info","message":"Trimmed chat history from 2 to 1 message(s) by maxMessages.","itemId":"h2"}]`; diags != want {
		t.Errorf("duplicate diagnostics %s", diags)
	}
}

func TestLeadingSystemMessageStaysFirst(t *testing.T) {
	stack := `{"id":"s","items":[{"kind":"block","id":"u","role":"user","content":"injected"},{"kind":"slot","id":"h","slot":"chat-history"}]}`
	history := `[{"role":"system","content":"","timestamp":0},{"role":"user","content":"q","timestamp":1},{"role":"system","content":"later","timestamp":2}]`
	messages, sources, _ := compileMessagesJSON(t, stack, history)
	want := `[{"role":"system","content":"","timestamp":0},{"role":"user","content":[{"type":"text","text":"injected"}],"timestamp":1795989909123},{"role":"user","content":"q","timestamp":1},{"role":"system","content":"later","timestamp":2}]`
	if messages != want {
		t.Errorf("messages\n got %s\nwant %s", messages, want)
	}
	wantSources := `[{"kind":"chat-history","itemId":"h","slot":"chat-history","historyIndex":1,"historyCount":3,"role":"system"},{"kind":"stack-item","itemId":"u","role":"user"},` +
		`{"kind":"chat-history","itemId":"h","slot":"chat-history","historyIndex":2,"historyCount":3,"role":"user"},{"kind":"chat-history","itemId":"h","slot":"chat-history","historyIndex":3,"historyCount":3,"role":"system"}]`
	if sources != wantSources {
		t.Errorf("sources\n got %s\nwant %s", sources, wantSources)
	}
	// A non-leading System message is never moved.
	messages, _, _ = compileMessagesJSON(t, stack, `[{"role":"user","content":"q","timestamp":1},{"role":"system","content":"s","timestamp":2}]`)
	if want := `[{"role":"user","content":[{"type":"text","text":"injected"}],"timestamp":1795989909123},{"role":"user","content":"q","timestamp":1},{"role":"system","content":"s","timestamp":2}]`; messages != want {
		t.Errorf("non-leading system moved: %s", messages)
	}
}

func TestMergeConsecutiveRoles(t *testing.T) {
	stack := `{"id":"m","context":{"mergeConsecutiveRoles":true,"mergeSeparator":" | "},"items":[
		{"kind":"block","id":"u1","name":"  First  ","role":"user","content":"one"},
		{"kind":"block","id":"u2","role":"user","content":"two"},
		{"kind":"block","id":"u3","name":"   ","role":"user","content":"three"},
		{"kind":"block","id":"a1","role":"assistant","content":"A"},
		{"kind":"block","id":"a2","role":"assistant","content":"B"},
		{"kind":"block","id":"c1","role":"custom","content":"C1"},
		{"kind":"block","id":"c2","role":"custom","content":"C2"},
		{"kind":"slot","id":"h","slot":"chat-history"},
		{"kind":"block","id":"u4","role":"user","content":"after"}]}`
	messages, sources, diags := compileMessagesJSON(t, stack, `[{"role":"user","content":"q","timestamp":1}]`)
	const ts = "1795989909123"
	usage := `"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	want := `[{"role":"user","content":[{"type":"text","text":"one | two | three"}],"timestamp":` + ts + `},` +
		`{"role":"assistant","content":[{"type":"text","text":"A | B"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5",` + usage + `,"stopReason":"stop","timestamp":` + ts + `},` +
		`{"role":"custom","customType":"pi-forge","content":[{"type":"text","text":"C1"}],"display":false,"details":{"stackId":"m"},"timestamp":` + ts + `},` +
		`{"role":"custom","customType":"pi-forge","content":[{"type":"text","text":"C2"}],"display":false,"details":{"stackId":"m"},"timestamp":` + ts + `},` +
		`{"role":"user","content":"q","timestamp":1},{"role":"user","content":[{"type":"text","text":"after"}],"timestamp":` + ts + `}]`
	if messages != want {
		t.Errorf("messages\n got %s\nwant %s", messages, want)
	}
	wantSources := `[{"kind":"stack-item","itemId":"u1","itemName":"First + u2 + u3","role":"user","mergedItems":[{"itemId":"u1","itemName":"  First  "},{"itemId":"u2"},{"itemId":"u3","itemName":"   "}]},` +
		`{"kind":"stack-item","itemId":"a1","itemName":"a1 + a2","role":"assistant","mergedItems":[{"itemId":"a1"},{"itemId":"a2"}]},` +
		`{"kind":"stack-item","itemId":"c1","role":"custom"},{"kind":"stack-item","itemId":"c2","role":"custom"},` +
		`{"kind":"chat-history","itemId":"h","slot":"chat-history","historyIndex":1,"historyCount":1,"role":"user"},{"kind":"stack-item","itemId":"u4","role":"user"}]`
	if sources != wantSources {
		t.Errorf("sources\n got %s\nwant %s", sources, wantSources)
	}
	wantDiags := `[{"level":"info","message":"Merged consecutive user stack items into one message.","itemId":"u1"},{"level":"info","message":"Merged consecutive assistant stack items into one message.","itemId":"a1"}]`
	if diags != wantDiags {
		t.Errorf("diagnostics %s", diags)
	}
	// Without the flag nothing merges.
	messages, _, _ = compileMessagesJSON(t, `{"id":"m","items":[{"kind":"block","id":"u1","role":"user","content":"one"},{"kind":"block","id":"u2","role":"user","content":"two"}]}`, "")
	if want := `[{"role":"user","content":[{"type":"text","text":"one"}],"timestamp":` + ts + `},{"role":"user","content":[{"type":"text","text":"two"}],"timestamp":` + ts + `}]`; messages != want {
		t.Errorf("unmerged %s", messages)
	}
}
