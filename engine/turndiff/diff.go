package turndiff

// Block statuses of a diff.
const (
	StatusSame     = "same"
	StatusAdded    = "added"
	StatusRemoved  = "removed"
	StatusModified = "modified"
)

// DiffBlock is one aligned pair of blocks (pi-forge's DiffBlock). Before is
// nil for an added block, After nil for a removed one.
type DiffBlock struct {
	Status     string
	Before     *Block
	After      *Block
	TokenDelta int
}

// Summary counts a diff (pi-forge's TurnDiffSummary).
type Summary struct {
	SameBlocks, AddedBlocks, RemovedBlocks, ModifiedBlocks, ChangedBlocks int
	// AddedTokens and RemovedTokens split the block token deltas by sign;
	// NetTokens is the request-level delta.
	AddedTokens, RemovedTokens, NetTokens int
}

// Diff is the comparison of two turns (pi-forge's TurnDiff) plus where the
// cache boundary falls, for drawing it.
type Diff struct {
	Blocks       []DiffBlock
	PrefixTokens int
	PrefixRatio  float64
	DeltaTokens  int
	Summary      Summary

	// Boundary is the position in the current turn's blocks of the first
	// block whose hash differs from the previous turn's block at the same
	// position; -1 when every position matches (no boundary).
	Boundary int
	// BoundaryRow is the index in Blocks before which the boundary falls
	// (len(Blocks) when it falls after the last row; -1 without a boundary).
	BoundaryRow int
	// PrefixChars is the cached prefix in UTF-16 code units.
	PrefixChars int
	// HasPrevious is false when the diff was computed without a previous
	// turn (every block added).
	HasPrevious bool
}

type pair struct{ before, after *Block }

// DiffTurns is pi-forge's diffTurns(previous, current). previous may be nil
// (no previous turn: every block is added and nothing is cached).
func DiffTurns(previous *Turn, current *Turn) Diff {
	var beforeBlocks []Block
	if previous != nil {
		beforeBlocks = previous.Blocks
	}
	afterBlocks := current.Blocks
	aligned := alignBlocks(beforeBlocks, afterBlocks)
	d := Diff{Blocks: make([]DiffBlock, len(aligned)), Boundary: -1, BoundaryRow: -1, HasPrevious: previous != nil}
	for i, p := range aligned {
		d.Blocks[i] = classify(p.before, p.after)
	}

	prefixChars := 0
	crossed := false
	n := max(len(beforeBlocks), len(afterBlocks))
	for i := 0; i < n; i++ {
		var before, after *Block
		if i < len(beforeBlocks) {
			before = &beforeBlocks[i]
		}
		if i < len(afterBlocks) {
			after = &afterBlocks[i]
		}
		if before != nil && after != nil && before.Hash == after.Hash {
			prefixChars += after.Chars
			continue
		}
		if before != nil && after != nil {
			prefixChars += safeCommonPrefix(before, after)
		}
		crossed = true
		d.Boundary = i
		break
	}
	d.PrefixChars = prefixChars
	if crossed {
		d.BoundaryRow = boundaryRow(d.Blocks, afterBlocks, beforeBlocks, d.Boundary)
	}

	currentTokens := current.ApproxTokens()
	previousTokens := 0
	if previous != nil {
		previousTokens = previous.ApproxTokens()
	}
	currentChars := current.Chars()
	if !crossed || prefixChars >= currentChars {
		d.PrefixTokens = currentTokens
	} else {
		d.PrefixTokens = min(currentTokens, prefixChars/4)
	}
	d.DeltaTokens = currentTokens - previousTokens
	assignTokenDeltas(d.Blocks, d.DeltaTokens)
	if currentTokens != 0 {
		d.PrefixRatio = float64(d.PrefixTokens) / float64(currentTokens)
	}
	d.Summary = summarize(d.Blocks, d.DeltaTokens)
	return d
}

// boundaryRow finds the diff row showing the block at position pos of the
// current turn (or, past its end, of the previous turn).
func boundaryRow(rows []DiffBlock, after, before []Block, pos int) int {
	if pos < len(after) {
		for i := range rows {
			if rows[i].After == &after[pos] {
				return i
			}
		}
	} else if pos < len(before) {
		for i := range rows {
			if rows[i].Before == &before[pos] {
				return i
			}
		}
	}
	return len(rows)
}

// safeCommonPrefix counts the shared leading characters of two blocks whose
// hashes differ: none when the roles differ or the texts are equal (the
// difference is then in metadata the text does not show).
func safeCommonPrefix(before, after *Block) int {
	if before.Role != after.Role || before.Text == after.Text {
		return 0
	}
	return commonPrefixUnits(before.Text, after.Text)
}

func classify(before, after *Block) DiffBlock {
	switch {
	case before != nil && after != nil:
		if before.Hash == after.Hash {
			return DiffBlock{Status: StatusSame, Before: before, After: after}
		}
		return DiffBlock{Status: StatusModified, Before: before, After: after}
	case before != nil:
		return DiffBlock{Status: StatusRemoved, Before: before}
	}
	return DiffBlock{Status: StatusAdded, After: after}
}

func hasUniqueStableKeys(blocks []Block) bool {
	seen := make(map[string]struct{}, len(blocks))
	for i := range blocks {
		k := blocks[i].Key
		if k == "" {
			return false
		}
		if _, dup := seen[k]; dup {
			return false
		}
		seen[k] = struct{}{}
	}
	return true
}

// alignBlocks pairs blocks by key when both sides have unique non-empty
// keys and share at least one (keyed anchors in order, positional fill
// between them), otherwise by position.
func alignBlocks(before, after []Block) []pair {
	useKeys := hasUniqueStableKeys(before) && hasUniqueStableKeys(after)
	var beforeIndex map[string]int
	if useKeys {
		beforeIndex = make(map[string]int, len(before))
		for i := range before {
			beforeIndex[before[i].Key] = i
		}
		shared := false
		for i := range after {
			if _, ok := beforeIndex[after[i].Key]; ok {
				shared = true
				break
			}
		}
		useKeys = shared
	}
	if !useKeys {
		return alignPositional(nil, before, after)
	}
	out := make([]pair, 0, max(len(before), len(after)))
	bc, ac := 0, 0
	for ai := range after {
		bi, ok := beforeIndex[after[ai].Key]
		if !ok || bi < bc {
			continue
		}
		out = alignPositional(out, before[bc:bi], after[ac:ai])
		out = append(out, pair{&before[bi], &after[ai]})
		bc, ac = bi+1, ai+1
	}
	return alignPositional(out, before[bc:], after[ac:])
}

func alignPositional(out []pair, before, after []Block) []pair {
	n := max(len(before), len(after))
	for i := 0; i < n; i++ {
		var p pair
		if i < len(before) {
			p.before = &before[i]
		}
		if i < len(after) {
			p.after = &after[i]
		}
		out = append(out, p)
	}
	return out
}

// assignTokenDeltas spreads the request-level delta over the changed
// blocks: trunc(charDelta/4) each, the remainder one token at a time.
func assignTokenDeltas(blocks []DiffBlock, deltaTokens int) {
	type candidate struct {
		block     *DiffBlock
		charDelta int
	}
	var candidates []candidate
	for i := range blocks {
		b := &blocks[i]
		delta := 0
		if b.After != nil {
			delta += b.After.Chars
		}
		if b.Before != nil {
			delta -= b.Before.Chars
		}
		if b.Status != StatusSame && delta != 0 {
			candidates = append(candidates, candidate{b, delta})
		}
	}
	if len(candidates) == 0 {
		return
	}
	allocated := 0
	for _, c := range candidates {
		c.block.TokenDelta = c.charDelta / 4 // Go's / truncates like Math.trunc
		allocated += c.block.TokenDelta
	}
	remainder := deltaTokens - allocated
	if remainder == 0 {
		return
	}
	direction := 1
	if remainder < 0 {
		direction = -1
	}
	var targets []candidate
	for _, c := range candidates {
		if direction > 0 && c.charDelta > 0 || direction < 0 && c.charDelta < 0 {
			targets = append(targets, c)
		}
	}
	if len(targets) == 0 {
		targets = candidates
	}
	abs := remainder
	if abs < 0 {
		abs = -abs
	}
	if whole := abs / len(targets); whole > 0 {
		for _, t := range targets {
			t.block.TokenDelta += direction * whole
		}
		remainder -= direction * whole * len(targets)
	}
	for i := 0; remainder != 0; i++ {
		targets[i%len(targets)].block.TokenDelta += direction
		remainder -= direction
	}
}

func summarize(blocks []DiffBlock, netTokens int) Summary {
	var s Summary
	for i := range blocks {
		b := &blocks[i]
		switch b.Status {
		case StatusSame:
			s.SameBlocks++
			continue
		case StatusAdded:
			s.AddedBlocks++
		case StatusRemoved:
			s.RemovedBlocks++
		case StatusModified:
			s.ModifiedBlocks++
			if b.TokenDelta > 0 {
				s.AddedTokens += b.TokenDelta
			} else {
				s.RemovedTokens -= b.TokenDelta
			}
			continue
		}
		if b.TokenDelta > 0 {
			s.AddedTokens += b.TokenDelta
		}
		if b.TokenDelta < 0 {
			s.RemovedTokens -= b.TokenDelta
		}
	}
	s.ChangedBlocks = s.AddedBlocks + s.RemovedBlocks + s.ModifiedBlocks
	s.NetTokens = netTokens
	return s
}
