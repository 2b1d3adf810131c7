package compile

import (
	"context"
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Part kinds of a preview.
const (
	PartItem      = "item"      // produced by a stack item
	PartBase      = "base"      // Pi's base prompt (append/prepend modes, fallback)
	PartSeparator = "separator" // the "\n\n" joining parts
	PartRegex     = "regex"     // the whole prompt after regex rules rewrote it
	PartHistory   = "history"   // a chat-history message
)

// Part is one labelled piece of a compiled preview.
type Part struct {
	Kind string
	// ItemID / ItemName name the stack item that produced the part ("" when
	// none); Label is the human label (name, else id, else a description).
	ItemID   string
	ItemName string
	Label    string
	// Role is the item or message role ("system" for system prompt parts).
	Role string
	// Text is the part's text: a system prompt slice, or a message's
	// preview text (see PreviewText).
	Text string
	// Tokens is the chars/4 estimate (UTF-16 code units, rounded up).
	Tokens int
	// Message is the compiled message for message parts (nil for system parts).
	Message any
	// System is set on a PartSystem part (PresentSystemMessages).
	System *SystemCard
	// Regex is set on a PartRegex part: the prompt before the rules and
	// the rules that rewrote it.
	Regex *RegexRewrite
}

// PreviewResult splits a compilation into labelled parts.
type PreviewResult struct {
	Result Result
	// System parts concatenate exactly to Result.System.SystemPrompt.
	System []Part
	// Messages has one part per compiled message, in order.
	Messages []Part
	// HiddenSystem counts the System messages PresentSystemMessages left
	// out because nothing of them remains after the projection.
	HiddenSystem int
}

// EstimateTokens is the chars/4 heuristic (UTF-16 length, rounded up).
func EstimateTokens(text string) int {
	return (jsonv.UTF16Len(text) + 3) / 4
}

// Preview compiles like Compile and labels every piece of the output.
func Preview(stack *preset.Stack, runtime Runtime, base string, messages []any, macros map[string]string) PreviewResult {
	return PreviewContext(context.Background(), stack, runtime, base, messages, macros)
}

// PreviewContext is Preview that stops running regex rules once ctx is
// done: a draft changed and this preview is stale (see CompileContext).
func PreviewContext(ctx context.Context, stack *preset.Stack, runtime Runtime, base string, messages []any, macros map[string]string) PreviewResult {
	if stack == nil {
		stack = &preset.Stack{SchemaVersion: 1}
	}
	c := newCompilation(stack, &runtime, macros, ctx.Done())
	system, assembly := c.compileSystemPrompt(base)
	result := Result{System: system, Messages: c.compileMessages(messages)}
	return PreviewResult{
		Result:   result,
		System:   systemParts(stack, system.SystemPrompt, base, assembly),
		Messages: messageParts(result.Messages),
	}
}

func newPart(kind, itemID, itemName, label, role, text string) Part {
	return Part{Kind: kind, ItemID: itemID, ItemName: itemName, Label: label, Role: role, Text: text, Tokens: EstimateTokens(text)}
}

func itemLabel(id string, name *string) string {
	if name != nil && jsonv.TrimJS(*name) != "" {
		return *name
	}
	if id != "" {
		return id
	}
	return "item"
}

func systemParts(stack *preset.Stack, prompt, base string, assembly systemAssembly) []Part {
	if prompt != assembly.beforeRegex {
		part := newPart(PartRegex, "", "", "System prompt after regex rules", "system", prompt)
		part.Regex = &RegexRewrite{Before: assembledParts(stack, base, assembly), Steps: assembly.steps}
		return []Part{part}
	}
	return assembledParts(stack, base, assembly)
}

// assembledParts labels the system prompt as the items assembled it,
// before regex rules ran.
func assembledParts(stack *preset.Stack, base string, assembly systemAssembly) []Part {
	baseLabel := "Pi base system prompt"
	if assembly.compiled == "" {
		return []Part{newPart(PartBase, "", "", baseLabel, "system", base)}
	}
	separator := newPart(PartSeparator, "", "", "separator", "system", "\n\n")
	var parts []Part
	if stack.Mode == preset.ModeAppend {
		parts = append(parts, newPart(PartBase, "", "", baseLabel, "system", base), separator)
	}
	for i, piece := range assembly.pieces {
		if i > 0 {
			parts = append(parts, separator)
		}
		name := ""
		if piece.item.Name != nil {
			name = *piece.item.Name
		}
		parts = append(parts, newPart(PartItem, piece.item.ID, name, itemLabel(piece.item.ID, piece.item.Name), "system", piece.text))
	}
	if stack.Mode == preset.ModePrepend {
		parts = append(parts, separator, newPart(PartBase, "", "", baseLabel, "system", base))
	}
	return parts
}

func messageParts(result MessagesResult) []Part {
	parts := make([]Part, len(result.Messages))
	for i, message := range result.Messages {
		var source MessageSource
		if i < len(result.MessageSources) {
			source = result.MessageSources[i]
		}
		name := ""
		if source.ItemName != nil {
			name = *source.ItemName
		}
		kind, label := PartItem, itemLabel(source.ItemID, source.ItemName)
		if source.Kind != SourceStackItem {
			kind = PartHistory
			label += " " + strconv.Itoa(source.HistoryIndex) + "/" + strconv.Itoa(source.HistoryCount)
		}
		part := newPart(kind, source.ItemID, name, label, messageRole(message), PreviewText(message))
		part.Message = message
		parts[i] = part
	}
	return parts
}
