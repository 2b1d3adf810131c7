package compile

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func TestModes(t *testing.T) {
	items := []string{systemBlock("a", "  Alpha  "), systemBlock("empty", "  \n "), systemBlock("b", "Beta")}
	for _, tc := range []struct{ mode, want string }{
		{"", "Alpha\n\nBeta"},
		{`"mode":"replace"`, "Alpha\n\nBeta"},
		{`"mode":"append"`, "BASE\n\nAlpha\n\nBeta"},
		{`"mode":"prepend"`, "Alpha\n\nBeta\n\nBASE"},
	} {
		got := compileSystemOnly(t, testRuntime(), stackWithItems(tc.mode, items...))
		if got.SystemPrompt != tc.want || len(got.Diagnostics) != 0 {
			t.Errorf("%s: got %q %s", tc.mode, got.SystemPrompt, diagText(got.Diagnostics))
		}
	}
}

func TestEmptyCompileFallback(t *testing.T) {
	for _, tc := range []struct {
		name, mode string
		items      []string
		wantDiags  string
	}{
		{"empty", `"mode":"append"`, []string{systemBlock("a", " "), `{"kind":"block","id":"off","role":"system","enabled":false,"content":"x"}`},
			`[{"level":"warning","message":"Compiled system prompt is empty; preserving base system prompt."}]`},
		{"failed", "", []string{systemBlock("a", "{{ missing }}")},
			`[{"level":"error","message":"forge-v1 render error: Undefined forge-v1 path: {{missing}}","itemId":"a"},{"level":"warning","message":"Compiled system prompt failed; preserving base system prompt."}]`},
	} {
		got := compileSystemOnly(t, testRuntime(), stackWithItems(tc.mode, tc.items...))
		if got.SystemPrompt != "BASE" || diagText(got.Diagnostics) != tc.wantDiags {
			t.Errorf("%s: got %q %s", tc.name, got.SystemPrompt, diagText(got.Diagnostics))
		}
	}
}

func TestBlockDiagnosticsOmitBlock(t *testing.T) {
	stack := stackWithItems("",
		systemBlock("parse", "{% if x %}open"),
		systemBlock("filters", "{{ runtime.cwd | nope }}{% if runtime.cwd %}{{ runtime.cwd | bad }}{% endif %}"),
		systemBlock("render", "before {{ runtime.missing }}"),
		systemBlock("ok", "ok {{ runtime.cwd }}"),
		`{"kind":"slot","id":"hist","role":"system","slot":"chat-history"}`,
	)
	got := compileSystemOnly(t, testRuntime(), stack)
	if got.SystemPrompt != `ok C:\work\demo` {
		t.Errorf("prompt %q", got.SystemPrompt)
	}
	want := `[{"level":"error","message":"forge-v1 parse error: Missing {% else %}","itemId":"parse"},` +
		`{"level":"error","message":"Unknown forge-v1 filter: nope","itemId":"filters"},` +
		`{"level":"error","message":"Unknown forge-v1 filter: bad","itemId":"filters"},` +
		`{"level":"error","message":"forge-v1 render error: Undefined forge-v1 path: {{runtime.missing}}","itemId":"render"},` +
		`{"level":"warning","message":"chat-history slot cannot be placed in the system prompt.","itemId":"hist"}]`
	if d := diagText(got.Diagnostics); d != want {
		t.Errorf("diagnostics\n got %s\nwant %s", d, want)
	}
}

func TestCacheSensitivityDiagnostics(t *testing.T) {
	stack := stackWithItems("",
		systemBlock("t", "{{ time }} {{ runtime.date }}"),
		systemBlock("d", "{{date}}"),
		`{"kind":"block","id":"off","role":"system","enabled":false,"content":"{{time}}"}`,
		`{"kind":"block","id":"u","role":"user","content":"{{ runtime.time }}"}`,
		systemSlot("dt", "date", `{"includeTime":true}`),
		`{"kind":"slot","id":"dc","slot":"date-cwd","options":{"includeTime":true}}`,
		systemSlot("plain", "date", ""),
	)
	res := Compile(mustStack(t, stack), testRuntime(), "", nil, nil)
	timeWarn := "{{time}} changes every turn, invalidating prompt-prefix cache from this item onward. Use {{date}} instead, or accept the cache cost."
	dateInfo := "{{date}} changes daily; the prompt-prefix cache rebuilds once per day and stays stable within the day. Usually fine."
	slotWarn := func(slot string) string {
		return "Slot \\\"" + slot + "\\\" has includeTime enabled: the value changes every turn, invalidating prompt-prefix cache from this item onward. Remove includeTime, or accept the cache cost."
	}
	want := `[{"level":"warning","message":"` + timeWarn + `","itemId":"t"},{"level":"info","message":"` + dateInfo + `","itemId":"t"},` +
		`{"level":"info","message":"` + dateInfo + `","itemId":"d"},{"level":"warning","message":"` + timeWarn + `","itemId":"u"},` +
		`{"level":"warning","message":"` + slotWarn("date") + `","itemId":"dt"},{"level":"warning","message":"` + slotWarn("date-cwd") + `","itemId":"dc"}]`
	if d := diagText(res.System.Diagnostics); d != want {
		t.Errorf("system diagnostics\n got %s\nwant %s", d, want)
	}
	if d := diagText(res.Messages.Diagnostics); d != want {
		t.Errorf("message diagnostics\n got %s\nwant %s", d, want)
	}
	if res.System.SystemPrompt != "23:05:09 2026-11-29\n\n2026-11-29\n\nCurrent date: 2026-11-29\nCurrent time: 23:05:09\n\nCurrent date: 2026-11-29" {
		t.Errorf("prompt %q", res.System.SystemPrompt)
	}
}

func TestPromptEnvironment(t *testing.T) {
	rt := testRuntime()
	rt.Options.SelectedTools = []string{"read", "bash", "grep"}
	stack := mustStack(t, `{"schemaVersion":2,"id":"env","tools":{"deny":["bash"]},"parameters":{"b":1,"a":{"x":[true,null]}},"variables":{"v":"ignored"},
		"items":[{"kind":"slot","id":"h","slot":"chat-history"},{"kind":"slot","id":"x","slot":"tools","enabled":false},{"kind":"slot","id":"y","slot":"cwd"}]}`)
	env := BuildPromptEnvironment(stack, rt, nil)
	want := `{"cwd":"C:\\work\\demo","date":"2026-11-29","time":"23:05:09","lastUserMessage":"latest question","selectedTools":["read","grep"],` +
		`"selectedToolsText":"read, grep","activeModel":"anthropic/claude-sonnet-4-5","populatedAt":"2026-11-29T22:05:09.123Z","timezone":"local",` +
		`"tool":{"read":true,"grep":true},"slot":{"chat-history":true,"cwd":true}}`
	if got := jsonv.Stringify(env.Runtime); got != want {
		t.Errorf("runtime\n got %s\nwant %s", got, want)
	}
	if got := jsonv.Stringify(env.Parameters); got != `{"b":1,"a":{"x":[true,null]}}` {
		t.Errorf("parameters %s", got)
	}
	v1 := mustStack(t, `{"id":"v1","variables":{"name":"Ada"},"items":[]}`)
	rt.Model, rt.LatestUserMessage = nil, nil
	env = BuildPromptEnvironment(v1, rt, nil)
	if got := jsonv.Stringify(env.Parameters); got != `{"name":"Ada"}` {
		t.Errorf("v1 parameters %s", got)
	}
	if v, _ := env.Runtime.(*jsonv.Object).Get("activeModel"); v != "" {
		t.Errorf("activeModel without model = %v", v)
	}
	if v, _ := env.Runtime.(*jsonv.Object).Get("lastUserMessage"); v != "" {
		t.Errorf("lastUserMessage without one = %v", v)
	}
}

func TestTemplatesSeeEnvironmentAndMacros(t *testing.T) {
	stack := stackWithItems(`"parameters":{"who":"Ada","cwd":"param-cwd"}`,
		systemBlock("a", "{{ parameters.who | upper }} {{ cwd }} {{ tools }} {{ runtime.activeModel }} {% if runtime.tool.read %}R{% else %}no read{% endif %}{% if runtime.slot.chat-history %} H{% endif %}"),
		systemBlock("m", "{{ extensions.greet }}/{{ greet | json }}"),
		systemBlock("seen", "{{ extensions | json }}"),
		systemBlock("big", "{{ extensions.huge }}"),
	)
	res := Compile(mustStack(t, stack), testRuntime(), "", nil, map[string]string{"greet": "hi <you>", "huge": strings.Repeat("x", 16385), "bad name": "x"})
	want := "ADA param-cwd read, bash, edit, write anthropic/claude-sonnet-4-5 R\n\nhi <you>/\"hi <you>\"\n\n{\"greet\":\"hi <you>\"}"
	if res.System.SystemPrompt != want {
		t.Errorf("prompt\n got %q\nwant %q", res.System.SystemPrompt, want)
	}
	wantDiags := `[{"level":"error","message":"forge-v1 render error: forge-v1 extension huge exceeds 16384 characters.","itemId":"big"}]`
	if d := diagText(res.System.Diagnostics); d != wantDiags {
		t.Errorf("diagnostics %s", d)
	}
}
