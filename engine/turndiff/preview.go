package turndiff

import (
	"strings"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Keys of preview sections (pi-forge's previewMessageDiffKey).
const (
	previewStackItem    = "stack-item:"
	previewChatHistory  = "chat-history:"
	previewImplicitHist = "implicit-history"
	emptySystemPrompt   = "(empty)"
)

// PreviewTurn is pi-forge's previewToTurnSnapshot of a compiled preview:
// the system prompt (key "system", role "") and one block per compiled
// message keyed by its diffKey ("stack-item:<id>:<n>",
// "chat-history:<item>:<hash>:<n>", "implicit-history:<hash>:<n>"). The
// annotations attribute the system prompt to the preview's parts and each
// stack-item message to its item. Capability delivery markers among the
// messages are left out: no request carries them (the capability
// projection replaces or drops them, the same way for both Presets a draft
// diff compares).
func PreviewTurn(pv *compile.PreviewResult, stackID, turnID string) Annotated {
	system := pv.Result.System.SystemPrompt
	if system == "" {
		system = emptySystemPrompt
	}
	a := Annotated{
		Turn:   Turn{TurnID: turnID, StackID: stackID, Blocks: make([]Block, 0, 1+len(pv.Result.Messages.Messages))},
		Spans:  map[string][]Span{},
		Blocks: map[string]Origin{},
	}
	a.Turn.Blocks = append(a.Turn.Blocks, NewBlock(KeySystem, "", system))
	a.Spans[KeySystem] = systemSpans(pv.System)
	occurrences := map[string]int{}
	msgs := pv.Result.Messages
	for i, m := range msgs.Messages {
		if capability.IsDeliveryMarker(m) {
			continue // never sent: the capability projection replaces or drops it
		}
		var src compile.MessageSource
		if i < len(msgs.MessageSources) {
			src = msgs.MessageSources[i]
		}
		content := compile.PreviewText(m)
		role := messageRole(m)
		base := previewDiffKey(src, content, role)
		occurrences[base]++
		key := base + ":" + itoa(occurrences[base])
		roleOut := role
		if roleOut == "undefined" {
			roleOut = ""
		}
		a.Turn.Blocks = append(a.Turn.Blocks, NewBlock(key, roleOut, content))
		if src.Kind == compile.SourceStackItem && src.ItemID != "" {
			a.Blocks[key] = Origin{Kind: CausePresetItem, ItemID: src.ItemID, Label: itemLabel(src.ItemID, src.ItemName)}
		}
	}
	return a
}

// messageRole is String(message.role) ("undefined" when absent).
func messageRole(m any) string {
	o, ok := m.(*jsonv.Object)
	if !ok {
		return "undefined"
	}
	v, ok := o.Get("role")
	if !ok {
		return "undefined"
	}
	return jsonv.ToString(v)
}

func previewDiffKey(src compile.MessageSource, content, role string) string {
	if src.Kind == compile.SourceStackItem && src.ItemID != "" {
		return previewStackItem + src.ItemID
	}
	key := previewImplicitHist
	if src.Kind == compile.SourceChatHistory {
		name := src.ItemID
		if name == "" {
			name = src.Slot
		}
		if name == "" {
			name = "history"
		}
		key = previewChatHistory + name
	}
	return key + ":" + HashText(role+"\x00"+content)
}

func itemLabel(id string, name *string) string {
	if name != nil && jsonv.TrimJS(*name) != "" {
		return *name
	}
	return id
}

// systemSpans maps the preview's system parts onto the system prompt.
func systemSpans(parts []compile.Part) []Span {
	return SystemSpans(parts, "")
}

// SystemSpans maps a compile's system parts onto the text they open,
// naming presetID ("" none) on the item and regex origins. A regex
// origin carries the prompt before the rules ran, attributed the same
// way, and the rules that rewrote it.
func SystemSpans(parts []compile.Part, presetID string) []Span {
	spans := make([]Span, 0, len(parts))
	at := 0
	for _, p := range parts {
		n := jsonv.UTF16Len(p.Text)
		var o Origin
		switch p.Kind {
		case compile.PartItem:
			o = Origin{Kind: CausePresetItem, ItemID: p.ItemID, Label: p.Label, PresetID: presetID}
		case compile.PartRegex:
			o = Origin{Kind: CauseRegex, Label: p.Label, PresetID: presetID, Regex: rewriteOf(p.Regex, presetID)}
		case compile.PartBase:
			o = Origin{Kind: CauseSystemPrompt, Label: p.Label}
		}
		spans = append(spans, Span{Start: at, End: at + n, Origin: o})
		at += n
	}
	return spans
}

func rewriteOf(r *compile.RegexRewrite, presetID string) *RegexRewrite {
	if r == nil {
		return nil
	}
	var b strings.Builder
	for _, p := range r.Before {
		b.WriteString(p.Text)
	}
	return &RegexRewrite{Before: b.String(), Spans: SystemSpans(r.Before, presetID), Steps: r.Steps}
}

// Changes lists how two presets differ where it can move the prompt.
type Changes struct {
	// Items are the ids of items added, removed, moved or edited (draft
	// order first, then items only the saved preset has).
	Items []string
	// RegexRules are the ids of regex rules added, removed or edited.
	RegexRules []string
	// Other names other changed top-level fields (mode, tools, skills,
	// capabilities, parameters, context, variables, defaults).
	Other []string
}

// PresetChanges compares two presets field by field through their JSON.
func PresetChanges(saved, draft *preset.Stack) Changes {
	var c Changes
	if saved == nil || draft == nil {
		return c
	}
	a, b := preset.ToJSON(saved), preset.ToJSON(draft)
	c.Items = changedByID(listOf(a, "items"), listOf(b, "items"))
	c.RegexRules = changedByID(listOf(objectOf(a, "regex"), "rules"), listOf(objectOf(b, "regex"), "rules"))
	for _, k := range []string{"mode", "tools", "skills", "capabilities", "parameters", "context", "variables", "defaults"} {
		va, _ := a.Get(k)
		vb, _ := b.Get(k)
		if jsonv.Stringify(va) != jsonv.Stringify(vb) {
			c.Other = append(c.Other, k)
		}
	}
	if ra, rb := withoutRules(a), withoutRules(b); ra != rb {
		c.Other = append(c.Other, "regex")
	}
	return c
}

func objectOf(o *jsonv.Object, key string) *jsonv.Object {
	if o == nil {
		return nil
	}
	v, _ := o.Get(key)
	r, _ := v.(*jsonv.Object)
	return r
}

func listOf(o *jsonv.Object, key string) []any {
	if o == nil {
		return nil
	}
	v, _ := o.Get(key)
	l, _ := v.([]any)
	return l
}

func withoutRules(stack *jsonv.Object) string {
	r := objectOf(stack, "regex")
	if r == nil {
		return ""
	}
	c := r.Clone()
	c.Delete("rules")
	return jsonv.Stringify(c)
}

// changedByID lists ids whose JSON or position differ between two lists
// of {id, …} objects.
func changedByID(before, after []any) []string {
	idOf := func(v any) string {
		o, _ := v.(*jsonv.Object)
		if o == nil {
			return ""
		}
		id, _ := o.Get("id")
		s, _ := id.(string)
		return s
	}
	pos := map[string]int{}
	text := map[string]string{}
	for i, v := range before {
		pos[idOf(v)] = i
		text[idOf(v)] = jsonv.Stringify(v)
	}
	var out []string
	seen := map[string]bool{}
	for i, v := range after {
		id := idOf(v)
		seen[id] = true
		if p, ok := pos[id]; !ok || p != i || text[id] != jsonv.Stringify(v) {
			out = append(out, id)
		}
	}
	for _, v := range before {
		if id := idOf(v); !seen[id] {
			out = append(out, id)
		}
	}
	return out
}

// DraftDiff is the Presets panel's draft diff (spec §13.4): the saved
// preset's preview against the draft's, compiled at the same point, as
// diffTurns(snapshot(saved), snapshot(draft)), with the cause of the first
// changed block when the presets say what it is.
func DraftDiff(saved, draft *preset.Stack, savedPV, draftPV *compile.PreviewResult) (Annotated, Annotated, Diff, *Cause) {
	id := ""
	if draft != nil {
		id = draft.ID
	}
	before := PreviewTurn(savedPV, id, "saved")
	after := PreviewTurn(draftPV, id, "draft")
	d := DiffTurns(&before.Turn, &after.Turn)
	return before, after, d, ExplainPresetChange(&d, &before, &after, PresetChanges(saved, draft), id)
}

// ExplainPresetChange names the cause of the first changed block between
// two compilations whose presets differ by changes: the item whose text
// changed there, a regex rule when rules rewrote the text, else the first
// changed item or setting.
func ExplainPresetChange(d *Diff, before, after *Annotated, changes Changes, presetID string) *Cause {
	row, offset, ok := FirstChange(d)
	if !ok {
		return nil
	}
	b := &d.Blocks[row]
	key := ""
	var origins []Origin
	if b.After != nil {
		key = b.After.Key
		if o, found := after.OriginAt(key, offset); found {
			origins = append(origins, o)
		}
	}
	if b.Before != nil {
		if key == "" {
			key = b.Before.Key
		}
		if o, found := before.OriginAt(b.Before.Key, offset); found {
			origins = append(origins, o)
		}
	}
	changed := map[string]bool{}
	for _, id := range changes.Items {
		changed[id] = true
	}
	// The item at the first differing character on either side that the
	// presets say changed; a disabled item shows on the saved side only.
	for _, o := range origins {
		if o.Kind == CausePresetItem && changed[o.ItemID] {
			return &Cause{Kind: CausePresetItem, Block: key, PresetID: presetID, ItemID: o.ItemID, Detail: "preset item " + o.Label}
		}
	}
	regexAtBoundary := len(origins) == 0
	for _, o := range origins {
		regexAtBoundary = regexAtBoundary || o.Kind == CauseRegex
	}
	if len(changes.RegexRules) > 0 && regexAtBoundary {
		return &Cause{Kind: CauseRegex, Block: key, PresetID: presetID, RuleID: changes.RegexRules[0],
			Detail: "regex rule " + changes.RegexRules[0] + " changed"}
	}
	if len(changes.Items) > 0 {
		return &Cause{Kind: CausePresetItem, Block: key, PresetID: presetID, ItemID: changes.Items[0],
			Detail: "preset item " + changes.Items[0] + " changed"}
	}
	if len(changes.RegexRules) > 0 {
		return &Cause{Kind: CauseRegex, Block: key, PresetID: presetID, RuleID: changes.RegexRules[0],
			Detail: "regex rule " + changes.RegexRules[0] + " changed"}
	}
	if len(changes.Other) > 0 {
		kind := CausePreset
		switch changes.Other[0] {
		case "tools":
			kind = CauseTools
		case "capabilities":
			kind = CauseCapability
		}
		return &Cause{Kind: kind, Block: key, PresetID: presetID, Detail: "preset " + strings.Join(changes.Other, ", ") + " changed"}
	}
	if len(origins) > 0 && origins[0].Kind == CausePresetItem {
		o := origins[0]
		return &Cause{Kind: CausePresetItem, Block: key, PresetID: presetID, ItemID: o.ItemID, Detail: "preset item " + o.Label}
	}
	return nil
}
