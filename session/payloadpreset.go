package session

import (
	"fmt"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session/catalog"
)

// PresetInput is what PresetRequestAt compiles.
type PresetInput struct {
	Stack *preset.Stack
	// PresetID names the preset in causes (a scoped selector or a path).
	PresetID string
	// Macros are values of custom macros ({{ extensions.x }}); nil = none.
	Macros  map[string]string
	Catalog *catalog.Catalog
	// Location is the local time zone for date slots (nil: time.Local).
	Location *time.Location
	// Fallback gives the runtime and base prompt when the session records
	// no system prompt (Pi before 0.86); nil makes that an error.
	Fallback Defaults
}

// PresetRequest is a preset compiled at a session entry, as a request.
type PresetRequest struct {
	Request
	// Preview is the labelled compilation (parts per item).
	Preview compile.PreviewResult
	// RuntimeSource says where the runtime came from, for humans.
	RuntimeSource string
}

// PresetRequestAt compiles in.Stack against RunContextAt at the same point
// RequestAt rebuilds (an assistant message's parent, else the entry
// itself) and builds the
// request the preset would send: the compiled system prompt projected into
// Pi's System message, the compiled messages, and the session's declared
// tools filtered by the preset's tool policy. The system prompt block is
// annotated with the item behind every character, message blocks of stack
// items with their item.
func PresetRequestAt(s *Session, index int, in PresetInput) (*PresetRequest, error) {
	if index < 0 || index >= len(s.Entries) {
		return nil, fmt.Errorf("preset request at entry %d of %d: %w", index, len(s.Entries), ErrUnknownEntry)
	}
	loc := in.Location
	if loc == nil {
		loc = time.Local
	}
	r := &PresetRequest{Request: Request{Entry: index, ContextIndex: index, CompactionIndex: -1}}
	e := &s.Entries[index]
	if e.Type == TypeMessage && e.Role == RoleAssistant {
		r.ForAssistant = true
		r.ContextIndex = -1
		if e.HasParent && s.parent[index] >= 0 {
			r.ContextIndex = int(s.parent[index])
		}
	}
	rc, err := RunContextAt(s, r.ContextIndex, in.Catalog, loc, in.Fallback)
	if err != nil {
		return nil, fmt.Errorf("preset request at entry %d: %w", index, err)
	}
	if !rc.FromSession && in.Fallback == nil {
		return nil, fmt.Errorf("preset request at entry %d: the session records no system prompt there and no default runtime was given", index)
	}
	runtime, base, messages := rc.Runtime, rc.Base, rc.Messages
	r.RuntimeSource = rc.Source
	if !rc.FromSession {
		r.RuntimeSource = "Pi defaults (the session records no system prompt there)"
	}
	var declared []any
	if r.ContextIndex >= 0 {
		sp, err := SystemPromptAt(s, r.ContextIndex)
		if err != nil {
			return nil, err
		}
		declared = sp.Tools
		r.Path = s.PathTo(r.ContextIndex)
	}
	if runtime.Model != nil {
		r.Provider, r.Model = runtime.Model.Provider, runtime.Model.ID
	}
	r.Preview = compile.Preview(in.Stack, runtime, base, messages, in.Macros)
	compiled := r.Preview.Result
	projected := compile.ProjectSystemPrompt(compiled.Messages.Messages, compiled.System.SystemPrompt)

	allowed := map[string]bool{}
	for _, name := range preset.ApplyResourcePolicy(runtime.Options.SelectedTools, in.Stack.Tools) {
		allowed[name] = true
	}
	var tools []any
	for _, t := range declared {
		o, _ := t.(*jsonv.Object)
		if allowed[toolName(o)] {
			tools = append(tools, t)
		}
	}

	// Message i of projected is compiled message i (projection keeps
	// positions, adding a leading System message only when there was none).
	var systems []*jsonv.Object
	var msgs []wireMessage
	offset := len(projected) - len(compiled.Messages.Messages)
	sources := map[int]compile.MessageSource{}
	for i, m := range projected {
		obj, _ := m.(*jsonv.Object)
		role := objString(obj, "role")
		if role == RoleSystem && obj != nil {
			systems = append(systems, obj)
		}
		for _, llm := range ConvertToLLM([]any{m}) {
			lo, _ := llm.(*jsonv.Object)
			msgs = append(msgs, wireMessage{value: llm, entry: -1, role: objString(lo, "role")})
			if k := i - offset; k >= 0 && k < len(compiled.Messages.MessageSources) {
				sources[len(msgs)-1] = compiled.Messages.MessageSources[k]
			}
		}
	}
	native := r.native(in.Catalog)
	r.buildPreset(tools, replaySystemMessages(systems), msgs, sources, native)
	for key, o := range r.Turn.Blocks {
		o.PresetID = in.PresetID
		r.Turn.Blocks[key] = o
	}
	r.Turn.Spans = map[string][]turndiff.Span{}
	if r.Turn.Turn.Blocks != nil {
		spans := presetSystemSpans(r.Preview.System, in.PresetID)
		if len(spans) > 0 {
			r.Turn.Spans[turndiff.KeySystem] = spans
		}
	}
	r.Turn.Turn.StackID = in.Stack.ID
	return r, nil
}

// buildPreset is build for compiled messages: blocks of stack-item
// messages are attributed to their item.
func (r *PresetRequest) buildPreset(tools []any, replayed *jsonv.Object, msgs []wireMessage, sources map[int]compile.MessageSource, native bool) {
	for key, i := range r.build(tools, replayed, msgs, native) {
		if src, ok := sources[i]; ok && src.Kind == compile.SourceStackItem && src.ItemID != "" {
			r.Turn.Blocks[key] = turndiff.Origin{Kind: turndiff.CausePresetItem, ItemID: src.ItemID, Label: labelOf(src.ItemID, src.ItemName)}
		}
	}
}

func labelOf(id string, name *string) string {
	if name != nil && jsonv.TrimJS(*name) != "" {
		return *name
	}
	return id
}

// presetSystemSpans maps the preview's system parts onto the start of the
// system block (the compiled prompt is its content, first).
func presetSystemSpans(parts []compile.Part, presetID string) []turndiff.Span {
	var spans []turndiff.Span
	at := 0
	for _, p := range parts {
		n := jsonv.UTF16Len(p.Text)
		var o turndiff.Origin
		switch p.Kind {
		case compile.PartItem:
			o = turndiff.Origin{Kind: turndiff.CausePresetItem, ItemID: p.ItemID, Label: p.Label, PresetID: presetID}
		case compile.PartRegex:
			o = turndiff.Origin{Kind: turndiff.CauseRegex, Label: p.Label, PresetID: presetID}
		case compile.PartBase:
			o = turndiff.Origin{Kind: turndiff.CauseSystemPrompt, Label: p.Label}
		}
		spans = append(spans, turndiff.Span{Start: at, End: at + n, Origin: o})
		at += n
	}
	return spans
}
