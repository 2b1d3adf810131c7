package presets

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsregex"
	"github.com/forgebench/forgebench/engine/preset"
)

// slowStack has rules that each backtrack until their match timeout.
func slowStack(t *testing.T) *preset.Stack {
	t.Helper()
	var rules []string
	for i := 0; i < 20; i++ {
		rules = append(rules, `{"id":"slow-`+strconv.Itoa(i)+`","stage":"compiled","pattern":"(a+)+$","replace":"x"}`)
	}
	stack, diags := preset.Parse([]byte(`{"schemaVersion":2,"id":"slow","regex":{"schemaVersion":1,"rules":[`+strings.Join(rules, ",")+`]},
		"items":[{"kind":"block","id":"s","role":"system","content":"`+strings.Repeat("a", 40)+`!"}]}`), "slow.json")
	if stack == nil {
		t.Fatalf("parse: %v", diags)
	}
	return stack
}

// An edit while a preview compiles cancels that compile: a stack of
// catastrophic regex rules no longer keeps a core busy for the whole
// compile limit after the user has moved on.
func TestStalePreviewCompileIsCancelled(t *testing.T) {
	savedMatch, savedWhole := jsregex.MatchTimeout, compile.RegexTimeLimit
	jsregex.MatchTimeout, compile.RegexTimeLimit = 200*time.Millisecond, time.Minute
	defer func() { jsregex.MatchTimeout, compile.RegexTimeLimit = savedMatch, savedWhole }()

	var run previewRun
	cmd := run.start(1, slowStack(t), &runContext{})
	done := make(chan previewMsg, 1)
	go func() { done <- cmd().(previewMsg) }()
	time.Sleep(300 * time.Millisecond) // the compile is inside the rules now
	// The proof is the rules left unrun, not a wall-clock bound (a loaded
	// machine stretches any): the budget lists every rule it skipped after
	// the cancel ("not run: …"), and a compile that ignored the cancel
	// would run all 20 and list none. The timeout only catches a hang.
	run.cancel() // what schedulePreview does on every edit
	select {
	case msg := <-done:
		diags := diagMessages(msg.res)
		if msg.version != 1 || !strings.Contains(diags, "cancelled") {
			t.Errorf("the cancelled result does not say so: %s", diags)
		}
		if !strings.Contains(diags, "not run: ") {
			t.Errorf("every rule ran after the cancel: %s", diags)
		}
	case <-time.After(time.Minute):
		t.Fatal("the stale compile did not return (20 rules × 200 ms run 4 s uncancelled)")
	}
	run.cancel() // idempotent
}

// schedulePreview, called on every draft change, cancels the running
// compile before scheduling the next one.
func TestSchedulePreviewCancelsTheRunningCompile(t *testing.T) {
	m := &Model{}
	m.previewRun.start(1, slowStack(t), &runContext{})
	ctx := m.previewRun.ctx
	m.schedulePreview()
	if ctx == nil || ctx.Err() == nil {
		t.Fatal("the running compile's context was not cancelled by the draft change")
	}
}

func diagMessages(res compile.PreviewResult) string {
	var b strings.Builder
	for _, d := range append(res.Result.System.Diagnostics, res.Result.Messages.Diagnostics...) {
		b.WriteString(d.Message + "\n")
	}
	return b.String()
}
