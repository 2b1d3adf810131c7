package capstate

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/session"
)

// AbandonedWrite is one batch of entries forgebench appended (one command)
// that no longer lies on the session's active branch: the session went on
// from another entry — typically a Pi that still held the session in
// memory and chained its next message from its own leaf — so the batch's
// changes are not in force on the branch Pi continues.
type AbandonedWrite struct {
	// IDs are the batch's entry ids, in file order.
	IDs []string
	// ParentID is the entry the batch was appended after.
	ParentID string
	// Timestamp is the first entry's timestamp.
	Timestamp string
}

// AbandonedWrites finds the entries forgebench appended (their ids carry
// its mark: session.WrittenByForgebench) that are off the active branch —
// the path from the last entry in file order, where Pi resumes — grouped
// into the batches they were written in (consecutive lines, each the
// child of the one before). Only the types forgebench appends (custom,
// label, session_info) are considered. One pass over the entries.
func AbandonedWrites(s *session.Session) []AbandonedWrite {
	leaf := s.LeafIndex()
	if leaf < 0 {
		return nil
	}
	var onBranch []bool
	var out []AbandonedWrite
	last := -2 // index of the previous entry of the open batch
	for i := range s.Entries {
		e := &s.Entries[i]
		switch e.Type {
		case session.TypeCustom, session.TypeLabel, session.TypeSessionInfo:
		default:
			continue
		}
		if !session.WrittenByForgebench(e) {
			continue
		}
		if onBranch == nil {
			onBranch = make([]bool, len(s.Entries))
			for _, k := range s.PathTo(leaf) {
				onBranch[k] = true
			}
		}
		if onBranch[i] {
			continue
		}
		if n := len(out); n > 0 && last == i-1 && e.ParentID == out[n-1].IDs[len(out[n-1].IDs)-1] {
			out[n-1].IDs = append(out[n-1].IDs, e.ID)
		} else {
			out = append(out, AbandonedWrite{IDs: []string{e.ID}, ParentID: e.ParentID, Timestamp: e.Timestamp})
		}
		last = i
	}
	return out
}

// AbandonedNote says, one line per batch, which entries forgebench wrote
// now sit on an abandoned branch and what that means; "" when none.
func AbandonedNote(list []AbandonedWrite) string {
	var b strings.Builder
	for _, w := range list {
		ids := w.IDs[0]
		if len(w.IDs) > 1 {
			ids += " … " + w.IDs[len(w.IDs)-1]
		}
		when := ""
		if w.Timestamp != "" {
			when = " at " + w.Timestamp
		}
		parent := w.ParentID
		if parent == "" {
			parent = "(root)"
		}
		fmt.Fprintf(&b, "forgebench: %d %s forgebench appended%s (%s, after %s) %s on an abandoned branch: the session went on from another entry — a Pi that held the session in memory continues from its own leaf — so %s no effect on the current branch; run the command again to apply it there.\n",
			len(w.IDs), plural(len(w.IDs), "entry", "entries"), when, ids, parent, plural(len(w.IDs), "is", "are"), plural(len(w.IDs), "it has", "they have"))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
