package turndiff

import "github.com/forgebench/forgebench/engine/jsonv"

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
