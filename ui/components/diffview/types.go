package diffview

import (
	"fmt"

	"github.com/forgebench/forgebench/i18n"
)

// Status is how a request block changed between the two sides of a diff,
// as pi-forge's diffTurns names it.
type Status uint8

// The four block statuses of diffTurns.
const (
	// StatusSame: the block's hash is equal on both sides.
	StatusSame Status = iota
	// StatusModified: the block exists on both sides with different text.
	StatusModified
	// StatusAdded: the block exists only on the after side.
	StatusAdded
	// StatusRemoved: the block exists only on the before side.
	StatusRemoved
)

// String is the status as diffTurns spells it ("same", "modified", "added",
// "removed").
func (s Status) String() string {
	switch s {
	case StatusSame:
		return i18n.Mark("same")
	case StatusModified:
		return i18n.Mark("modified")
	case StatusAdded:
		return i18n.Mark("added")
	case StatusRemoved:
		return i18n.Mark("removed")
	}
	return fmt.Sprintf("status(%d)", uint8(s)) //i18n:raw an impossible value's debug name
}

// Label is the status as a caption shows it, in the run's language.
func (s Status) Label() string { return i18n.T(s.String()) }

// Glyph is the one-cell sign that shows the status without colour (NO_COLOR
// terminals, screen readers, copied text): "=" same, "~" modified, "+" added,
// "-" removed.
func (s Status) Glyph() string {
	switch s {
	case StatusModified:
		return "~"
	case StatusAdded:
		return "+"
	case StatusRemoved:
		return "-"
	}
	return "="
}

// ParseStatus reads a diffTurns status string; it is what an adapter from
// the engine's JSON-shaped result calls for each block.
func ParseStatus(s string) (Status, error) {
	switch s {
	case "same":
		return StatusSame, nil
	case "modified":
		return StatusModified, nil
	case "added":
		return StatusAdded, nil
	case "removed":
		return StatusRemoved, nil
	}
	return StatusSame, i18n.Errorf("diffview: unknown block status %q (want same, modified, added or removed)", s)
}

// Block is one request block of a diff: a system prompt, a message or a
// request field, with its text on both sides. An added block has an empty
// Before, a removed block an empty After.
type Block struct {
	// Key identifies the block across the two requests (diffTurns' block
	// key, e.g. "system" or "message-user-1a2b3c4d").
	Key string
	// Label is the human name shown in the list; Key is shown when empty.
	Label string
	// Role is the block's role ("system", "user", "assistant", "tool", …).
	Role string
	// Status is how the block changed.
	Status Status
	// Before and After are the block's text on each side, raw (the view
	// cleans each line for the screen itself).
	Before, After string
	// BeforeTokens and AfterTokens are the approximate token counts of each
	// side (0 for the missing side of an added or removed block).
	BeforeTokens, AfterTokens int
	// TokenDelta is the block's share of the request's token delta, as
	// diffTurns distributes it.
	TokenDelta int
	// Fields is set when a modified block reads the same on both sides:
	// Before and After then hold the request fields behind the text (its
	// wire JSON), where the change is.
	Fields bool
}

// Name is the text the list shows for the block: Label, or Key when the
// label is empty.
func (b Block) Name() string {
	if b.Label != "" {
		return b.Label
	}
	return b.Key
}

// Totals are the request-level figures of a diff (diffTurns' prefixTokens,
// prefixRatio, deltaTokens and summary).
type Totals struct {
	// PrefixTokens is the estimated size of the cached prefix.
	PrefixTokens int
	// PrefixRatio is PrefixTokens over the after request's tokens (0..1).
	PrefixRatio float64
	// DeltaTokens is after tokens minus before tokens.
	DeltaTokens int
	// AddedTokens and RemovedTokens split the change (summary.addedTokens
	// and summary.removedTokens).
	AddedTokens, RemovedTokens int
	// Same, Modified, Added and Removed count blocks by status.
	Same, Modified, Added, Removed int
}

// NoBoundary is the Diff.Boundary value of a diff that draws no cache
// boundary rule.
const NoBoundary = -1

// Diff is everything the block list draws: the aligned blocks, where the
// cached prefix ends, and the totals.
type Diff struct {
	// Blocks are in request order (removed blocks where diffTurns aligned
	// them).
	Blocks []Block
	// Boundary is the index of the first block after the cached prefix: the
	// rule is drawn just above Blocks[Boundary]. 0 means nothing is cached,
	// len(Blocks) means the whole request is (the rule closes the list),
	// NoBoundary draws no rule. FirstChange gives the usual value.
	Boundary int
	// Totals is the footer's figures; Summarize fills the counts when the
	// caller has no engine summary.
	Totals Totals
}

// FirstChange is the index of the first block whose status is not same, or
// len(blocks) when every block is same: the cache boundary of a diffTurns
// result, whose prefix walk stops at the first block that differs.
func FirstChange(blocks []Block) int {
	for i, b := range blocks {
		if b.Status != StatusSame {
			return i
		}
	}
	return len(blocks)
}

// Summarize counts blocks by status and sums their token changes, for
// callers (tests, draft previews) that have blocks but no diffTurns summary.
// PrefixTokens and PrefixRatio are left zero: only the engine knows them.
func Summarize(blocks []Block) Totals {
	var t Totals
	for _, b := range blocks {
		switch b.Status {
		case StatusSame:
			t.Same++
		case StatusModified:
			t.Modified++
		case StatusAdded:
			t.Added++
		case StatusRemoved:
			t.Removed++
		}
		if b.TokenDelta > 0 {
			t.AddedTokens += b.TokenDelta
		} else {
			t.RemovedTokens -= b.TokenDelta
		}
		t.DeltaTokens += b.TokenDelta
	}
	return t
}
