package compile

import "github.com/forgebench/forgebench/engine/preset"

// applyRegexToSystem runs compiled-stage outgoing rules on the system prompt.
// TEMPORARY: waits for engine/preset's regex API.
func applyRegexToSystem(stack *preset.Stack, prompt string, diags *[]Diagnostic) string {
	return prompt
}

// applyRegexToMessages runs the stage's outgoing rules on messages.
// TEMPORARY: waits for engine/preset's regex API.
func applyRegexToMessages(stack *preset.Stack, messages []any, stage preset.RegexStage, diags *[]Diagnostic) []any {
	return messages
}
