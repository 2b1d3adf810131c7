package turndiff

import (
	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
)

// Kinds of Cause: what moved the cache boundary.
const (
	CausePresetItem   = "preset-item"   // a preset item's output changed
	CauseRegex        = "regex"         // a regex rule rewrote the text differently
	CauseCapability   = "capability"    // a capability was activated, deactivated or reset
	CauseTools        = "tools"         // the tool set sent with the request changed
	CauseCompaction   = "compaction"    // a compaction replaced the history
	CauseModel        = "model"         // the model changed
	CausePreset       = "preset"        // another preset became active
	CauseSystemPrompt = "system-prompt" // Pi recorded a new system prompt
	CauseContextEdit  = "context-edit"  // a context edit rewrote a message
	CauseBranch       = "branch"        // the requests are on different branches
)

// Cause names what changed the first changed block, where the data says
// so. Empty ids are absent.
type Cause struct {
	Kind string
	// Block is the key of the first changed block.
	Block string
	// Detail is one human-readable line.
	Detail string
	// ItemID and PresetID locate a preset item (panel 1); CapabilityID a
	// capability (panel 2); EntryID a session entry (panel 3); RuleID a
	// regex rule.
	ItemID       string
	PresetID     string
	CapabilityID string
	EntryID      string
	RuleID       string
	// Also lists the kinds of the other causes that apply (the regex
	// rules that carried an item's change, the switch that brought other
	// rules).
	Also []string
}

// CauseJSON renders a cause: {kind, block, detail, itemId?, presetId?,
// capabilityId?, entryId?, ruleId?}.
func CauseJSON(c *Cause) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("kind", c.Kind)
	o.Set("block", c.Block)
	o.Set("detail", c.Detail)
	for _, f := range []struct{ k, v string }{
		{"itemId", c.ItemID}, {"presetId", c.PresetID}, {"capabilityId", c.CapabilityID},
		{"entryId", c.EntryID}, {"ruleId", c.RuleID},
	} {
		if f.v != "" {
			o.Set(f.k, f.v)
		}
	}
	return o
}

// Origin says what produced a stretch of a block's text.
type Origin struct {
	// Kind is CausePresetItem, CauseRegex, CauseSystemPrompt, … or "" for
	// text nothing in particular produced (a separator, history).
	Kind     string
	ItemID   string
	Label    string
	EntryID  string
	PresetID string
	// CapabilityID is the capability ("scope:id") behind a capability
	// update.
	CapabilityID string
	// Regex is set on a CauseRegex origin when the compile said how the
	// rules rewrote the text it covers.
	Regex *RegexRewrite
}

// RegexRewrite is how regex rules rewrote the text a regex origin covers:
// that text before the rules ran, attributed as it would be without them,
// and the rules that changed it, in the order they ran.
type RegexRewrite struct {
	Before string
	// Spans attribute Before (offsets into Before).
	Spans []Span
	Steps []compile.RegexStep
}

// Span attributes the UTF-16 range [Start, End) of a block's text.
type Span struct {
	Start, End int
	Origin     Origin
}

// Annotated is a turn with what produced its blocks, where known: Spans by
// block key (in text order) and a whole-block Origin by key.
type Annotated struct {
	Turn   Turn
	Spans  map[string][]Span
	Blocks map[string]Origin
}

// OriginAt returns the origin of the text at offset (UTF-16) of block key:
// the span covering it (the last span when offset is at or past the end),
// else the whole-block origin.
func (a *Annotated) OriginAt(key string, offset int) (Origin, bool) {
	if a == nil {
		return Origin{}, false
	}
	spans := a.Spans[key]
	for i, s := range spans {
		if offset >= s.Start && offset < s.End || i == len(spans)-1 && offset >= s.End {
			if s.Origin.Kind != "" {
				return s.Origin, true
			}
			break
		}
	}
	o, ok := a.Blocks[key]
	return o, ok && o.Kind != ""
}

// FirstChange is the first changed row of a diff in block order and the
// UTF-16 offset of its first differing character (0 for added or removed
// blocks). ok is false when nothing changed.
func FirstChange(d *Diff) (row, offset int, ok bool) {
	for i := range d.Blocks {
		b := &d.Blocks[i]
		if b.Status == StatusSame {
			continue
		}
		if b.Status == StatusModified {
			return i, commonPrefixUnits(b.Before.Text, b.After.Text), true
		}
		return i, 0, true
	}
	return 0, 0, false
}

// BreaksCache reports whether the diff moves the cache boundary into what
// the previous request already had: a boundary exists and falls before the
// end of the previous turn's blocks. Appending messages does not break it.
func BreaksCache(d *Diff, previous *Turn) bool {
	if previous == nil || d.Boundary < 0 {
		return false
	}
	return d.Boundary < len(previous.Blocks)
}

// BoundaryChange is the row at the cache boundary and the offset of the
// first differing character there; ok is false when there is no boundary
// inside the previous turn.
func BoundaryChange(d *Diff, previous *Turn) (row, offset int, ok bool) {
	if !BreaksCache(d, previous) || d.BoundaryRow < 0 || d.BoundaryRow >= len(d.Blocks) {
		return 0, 0, false
	}
	b := &d.Blocks[d.BoundaryRow]
	if b.Status == StatusModified {
		return d.BoundaryRow, commonPrefixUnits(b.Before.Text, b.After.Text), true
	}
	return d.BoundaryRow, 0, true
}

// CauseFromOrigins explains the block at row of d from the annotations of
// the two sides: the after side's origin at offset, else the before side's.
// Where regex rules rewrote the text there, RegexChange decides.
func CauseFromOrigins(d *Diff, row, offset int, before, after *Annotated) *Cause {
	b := &d.Blocks[row]
	key := ""
	var o Origin
	found := false
	if b.After != nil {
		key = b.After.Key
		o, found = after.OriginAt(key, offset)
	}
	if !found && b.Before != nil {
		key = b.Before.Key
		o, found = before.OriginAt(key, offset)
	}
	if !found {
		return nil
	}
	if o.Kind == CauseRegex || regexOrigin(before, b.Before, offset) {
		if c, ok := RegexChange(d, row, before, after); ok {
			return c
		}
	}
	return causeOf(o, key)
}

// regexOrigin reports whether regex rules produced the text at offset of
// block on side a (rules that no longer rewrite the later side still
// explain the change).
func regexOrigin(a *Annotated, block *Block, offset int) bool {
	if block == nil {
		return false
	}
	o, ok := a.OriginAt(block.Key, offset)
	return ok && o.Kind == CauseRegex
}

func causeOf(o Origin, key string) *Cause {
	c := &Cause{Kind: o.Kind, Block: key, ItemID: o.ItemID, EntryID: o.EntryID, PresetID: o.PresetID, CapabilityID: o.CapabilityID}
	switch o.Kind {
	case CausePresetItem:
		c.Detail = "preset item " + o.Label
	case CauseRegex:
		c.Detail = "regex rules rewrote the system prompt"
	default:
		c.Detail = o.Label
	}
	return c
}

// RegexChange explains the modified block at row of d where regex rules
// rewrote the text of either side, from the text before the rules ran:
// when that differs, the origin of its first changed character decides
// (the Preset item, as without the rules) and regex is listed in Also;
// when it is the same, the rules rewrote it differently and the first
// rule whose step differs decides — the later side's, or the earlier
// side's when the later one has no more rules that changed the text.
// ok is false when neither side says how rules rewrote the block, or no
// origin is known where the text before the rules changed.
func RegexChange(d *Diff, row int, before, after *Annotated) (*Cause, bool) {
	b := &d.Blocks[row]
	if b.Before == nil || b.After == nil || before == nil || after == nil {
		return nil, false
	}
	vb, okb := preRegexView(before, b.Before)
	va, oka := preRegexView(after, b.After)
	if !okb || !oka || (vb.rewrite == nil && va.rewrite == nil) {
		return nil, false
	}
	if vb.text != va.text {
		offset := commonPrefixUnits(vb.text, va.text)
		key := b.After.Key
		o, found := (&Annotated{Spans: map[string][]Span{key: va.spans}, Blocks: after.Blocks}).OriginAt(key, offset)
		if !found {
			key = b.Before.Key
			o, found = (&Annotated{Spans: map[string][]Span{key: vb.spans}, Blocks: before.Blocks}).OriginAt(key, offset)
		}
		if !found || o.Kind == CauseRegex {
			return nil, false
		}
		c := causeOf(o, key)
		c.Also = []string{CauseRegex}
		return c, true
	}
	return ruleCause(b.After.Key, vb, va), true
}

// regexView is a block's text with the text regex rules rewrote put back
// as it was before they ran, and its spans.
type regexView struct {
	text     string
	spans    []Span
	rewrite  *RegexRewrite
	presetID string
}

// preRegexView undoes the rewrite of the block's regex span (the block
// as it is when it has none); false when nothing attributes the block.
func preRegexView(a *Annotated, block *Block) (regexView, bool) {
	spans := a.Spans[block.Key]
	if len(spans) == 0 {
		return regexView{}, false
	}
	for i, s := range spans {
		rw := s.Origin.Regex
		if s.Origin.Kind != CauseRegex || rw == nil {
			continue
		}
		head := sliceUTF16(block.Text, s.Start)
		rewritten := sliceUTF16(block.Text[len(head):], s.End-s.Start)
		v := regexView{text: head + rw.Before + block.Text[len(head)+len(rewritten):], rewrite: rw, presetID: s.Origin.PresetID}
		shift := jsonv.UTF16Len(rw.Before) - (s.End - s.Start)
		v.spans = append(v.spans, spans[:i]...)
		for _, b := range rw.Spans {
			v.spans = append(v.spans, Span{Start: b.Start + s.Start, End: b.End + s.Start, Origin: b.Origin})
		}
		for _, after := range spans[i+1:] {
			v.spans = append(v.spans, Span{Start: after.Start + shift, End: after.End + shift, Origin: after.Origin})
		}
		return v, true
	}
	return regexView{text: block.Text, spans: spans}, true
}

// ruleCause names the first rule whose step differs between two rewrites
// of the same text.
func ruleCause(key string, before, after regexView) *Cause {
	var sb, sa []compile.RegexStep
	if before.rewrite != nil {
		sb = before.rewrite.Steps
	}
	if after.rewrite != nil {
		sa = after.rewrite.Steps
	}
	for k := 0; k < len(sa) || k < len(sb); k++ {
		switch {
		case k < len(sa) && (k >= len(sb) || sa[k].RuleID != sb[k].RuleID || sa[k].Hash != sb[k].Hash):
			return &Cause{Kind: CauseRegex, Block: key, PresetID: after.presetID, RuleID: sa[k].RuleID,
				Detail: "regex rule " + stepLabel(sa[k]) + " rewrote the system prompt differently"}
		case k >= len(sa):
			return &Cause{Kind: CauseRegex, Block: key, PresetID: before.presetID, RuleID: sb[k].RuleID,
				Detail: "regex rule " + stepLabel(sb[k]) + " no longer rewrites the system prompt"}
		}
	}
	presetID := after.presetID
	if presetID == "" {
		presetID = before.presetID
	}
	return &Cause{Kind: CauseRegex, Block: key, PresetID: presetID, Detail: "regex rules rewrote the system prompt"}
}

func stepLabel(s compile.RegexStep) string {
	if jsonv.TrimJS(s.Name) != "" {
		return s.Name
	}
	return s.RuleID
}

// ChangeOffset is the UTF-16 offset of the first character a modified
// block changed (0 for other statuses).
func ChangeOffset(b *DiffBlock) int {
	if b.Status != StatusModified {
		return 0
	}
	return commonPrefixUnits(b.Before.Text, b.After.Text)
}

// RowOrigin is what produced the block row i of d shows, as a whole, where
// that side's annotations say so: the later side, or the earlier one for
// a removed block. before may be nil.
func RowOrigin(d *Diff, i int, before, after *Annotated) (Origin, bool) {
	b := &d.Blocks[i]
	var o Origin
	ok := false
	switch {
	case b.After != nil && after != nil:
		o, ok = after.Blocks[b.After.Key]
	case b.After == nil && before != nil:
		o, ok = before.Blocks[b.Before.Key]
	}
	return o, ok && o.Label != ""
}

// OriginLabel names an origin for a block list: "item <label>" for a
// Preset item, the label otherwise.
func OriginLabel(o Origin) string {
	if o.Kind == CausePresetItem {
		return "item " + o.Label
	}
	return o.Label
}
