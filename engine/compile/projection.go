package compile

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// PiBuiltinSectionKeys are the System-message sections Pi itself owns; the
// base prompt is rebuilt from these only, and a compiled Preset prompt
// replaces them.
var PiBuiltinSectionKeys = []string{"preamble", "tools", "rules", "docs", "addendum", "project_context", "skills", "cwd"}

func isPiBuiltinSection(key string) bool {
	for _, k := range PiBuiltinSectionKeys {
		if k == key {
			return true
		}
	}
	return false
}

// isSystemMessage is `message.role === "system"`.
func isSystemMessage(message any) bool {
	role, _ := stringField(message, "role")
	return role == "system"
}

// systemContentText is pi-ai's contentText: a string, or the text parts
// joined with "\n" (null content counts as "").
func systemContentText(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	parts, _ := content.([]any)
	texts := make([]string, 0, len(parts))
	for _, part := range parts {
		if partType(part) == "text" {
			t, _ := stringField(part, "text")
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n")
}

// PiBasePrompt is pi-forge's getPiBasePrompt: the prompt replayed from the
// incoming System messages using only the first one's content and Pi's
// built-in sections (later content and foreign sections stay separate).
// Without System messages it returns fallback.
func PiBasePrompt(messages []any, fallback string) string {
	var contents []string
	var keys []string
	values := map[string]string{}
	seenTimestamp := false
	first := true
	found := false
	for _, m := range messages {
		if !isSystemMessage(m) {
			continue
		}
		found = true
		if ts, ok := field(m, "timestamp"); ok && ts != nil {
			seenTimestamp = true
		}
		if first {
			content, _ := field(m, "content")
			if text := systemContentText(content); text != "" {
				contents = append(contents, text)
			}
			first = false
		}
		sections, _ := field(m, "sections")
		obj, _ := sections.(*jsonv.Object)
		if obj == nil {
			continue
		}
		for _, key := range obj.Keys() {
			if !isPiBuiltinSection(key) {
				continue
			}
			v, _ := obj.Get(key)
			if _, exists := values[key]; exists && v == nil {
				delete(values, key)
				keys = removeString(keys, key)
				continue
			}
			if v == nil {
				continue
			}
			if _, exists := values[key]; !exists {
				keys = append(keys, key)
			}
			values[key] = jsonv.ToString(v)
		}
	}
	if !found {
		return fallback
	}
	if !seenTimestamp {
		return ""
	}
	parts := []string{strings.Join(contents, "\n\n")}
	for _, key := range keys {
		parts = append(parts, values[key])
	}
	nonEmpty := parts[:0]
	for _, p := range parts {
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	return strings.Join(nonEmpty, "\n\n")
}

func removeString(list []string, s string) []string {
	out := list[:0]
	for _, e := range list {
		if e != s {
			out = append(out, e)
		}
	}
	return out
}

// ProjectSystemPrompt is pi-forge's projectPresetSystemPrompt: Pi's built-in
// sections are removed from every System message (foreign sections stay),
// the first System message's content becomes compiled and later ones keep
// theirs. Without a System message one is put first.
func ProjectSystemPrompt(messages []any, compiled string) []any {
	out := make([]any, 0, len(messages)+1)
	headDone := false
	for _, m := range messages {
		obj := messageObject(m)
		if obj == nil || !isSystemMessage(m) {
			out = append(out, m)
			continue
		}
		projected := jsonv.NewObject()
		for _, key := range obj.Keys() {
			v, _ := obj.Get(key)
			projected.Set(key, v)
		}
		if !headDone {
			projected.Set("content", compiled)
		}
		var kept *jsonv.Object
		if sections, ok := obj.Get("sections"); ok {
			if sectionObj, isObject := sections.(*jsonv.Object); isObject {
				for _, key := range sectionObj.Keys() {
					if isPiBuiltinSection(key) {
						continue
					}
					if kept == nil {
						kept = jsonv.NewObject()
					}
					v, _ := sectionObj.Get(key)
					kept.Set(key, v)
				}
			}
		}
		if kept != nil {
			projected.Set("sections", kept)
		} else {
			projected.Delete("sections")
		}
		headDone = true
		out = append(out, projected)
	}
	if !headDone {
		head := jsonv.NewObject()
		head.Set("role", "system")
		head.Set("content", compiled)
		head.Set("timestamp", 0.0)
		out = append([]any{head}, out...)
	}
	return out
}

// RequestInput describes one provider request of an agent turn (spec §4.5).
type RequestInput struct {
	Stack   *preset.Stack
	Runtime Runtime
	// Messages is Pi's context for the request (with its System messages).
	Messages []any
	// FallbackBase is the base prompt when Messages hold no System message.
	FallbackBase string
	// Prompt is the user prompt stored by before_agent_start; nil = none.
	Prompt *string
	// FirstOfTurn marks the first request of a user turn: only then are the
	// messages compiled; follow-up requests only get `frequency: "request"`
	// regex rules over the natural context.
	FirstOfTurn bool
	Macros      map[string]string
}

// RequestOutput is what pi-forge hands the provider for one request, before
// capability projection.
type RequestOutput struct {
	Base   string
	System SystemResult
	// SystemParts label the compiled system prompt: they concatenate
	// exactly to System.SystemPrompt (as PreviewResult.System does).
	SystemParts []Part
	Messages    MessagesResult
	// Projected is Messages.Messages with the compiled prompt projected into
	// the leading System message.
	Projected []any
}

// PrepareRequest reproduces the compiler part of pi-forge's per-request
// order: base prompt, system compile, (first request only) latest user
// message + message compile, else request-frequency regex, then projection.
func PrepareRequest(in RequestInput) RequestOutput {
	stack := in.Stack
	if stack == nil {
		stack = &preset.Stack{SchemaVersion: 1}
	}
	runtime := in.Runtime
	base := PiBasePrompt(in.Messages, in.FallbackBase)
	c := newCompilation(stack, &runtime, in.Macros, nil)
	system, assembly := c.compileSystemPrompt(base)

	var messages MessagesResult
	if in.FirstOfTurn {
		latest, ok := LatestUserMessage(in.Messages)
		if !ok {
			latest = ""
			if in.Prompt != nil {
				latest = *in.Prompt
			}
		}
		c.setLatestUserMessage(latest)
		messages = c.compileMessages(in.Messages)
	} else {
		out, diags := preset.ApplyRequestFrequencyRegexWithin(stack, in.Messages, c.regex)
		messages = MessagesResult{Messages: out, Diagnostics: append([]Diagnostic{}, diags...)}
		c.reportRegexLimits(&messages.Diagnostics)
	}
	return RequestOutput{
		Base:        base,
		System:      system,
		SystemParts: systemParts(stack, system.SystemPrompt, base, assembly),
		Messages:    messages,
		Projected:   ProjectSystemPrompt(messages.Messages, system.SystemPrompt),
	}
}

// setLatestUserMessage updates runtime.lastUserMessage for later renders and
// drops cached macro values when it changed.
func (c *compilation) setLatestUserMessage(message string) {
	c.runtime.LatestUserMessage = &message
	if current, _ := c.blocks.runtime.Get("lastUserMessage"); current == message {
		return
	}
	c.blocks.runtime.Set("lastUserMessage", message)
	c.blocks.macros.Reset()
}
