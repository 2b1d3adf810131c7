package compile

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsregex"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/timing"
)

// catastrophicStack has n compiled-stage rules of (a+)+$ over a system
// prompt that makes each of them backtrack until its match timeout.
func catastrophicStack(t *testing.T, n int) *preset.Stack {
	t.Helper()
	var rules []string
	for i := 1; i <= n; i++ {
		rules = append(rules, `{"id":"slow-`+strconv.Itoa(i)+`","stage":"compiled","targets":["system","messages"],"pattern":"(a+)+$","replace":"x"}`)
	}
	return mustStack(t, `{"schemaVersion":2,"id":"slow","regex":{"schemaVersion":1,"rules":[`+strings.Join(rules, ",")+`]},
		"items":[{"kind":"block","id":"s","role":"system","content":"`+strings.Repeat("a", 40)+`!"},
		{"kind":"block","id":"u","role":"user","content":"`+strings.Repeat("a", 40)+`!"}]}`)
}

// withRegexLimits lowers the per-match timeout and the whole-compile limit
// for one test.
func withRegexLimits(t *testing.T, match, whole time.Duration) {
	t.Helper()
	savedMatch, savedWhole := jsregex.MatchTimeout, RegexTimeLimit
	jsregex.MatchTimeout, RegexTimeLimit = match, whole
	t.Cleanup(func() { jsregex.MatchTimeout, RegexTimeLimit = savedMatch, savedWhole })
}

// Twenty catastrophic rules used to cost 20 × the match timeout (42 s in
// the CLI); the whole compile now stops at its limit and says which rules
// timed out and which were not run.
func TestCompileRegexDeadline(t *testing.T) {
	withRegexLimits(t, 200*time.Millisecond, 500*time.Millisecond)
	stack := catastrophicStack(t, 20)
	start := time.Now()
	res := Compile(stack, testRuntime(), "BASE", nil, nil)
	// The diagnostics below prove the limit stopped the compile; the
	// wall-clock bound is a budget (a loaded machine runs each rule long).
	timing.Budget(t, "a compile with a 500ms limit (20 rules × 200ms would be 4s+)", time.Since(start), 1500*time.Millisecond)
	all := append(append([]Diagnostic{}, res.System.Diagnostics...), res.Messages.Diagnostics...)
	var summary []string
	for _, d := range all {
		if strings.Contains(d.Message, "per compile)") {
			summary = append(summary, d.Message)
			if d.Level != levelError {
				t.Errorf("summary is %s, want an error", d.Level)
			}
		}
		if strings.Contains(d.Message, "aaaaaaaaaa") {
			t.Errorf("a diagnostic quotes the matched input: %.80s…", d.Message)
		}
	}
	if len(summary) == 0 {
		t.Fatalf("no diagnostic names the rules stopped by the limit: %+v", all)
	}
	joined := strings.Join(summary, "\n")
	for _, want := range []string{"timed out: slow-1,", "; not run: ", "slow-20."} {
		if !strings.Contains(joined, want) {
			t.Errorf("summary %q lacks %q", joined, want)
		}
	}
	if res.System.SystemPrompt != strings.Repeat("a", 40)+"!" {
		t.Errorf("timed-out rules changed the prompt: %q", res.System.SystemPrompt)
	}
}

// A fast rule after the limit is still not run: the limit is for the whole
// compile, and a rule that did run keeps its effect.
func TestCompileRegexDeadlineKeepsEarlierRules(t *testing.T) {
	withRegexLimits(t, 300*time.Millisecond, 400*time.Millisecond)
	stack := mustStack(t, `{"schemaVersion":2,"id":"mix","regex":{"schemaVersion":1,"rules":[
		{"id":"fast","stage":"compiled","targets":["system"],"pattern":"!","replace":"?"},
		{"id":"slow","stage":"compiled","targets":["system"],"pattern":"(a+)+$","replace":"x"},
		{"id":"slow-too","stage":"compiled","targets":["system"],"pattern":"(a+)+$","replace":"x"},
		{"id":"late","stage":"compiled","targets":["system"],"pattern":"a","replace":"b"}]},
		"items":[{"kind":"block","id":"s","role":"system","content":"`+strings.Repeat("a", 40)+`!"}]}`)
	res := Compile(stack, testRuntime(), "", nil, nil)
	if res.System.SystemPrompt != strings.Repeat("a", 40)+"?" {
		t.Errorf("prompt %q", res.System.SystemPrompt)
	}
	text := diagText(res.System.Diagnostics)
	for _, want := range []string{"Regex rule slow failed: match timed out after 300ms", "timed out: slow", "not run: ", "late."} {
		if !strings.Contains(text, want) {
			t.Errorf("diagnostics %s lack %q", text, want)
		}
	}
}

// A cancelled preview compile stops running rules.
func TestPreviewContextCancelled(t *testing.T) {
	withRegexLimits(t, 200*time.Millisecond, 10*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	p := PreviewContext(ctx, catastrophicStack(t, 20), testRuntime(), "BASE", nil, nil)
	timing.Budget(t, "a cancelled preview", time.Since(start), 300*time.Millisecond)
	if !strings.Contains(diagText(p.Result.Messages.Diagnostics)+diagText(p.Result.System.Diagnostics), "cancelled") {
		t.Errorf("no cancellation diagnostic")
	}
}
