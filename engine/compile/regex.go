package compile

import (
	"time"

	"github.com/forgebench/forgebench/engine/preset"
)

// RegexTimeLimit bounds the regex work of one whole compile (system prompt
// and messages together). Each match also stops at jsregex.MatchTimeout;
// without this limit, rules that each run into that timeout add up (twenty
// catastrophic rules took 42 s). Rules stopped by the limits are named in
// one error diagnostic. Zero disables the whole-compile limit.
var RegexTimeLimit = 5 * time.Second

// applyRegexToSystem runs the compiled-stage outgoing rules that target the
// system prompt (engine/preset implements the rules, §6).
func (c *compilation) applyRegexToSystem(prompt string, diags *[]Diagnostic) string {
	out, d := preset.ApplyRegexToStringWithin(c.stack, prompt, preset.StageCompiled, preset.TargetSystem, c.regex)
	*diags = append(*diags, d...)
	return out
}

// applyRegexToMessages runs the stage's outgoing rules that target messages.
// Unchanged messages keep their identity, which the leading-System check
// relies on.
func (c *compilation) applyRegexToMessages(messages []any, stage preset.RegexStage, diags *[]Diagnostic) []any {
	out, d := preset.ApplyRegexToMessagesWithin(c.stack, messages, stage, c.regex)
	*diags = append(*diags, d...)
	return out
}

// reportRegexLimits appends the diagnostic naming the rules that the time
// limits or a cancellation stopped since the last report.
func (c *compilation) reportRegexLimits(diags *[]Diagnostic) {
	if d, ok := c.regex.TakeReport(); ok {
		*diags = append(*diags, d)
	}
}
