package draft

import "github.com/forgebench/forgebench/engine/jsonv"

// historyDepth is how many earlier trees undo keeps.
const historyDepth = 100

// step is one tree in the history and the edit that left it.
type step struct {
	tree  *jsonv.Object
	label string
}

// history is the undo and redo stacks of a draft. Trees are immutable, so
// a step is just the tree as it was: undo swaps it back in whole.
type history struct {
	undo, redo []step
	// last is the label of the latest edit; a coalescing edit with the
	// same label joins it (typing in one field undoes in one step).
	last string
}

// record remembers tree (the one an edit is replacing). A coalescing edit
// with the label of the previous one adds no step. Any edit clears redo.
func (h *history) record(tree *jsonv.Object, label string, coalesce bool) {
	h.redo = nil
	if coalesce && label != "" && label == h.last && len(h.undo) > 0 {
		return
	}
	h.last = label
	h.undo = pushBounded(h.undo, step{tree: tree, label: label})
}

// back returns the tree before the latest edit and remembers current for
// redo; ok is false when there is nothing to undo.
func (h *history) back(current *jsonv.Object) (step, bool) {
	return h.shift(&h.undo, &h.redo, current)
}

// forward returns the tree an undo went back from and remembers current
// for undo; ok is false when there is nothing to redo.
func (h *history) forward(current *jsonv.Object) (step, bool) {
	return h.shift(&h.redo, &h.undo, current)
}

// shift takes the latest step of from and puts current, under the same
// label, on to.
func (h *history) shift(from, to *[]step, current *jsonv.Object) (step, bool) {
	if len(*from) == 0 {
		return step{}, false
	}
	s := (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	*to = pushBounded(*to, step{tree: current, label: s.label})
	h.last = ""
	return s, true
}

// breakRun ends a run of coalescing edits, so the next one is a step of
// its own (after a save, say).
func (h *history) breakRun() { h.last = "" }

// pushBounded appends s, dropping the oldest steps beyond historyDepth.
func pushBounded(steps []step, s step) []step {
	steps = append(steps, s)
	if len(steps) > historyDepth {
		steps = append([]step(nil), steps[len(steps)-historyDepth:]...)
	}
	return steps
}
