package diffview

import (
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// lineOp is a run of whole lines (each keeping its "\n") that both sides
// share, or that only the before or only the after side has.
type lineOp struct {
	kind  LineKind
	lines []string
}

// diffTimeout bounds one line diff; past it diff-match-patch returns a
// correct but coarser diff. NewLineDiff runs in a tea.Cmd, so a second is
// the most a pathological block can hold up its own view.
const diffTimeout = time.Second

// maxDiffLines is the most lines (both sides together) the line diff
// encodes: diff-match-patch maps each distinct line to one rune and
// panics past 1,112,060 of them. Bigger texts show as all removed, all
// added.
const maxDiffLines = 1_000_000

// diffLines computes the line runs of before → after with diff-match-patch
// in line mode: each distinct line becomes one rune, the runes are diffed
// (Myers' bisection with common prefix and suffix trimmed first), and the
// runs are turned back into lines. Within a change, removed lines come
// before added ones.
func diffLines(before, after string) []lineOp {
	switch {
	case before == after:
		return []lineOp{{LineEqual, splitKeepingEnds(before)}}
	case strings.Count(before, "\n")+strings.Count(after, "\n")+2 > maxDiffLines:
		return []lineOp{{LineDelete, splitKeepingEnds(before)}, {LineInsert, splitKeepingEnds(after)}}
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	runes1, runes2, lineArray := dmp.DiffLinesToRunes(before, after)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(runes1, runes2, false), lineArray)
	ops := make([]lineOp, 0, len(diffs))
	var ins []string // added lines held back until the change's removals are out
	flush := func() {
		if len(ins) > 0 {
			ops = append(ops, lineOp{LineInsert, ins})
			ins = nil
		}
	}
	for _, df := range diffs {
		lines := splitKeepingEnds(df.Text)
		switch df.Type {
		case diffmatchpatch.DiffEqual:
			flush()
			ops = append(ops, lineOp{LineEqual, lines})
		case diffmatchpatch.DiffDelete:
			ops = append(ops, lineOp{LineDelete, lines})
		case diffmatchpatch.DiffInsert:
			ins = append(ins, lines...)
		}
	}
	flush()
	return ops
}
