package payloads

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/components/diffview"
)

// blockLabel is the human name of a block key: "system prompt", "user
// message", "request · tools", "item rules", …
func blockLabel(key, role string) string {
	switch {
	case key == turndiff.KeySystem:
		return "system prompt"
	case key == turndiff.KeyPayloadText:
		return "payload text (not JSON)"
	case key == turndiff.KeyPayload:
		return "payload"
	case strings.HasPrefix(key, turndiff.KeyRequestField):
		return "request · " + strings.TrimPrefix(key, turndiff.KeyRequestField)
	case strings.HasPrefix(key, turndiff.KeyMessage):
		return role + " message"
	case strings.HasPrefix(key, "stack-item:"):
		id := strings.TrimPrefix(key, "stack-item:")
		if k := strings.LastIndexByte(id, ':'); k > 0 {
			id = id[:k]
		}
		return "item " + id
	case strings.HasPrefix(key, "chat-history:"), strings.HasPrefix(key, "implicit-history:"):
		return "history · " + role
	}
	return key
}

// viewDiff adapts a diffTurns result to the diff view's block list: the
// boundary rule goes where the engine's prefix walk stopped.
func viewDiff(d *turndiff.Diff) diffview.Diff {
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
		vb.Label = blockLabel(side.Key, side.Role)
		if b.Before != nil {
			vb.Before, vb.BeforeTokens = b.Before.Text, b.Before.ApproxTokens
		}
		if b.After != nil {
			vb.After, vb.AfterTokens = b.After.Text, b.After.ApproxTokens
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

// refLabel names a resolved reference in one line (sanitised).
func refLabel(r *session.Resolved) string {
	t := &r.Turn.Turn
	size := fmt.Sprintf(" · %d blocks · ~%d tok", len(t.Blocks), t.ApproxTokens())
	switch {
	case r.File != nil:
		kind := "saved payload"
		switch {
		case r.File.Kind == session.PayloadTurn:
			kind = "turn snapshot"
		case !r.File.Valid:
			kind = "saved payload (cut: not JSON)"
		}
		return sanitize.Line(kind+" "+filepath.Base(r.File.Path)) + size
	case r.Preset != nil:
		return sanitize.Line("preset "+r.PresetID+" at "+r.Session.Entries[r.Index].ID) + size
	case r.Request != nil:
		e := &r.Session.Entries[r.Index]
		what := "next request from " + e.ID
		if r.Request.ForAssistant {
			what = "request for " + e.ID
		}
		if r.Request.Model != "" {
			what += " (" + r.Request.Model + ")"
		}
		if len(e.Timestamp) >= 16 {
			what += " " + strings.Replace(e.Timestamp[:16], "T", " ", 1)
		}
		return sanitize.Line(what) + size
	}
	return sanitize.Line(r.Ref.Raw)
}
