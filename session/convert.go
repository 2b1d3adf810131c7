package session

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Texts Pi wraps summaries in when it sends them to a model (spec §7.1).
const (
	compactionSummaryPrefix = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
	compactionSummarySuffix = "\n</summary>"
	branchSummaryPrefix     = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
	branchSummarySuffix     = "</summary>"
)

// ConvertToLLM turns agent messages into provider messages like Pi's
// convertToLlm: bashExecution, custom, branchSummary and compactionSummary
// become user messages, system/user/assistant/toolResult pass through, and
// any other role is dropped.
func ConvertToLLM(msgs []any) []any {
	out := make([]any, 0, len(msgs))
	for _, m := range msgs {
		obj, ok := m.(*jsonv.Object)
		if !ok {
			continue
		}
		role, _ := obj.Get("role")
		switch role {
		case RoleSystem, RoleUser, RoleAssistant, RoleToolResult:
			out = append(out, obj)
		case RoleBashExecution:
			if exclude, _ := obj.Get("excludeFromContext"); jsonv.Truthy(exclude) {
				continue
			}
			out = append(out, userMessage(textContent(BashExecutionText(obj)), obj))
		case RoleCustom:
			content, has := obj.Get("content")
			if s, isStr := content.(string); isStr {
				content = textContent(s)
			}
			um := jsonv.NewObject()
			um.Set("role", RoleUser)
			if has {
				um.Set("content", content)
			}
			copyKey(um, obj, "timestamp")
			out = append(out, um)
		case RoleBranchSummary:
			summary := jsPlusString(obj, "summary")
			out = append(out, userMessage(textContent(branchSummaryPrefix+summary+branchSummarySuffix), obj))
		case RoleCompactionSummary:
			summary := jsPlusString(obj, "summary")
			out = append(out, userMessage(textContent(compactionSummaryPrefix+summary+compactionSummarySuffix), obj))
		}
	}
	return out
}

// BashExecutionText renders a bashExecution message as the user text Pi
// sends to the model (bashExecutionToText).
func BashExecutionText(m *jsonv.Object) string {
	var b strings.Builder
	b.WriteString("Ran `")
	b.WriteString(jsPlusString(m, "command"))
	b.WriteString("`\n")
	if output, _ := m.Get("output"); jsonv.Truthy(output) {
		b.WriteString("```\n")
		b.WriteString(jsonv.ToString(output))
		b.WriteString("\n```")
	} else {
		b.WriteString("(no output)")
	}
	cancelled, _ := m.Get("cancelled")
	exitCode, hasExit := m.Get("exitCode")
	if jsonv.Truthy(cancelled) {
		b.WriteString("\n\n(command cancelled)")
	} else if hasExit && exitCode != nil && exitCode != float64(0) {
		b.WriteString("\n\nCommand exited with code ")
		b.WriteString(jsonv.ToString(exitCode))
	}
	truncated, _ := m.Get("truncated")
	fullPath, _ := m.Get("fullOutputPath")
	if jsonv.Truthy(truncated) && jsonv.Truthy(fullPath) {
		b.WriteString("\n\n[Output truncated. Full output: ")
		b.WriteString(jsonv.ToString(fullPath))
		b.WriteString("]")
	}
	return b.String()
}

func userMessage(content []any, from *jsonv.Object) *jsonv.Object {
	um := jsonv.NewObject()
	um.Set("role", RoleUser)
	um.Set("content", content)
	copyKey(um, from, "timestamp")
	return um
}

func textContent(text string) []any {
	block := jsonv.NewObject()
	block.Set("type", "text")
	block.Set("text", text)
	return []any{block}
}

func copyKey(dst, src *jsonv.Object, key string) {
	if v, ok := src.Get(key); ok {
		dst.Set(key, v)
	}
}

// jsPlusString is the text a JavaScript string concatenation or template
// literal produces for a field ("undefined" when absent).
func jsPlusString(o *jsonv.Object, key string) string {
	v, ok := o.Get(key)
	if !ok {
		return "undefined"
	}
	return jsonv.ToString(v)
}
