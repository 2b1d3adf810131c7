package compile

import (
	"hash/fnv"
	"time"

	"github.com/forgebench/forgebench/engine/preset"
)

// RegexTimeLimit bounds the regex work of one whole compile (system prompt
// and messages together). Each match also stops at jsregex.MatchTimeout;
// without this limit, rules that each run into that timeout add up (twenty
// catastrophic rules took 42 s). Rules stopped by the limits are named in
// one error diagnostic. Zero disables the whole-compile limit.
var RegexTimeLimit = 5 * time.Second

// RegexStep is one compiled-stage rule that changed the system prompt.
type RegexStep struct {
	// RuleID is the rule's id (pi-forge requires one, unique in the
	// Preset); Name its display name ("" when none).
	RuleID, Name string
	// Hash identifies the text the rule left (FNV-1a, 64 bits): two
	// compiles of the same prompt rewrote it alike up to a step when
	// their steps agree up to it.
	Hash uint64
}

// RegexRewrite is how compiled-stage regex rules rewrote the system
// prompt, kept on the PartRegex part: the prompt before they ran and the
// rules that changed it. A cause needs both: when the prompt before the
// rules changed, the item there did; else a rule did.
type RegexRewrite struct {
	// Before labels the prompt before the rules ran, as the parts of a
	// compile without rules would (item, base and separator parts).
	Before []Part
	// Steps are the rules that changed the text, in the order they ran.
	Steps []RegexStep
}

// applyRegexToSystem runs the compiled-stage outgoing rules that target the
// system prompt (engine/preset implements the rules, §6), recording each
// rule that changed it.
func (c *compilation) applyRegexToSystem(prompt string, diags *[]Diagnostic) (string, []RegexStep) {
	var steps []RegexStep
	out, d := preset.ApplyRegexToStringSteps(c.stack, prompt, preset.StageCompiled, preset.TargetSystem, c.regex,
		func(rule *preset.CompiledRule, text string) {
			h := fnv.New64a()
			_, _ = h.Write([]byte(text))
			steps = append(steps, RegexStep{RuleID: rule.ID, Name: rule.Name, Hash: h.Sum64()})
		})
	*diags = append(*diags, d...)
	return out, steps
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
