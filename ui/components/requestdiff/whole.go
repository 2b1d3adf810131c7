package requestdiff

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/diffview"
)

// Whole is what y copies, v shows and o pages in the view (docs/KEYS.md):
// in the block list the selected block — a line of its figures, then its
// text as the later request (B) has it, as the earlier one (A) had it when
// it was removed; in the line diff that block's diff as unified text in
// the view's context mode, every line whole. head comes first (the
// panel's lines above the view: which requests, the cause, the cache).
func (m *Model) Whole(head string) (common.Whole, bool) {
	b, row, ok := m.Selected()
	if !ok {
		return common.Whole{}, false
	}
	name := b.Name()
	figures := i18n.T("block %d/%d %s · %s · %s · %s → %s tok · Δ %+d", row+1, len(m.diff.Blocks), name, b.Status.Label(), b.Role,
		tokens(b.BeforeTokens, b.Status == diffview.StatusAdded), tokens(b.AfterTokens, b.Status == diffview.StatusRemoved), b.TokenDelta)
	prefix := head
	if prefix != "" && !strings.HasSuffix(prefix, "\n") {
		prefix += "\n"
	}
	if prefix != "" {
		prefix += "\n"
	}
	if m.focus == Lines {
		ctx := m.lines.Context()
		before, after := b.Before, b.After
		return common.Whole{Title: i18n.T("the line diff of %s", name), Load: func() (string, error) {
			return prefix + figures + i18n.T(" · context %s", ctx.Label()) + "\n\n" + diffview.NewLineDiff(before, after).Unified(ctx), nil
		}}, true
	}
	text, side := b.After, "B"
	if b.Status == diffview.StatusRemoved {
		text, side = b.Before, "A"
	}
	return common.Whole{Title: i18n.T("block %s", name), Text: prefix + figures + "\n\n" + i18n.T("── as %s has it ──", side) + "\n" + text}, true
}

// tokens is a side's token count, "–" for the side without the block.
func tokens(n int, missing bool) string {
	if missing {
		return "–"
	}
	return fmt.Sprint(n)
}
