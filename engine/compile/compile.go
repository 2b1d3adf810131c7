package compile

import (
	"context"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// SystemResult is the outcome of the system-prompt phase.
type SystemResult struct {
	SystemPrompt string
	Diagnostics  []Diagnostic
}

// Source kinds of compiled messages.
const (
	SourceStackItem       = "stack-item"
	SourceChatHistory     = "chat-history"
	SourceImplicitHistory = "implicit-history"
)

// MergedItem names one stack item folded into a merged message.
type MergedItem struct {
	ItemID   string
	ItemName *string
}

// MessageSource says which stack item (or history position) produced a
// compiled message. Optional fields: ItemName nil, HistoryIndex 0 and
// MergedItems nil mean absent; ItemID is absent for implicit history.
type MessageSource struct {
	Kind         string
	ItemID       string
	ItemName     *string
	Slot         string
	HistoryIndex int
	HistoryCount int
	Role         string
	MergedItems  []MergedItem
}

// MessagesResult is the outcome of the message phase.
type MessagesResult struct {
	// Messages are Pi agent messages (*jsonv.Object values; history messages
	// are passed through or shallow-copied so unknown fields survive).
	Messages       []any
	MessageSources []MessageSource
	Diagnostics    []Diagnostic
}

// Result holds both compilation phases.
type Result struct {
	System   SystemResult
	Messages MessagesResult
}

// compilation is one PromptCompilationContext: the template renderer (and
// its extension cache) is shared by both phases.
type compilation struct {
	stack   *preset.Stack
	runtime *Runtime
	blocks  *blockRenderer
	slots   *slotRenderer
	// regex bounds the regex rules of the whole compile.
	regex *preset.RegexBudget
}

// Compile compiles the system prompt and the messages of stack for runtime.
// base is Pi's base system prompt (used by the append/prepend modes and the
// empty-compile fallback), messages are the incoming Pi agent messages and
// macros the values of the registered custom macros ({{ extensions.x }}).
// Regex rules run within RegexTimeLimit for the whole compile.
func Compile(stack *preset.Stack, runtime Runtime, base string, messages []any, macros map[string]string) Result {
	return CompileContext(context.Background(), stack, runtime, base, messages, macros)
}

// CompileContext is Compile that stops running regex rules once ctx is done
// (a stale preview); the result then carries an error diagnostic saying so
// and should be discarded.
func CompileContext(ctx context.Context, stack *preset.Stack, runtime Runtime, base string, messages []any, macros map[string]string) Result {
	if stack == nil {
		stack = &preset.Stack{SchemaVersion: 1}
	}
	c := newCompilation(stack, &runtime, macros, ctx.Done())
	system, _ := c.compileSystemPrompt(base)
	return Result{
		System:   system,
		Messages: c.compileMessages(messages),
	}
}

// systemPiece is one non-empty trimmed part of the compiled system prompt and
// the item that produced it (kept for Preview).
type systemPiece struct {
	item *preset.Item
	text string
}

// systemAssembly records how the system prompt was put together.
type systemAssembly struct {
	pieces   []systemPiece
	compiled string
	// beforeRegex is the prompt before compiled-stage regex rules ran;
	// steps are the rules that changed it.
	beforeRegex string
	steps       []RegexStep
}

func newCompilation(stack *preset.Stack, runtime *Runtime, macros map[string]string, done <-chan struct{}) *compilation {
	tools := preset.ApplyResourcePolicy(runtime.Options.SelectedTools, stack.Tools)
	if tools == nil {
		tools = []string{}
	}
	return &compilation{
		stack:   stack,
		runtime: runtime,
		blocks:  newBlockRenderer(stack, runtime, tools, macros),
		slots:   &slotRenderer{stack: stack, runtime: runtime, piDocsRoot: runtime.PiDocsRoot, tools: tools},
		regex:   preset.NewRegexBudget(RegexTimeLimit, done),
	}
}

func (c *compilation) compileSystemPrompt(base string) (SystemResult, systemAssembly) {
	diags := c.cacheSensitivityDiagnostics()
	var parts []string
	var pieces []systemPiece
	for i := range c.stack.Items {
		item := &c.stack.Items[i]
		if !item.IsEnabled() || item.Role != preset.RoleSystem {
			continue
		}
		var text string
		switch {
		case item.Kind != preset.KindSlot:
			text = c.blocks.render(item.Content, &diags, item.ID)
		case item.Slot == "chat-history":
			diags = append(diags, newDiagnostic(levelWarning, "chat-history slot cannot be placed in the system prompt.", item.ID))
			continue
		default:
			text = c.slots.render(item, &diags)
		}
		if text = jsonv.TrimJS(text); text != "" {
			parts = append(parts, text)
			pieces = append(pieces, systemPiece{item: item, text: text})
		}
	}

	compiled := strings.Join(parts, "\n\n")
	var prompt string
	switch {
	case compiled == "":
		message := "Compiled system prompt is empty; preserving base system prompt."
		if hasError(diags) {
			message = "Compiled system prompt failed; preserving base system prompt."
		}
		diags = append(diags, newDiagnostic(levelWarning, message, ""))
		prompt = base
	case c.stack.Mode == preset.ModeAppend:
		prompt = base + "\n\n" + compiled
	case c.stack.Mode == preset.ModePrepend:
		prompt = compiled + "\n\n" + base
	default:
		prompt = compiled
	}
	assembly := systemAssembly{pieces: pieces, compiled: compiled, beforeRegex: prompt}
	prompt, assembly.steps = c.applyRegexToSystem(prompt, &diags)
	c.reportRegexLimits(&diags)
	if diags == nil {
		diags = []Diagnostic{}
	}
	return SystemResult{SystemPrompt: prompt, Diagnostics: diags}, assembly
}

func (c *compilation) compileMessages(original []any) MessagesResult {
	diags := c.cacheSensitivityDiagnostics()
	messages := make([]any, 0, len(original)+len(c.stack.Items))
	sources := make([]MessageSource, 0, len(original)+len(c.stack.Items))
	inserted := false
	allowDuplicates := contextFlag(c.stack, "allowDuplicateChatHistory")

	for i := range c.stack.Items {
		item := &c.stack.Items[i]
		if !item.IsEnabled() {
			continue
		}
		if item.Kind == preset.KindSlot && item.Slot == "chat-history" {
			if inserted && !allowDuplicates {
				diags = append(diags, newDiagnostic(levelWarning, "Skipped duplicate chat-history slot.", item.ID))
				continue
			}
			filter := historyFilter{itemID: item.ID, diags: &diags}
			history := filter.apply(original, historyOptions{raw: item.Options})
			history = c.applyRegexToMessages(history, preset.StageHistory, &diags)
			messages = append(messages, history...)
			for index, m := range history {
				sources = append(sources, MessageSource{
					Kind: SourceChatHistory, ItemID: item.ID, ItemName: item.Name, Slot: item.Slot,
					HistoryIndex: index + 1, HistoryCount: len(history), Role: messageRole(m),
				})
			}
			inserted = true
			continue
		}
		if item.Role == preset.RoleNone || item.Role == preset.RoleSystem {
			continue
		}
		var content string
		if item.Kind == preset.KindSlot {
			content = c.slots.render(item, &diags)
		} else {
			content = c.blocks.render(item.Content, &diags, item.ID)
		}
		if jsonv.TrimJS(content) == "" {
			continue
		}
		message := c.syntheticMessage(item.Role, content)
		messages = append(messages, message)
		sources = append(sources, MessageSource{Kind: SourceStackItem, ItemID: item.ID, ItemName: item.Name, Role: string(item.Role)})
	}

	if !inserted {
		messages = append(messages, original...)
		name := "Conversation history"
		for index, m := range original {
			sources = append(sources, MessageSource{
				Kind: SourceImplicitHistory, ItemName: &name, Slot: "chat-history",
				HistoryIndex: index + 1, HistoryCount: len(original), Role: messageRole(m),
			})
		}
	}

	messages = c.applyRegexToMessages(messages, preset.StageCompiled, &diags)
	c.reportRegexLimits(&diags)
	if contextFlag(c.stack, "mergeConsecutiveRoles") {
		messages, sources = mergeConsecutive(messages, sources, mergeSeparator(c.stack), &diags)
	}
	messages, sources = keepLeadingSystemFirst(original, messages, sources)
	if diags == nil {
		diags = []Diagnostic{}
	}
	return MessagesResult{Messages: messages, MessageSources: sources, Diagnostics: diags}
}

// keepLeadingSystemFirst moves Pi's incoming initial System message (the
// exact object) back to index 0 together with its source.
func keepLeadingSystemFirst(original, messages []any, sources []MessageSource) ([]any, []MessageSource) {
	if len(original) == 0 {
		return messages, sources
	}
	head := messageObject(original[0])
	if head == nil {
		return messages, sources
	}
	if role, _ := stringField(head, "role"); role != "system" {
		return messages, sources
	}
	at := -1
	for i, m := range messages {
		if obj := messageObject(m); obj == head {
			at = i
			break
		}
	}
	if at <= 0 || at >= len(sources) {
		return messages, sources
	}
	movedMessage, movedSource := messages[at], sources[at]
	copy(messages[1:at+1], messages[:at])
	copy(sources[1:at+1], sources[:at])
	messages[0], sources[0] = movedMessage, movedSource
	return messages, sources
}

// contextFlag is `stack.context?.<key>` read as a truthy JavaScript value.
func contextFlag(stack *preset.Stack, key string) bool {
	if stack.Context == nil {
		return false
	}
	v, ok := stack.Context.Get(key)
	return ok && jsonv.Truthy(v)
}

// mergeSeparator is `stack.context.mergeSeparator ?? "\n\n"`.
func mergeSeparator(stack *preset.Stack) string {
	if stack.Context != nil {
		if v, ok := stack.Context.Get("mergeSeparator"); ok && v != nil {
			if s, isString := v.(string); isString {
				return s
			}
			return jsonv.ToString(v)
		}
	}
	return "\n\n"
}

var zeroUsageKeys = []string{"input", "output", "cacheRead", "cacheWrite", "totalTokens"}
var zeroCostKeys = []string{"input", "output", "cacheRead", "cacheWrite", "total"}

func zeroUsage() *jsonv.Object {
	usage := jsonv.NewObject()
	for _, k := range zeroUsageKeys {
		usage.Set(k, 0.0)
	}
	cost := jsonv.NewObject()
	for _, k := range zeroCostKeys {
		cost.Set(k, 0.0)
	}
	usage.Set("cost", cost)
	return usage
}

// syntheticMessage builds the Pi agent message of a user, assistant or
// custom stack item.
func (c *compilation) syntheticMessage(role preset.Role, text string) *jsonv.Object {
	timestamp := epochMillis(c.runtime.Now)
	m := jsonv.NewObject()
	switch role {
	case preset.RoleCustom:
		m.Set("role", "custom")
		m.Set("customType", "pi-forge")
		m.Set("content", textContent(text))
		m.Set("display", syntheticVisible(c.stack))
		details := jsonv.NewObject()
		details.Set("stackId", c.stack.ID)
		m.Set("details", details)
	case preset.RoleAssistant:
		api, provider, model := "unknown", "unknown", "unknown"
		if c.runtime.Model != nil {
			provider, model = c.runtime.Model.Provider, c.runtime.Model.ID
			if c.runtime.Model.API != "" {
				api = c.runtime.Model.API
			}
		}
		m.Set("role", "assistant")
		m.Set("content", textContent(text))
		m.Set("api", api)
		m.Set("provider", provider)
		m.Set("model", model)
		m.Set("usage", zeroUsage())
		m.Set("stopReason", "stop")
	default:
		m.Set("role", "user")
		m.Set("content", textContent(text))
	}
	m.Set("timestamp", timestamp)
	return m
}

// syntheticVisible is `stack.defaults?.syntheticMessagesVisible ?? false`.
func syntheticVisible(stack *preset.Stack) any {
	if stack.Defaults != nil {
		if v, ok := stack.Defaults.Get("syntheticMessagesVisible"); ok && v != nil {
			return v
		}
	}
	return false
}

// cacheSensitivityDiagnostics flags enabled items whose output changes per
// turn or per day (both phases start with these).
func (c *compilation) cacheSensitivityDiagnostics() []Diagnostic {
	var diags []Diagnostic
	for i := range c.stack.Items {
		item := &c.stack.Items[i]
		if !item.IsEnabled() {
			continue
		}
		if item.Kind != preset.KindSlot {
			usesTime, usesDate := templateUsesTimeOrDate(item.Content)
			if usesTime {
				diags = append(diags, newDiagnostic(levelWarning, "{{time}} changes every turn, invalidating prompt-prefix cache from this item onward. Use {{date}} instead, or accept the cache cost.", item.ID))
			}
			if usesDate {
				diags = append(diags, newDiagnostic(levelInfo, "{{date}} changes daily; the prompt-prefix cache rebuilds once per day and stays stable within the day. Usually fine.", item.ID))
			}
			continue
		}
		if (item.Slot == "date" || item.Slot == "date-cwd") && optionIsTrue(item, "includeTime") {
			diags = append(diags, newDiagnostic(levelWarning, "Slot \""+item.Slot+"\" has includeTime enabled: the value changes every turn, invalidating prompt-prefix cache from this item onward. Remove includeTime, or accept the cache cost.", item.ID))
		}
	}
	return diags
}
