package compile

import "github.com/forgebench/forgebench/engine/preset"

// applyRegexToSystem runs the compiled-stage outgoing rules that target the
// system prompt (engine/preset implements the rules, §6).
func applyRegexToSystem(stack *preset.Stack, prompt string, diags *[]Diagnostic) string {
	out, d := preset.ApplyRegexToString(stack, prompt, preset.StageCompiled, preset.TargetSystem)
	*diags = append(*diags, d...)
	return out
}

// applyRegexToMessages runs the stage's outgoing rules that target messages.
// Unchanged messages keep their identity, which the leading-System check
// relies on.
func applyRegexToMessages(stack *preset.Stack, messages []any, stage preset.RegexStage, diags *[]Diagnostic) []any {
	out, d := preset.ApplyRegexToMessages(stack, messages, stage)
	*diags = append(*diags, d...)
	return out
}
