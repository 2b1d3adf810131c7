package requestdiff

import (
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/components/diffview"
)

// BlockLabel is the human name of a block key: "system prompt", "user
// message", "request · tools", "item rules", …
func BlockLabel(key, role string) string {
	switch {
	case key == turndiff.KeySystem:
		return i18n.T("system prompt")
	case key == turndiff.KeyPayloadText:
		return i18n.T("payload text (not JSON)")
	case key == turndiff.KeyPayload:
		return i18n.T("payload")
	case strings.HasPrefix(key, turndiff.KeyRequestField):
		return i18n.T("request · %s", strings.TrimPrefix(key, turndiff.KeyRequestField))
	case strings.HasPrefix(key, turndiff.KeyMessage):
		return i18n.T("%s message", role)
	case strings.HasPrefix(key, "stack-item:"):
		id := strings.TrimPrefix(key, "stack-item:")
		if k := strings.LastIndexByte(id, ':'); k > 0 {
			id = id[:k]
		}
		return i18n.T("item %s", id)
	case strings.HasPrefix(key, "chat-history:"), strings.HasPrefix(key, "implicit-history:"):
		return i18n.T("history · %s", role)
	}
	return key
}

// FromTurnDiff adapts a diffTurns result to the diff view's block list:
// labels from BlockLabel, the boundary rule where the engine's prefix walk
// stopped (after the last block when every block is cached). A modified
// block whose text reads the same on both sides shows its wire JSON
// instead (Block.Fields), so the line diff finds the change.
func FromTurnDiff(d *turndiff.Diff) diffview.Diff {
	out := diffview.Diff{Blocks: make([]diffview.Block, len(d.Blocks))}
	for i := range d.Blocks {
		b := &d.Blocks[i]
		status, _ := diffview.ParseStatus(b.Status)
		vb := diffview.Block{Status: status, TokenDelta: b.TokenDelta}
		side := b.After
		if side == nil {
			side = b.Before
		}
		vb.Key, vb.Role = side.Key, side.Role
		vb.Label = BlockLabel(side.Key, side.Role)
		if b.Before != nil {
			vb.Before, vb.BeforeTokens = b.Before.Text, b.Before.ApproxTokens
		}
		if b.After != nil {
			vb.After, vb.AfterTokens = b.After.Text, b.After.ApproxTokens
		}
		if b.Status == turndiff.StatusModified && b.Before.Text == b.After.Text {
			if before, after := turndiff.WireText(b.Before), turndiff.WireText(b.After); before != after {
				vb.Before, vb.After, vb.Fields = before, after, true
			}
		}
		out.Blocks[i] = vb
	}
	switch {
	case d.BoundaryRow >= 0:
		out.Boundary = d.BoundaryRow
	default:
		out.Boundary = len(out.Blocks) // every block cached
	}
	s := d.Summary
	out.Totals = diffview.Totals{
		PrefixTokens: d.PrefixTokens, PrefixRatio: d.PrefixRatio, DeltaTokens: d.DeltaTokens,
		AddedTokens: s.AddedTokens, RemovedTokens: s.RemovedTokens,
		Same: s.SameBlocks, Modified: s.ModifiedBlocks, Added: s.AddedBlocks, Removed: s.RemovedBlocks,
	}
	return out
}

// Annotate appends to each row's label what produced the block, where the
// side it shows says so as a whole (a Preset item's message, a capability
// update, a compaction summary): "user message · item Working Agreement".
// A row shows its later side, a removed row its earlier one. v must come
// from FromTurnDiff(d); before may be nil.
func Annotate(v *diffview.Diff, d *turndiff.Diff, before, after *turndiff.Annotated) {
	for i := range d.Blocks {
		if i >= len(v.Blocks) {
			return
		}
		if o, ok := turndiff.RowOrigin(d, i, before, after); ok {
			v.Blocks[i].Label += " · " + sanitize.Line(turndiff.OriginLabel(o))
		}
	}
}
