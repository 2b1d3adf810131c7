package sessions

import (
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// presetMemo answers, for the open session, which Preset selection the
// branch records at an entry (replay.ActivePresetAt) without walking the
// branch on every cursor move: that walk cost ~10 ms a key on a 180,000
// entry session (issue 21's budget is 2 ms of Update a key). For every
// entry it remembers the newest pi-forge Preset-state entry on its branch,
// itself included; a lookup walks up only to the first entry it already
// knows and fills in what it passed, so the first announce after a load
// walks the branch once and moving along it afterwards costs a step.
// The tree's parent links are the ones PathTo follows (cycles cut at the
// same entry), so the answer is ActivePresetAt's.
type presetMemo struct {
	ls *loadedSession
	// at maps an entry index to the index of the newest Preset-state
	// entry on its branch (-1: none; unknown: not looked up yet).
	at   []int32
	path []int32 // the walk's scratch
}

const presetUnknown = -2

// activeAt is replay.ActivePresetAt(ls.sess, idx), remembered.
func (p *presetMemo) activeAt(ls *loadedSession, idx int) replay.ActivePreset {
	n := len(ls.sess.Entries)
	if idx < 0 || idx >= n || ls.tree == nil || len(ls.tree.Parent) != n {
		return replay.ActivePresetAt(ls.sess, idx)
	}
	if p.ls != ls {
		p.ls, p.at = ls, make([]int32, n)
		for i := range p.at {
			p.at[i] = presetUnknown
		}
	}
	found := int32(-1)
	p.path = p.path[:0]
	for cur, steps := idx, 0; cur >= 0 && steps <= n; steps++ {
		if known := p.at[cur]; known != presetUnknown {
			found = known
			break
		}
		if isPresetState(&ls.sess.Entries[cur]) {
			found = int32(cur)
			break
		}
		p.path = append(p.path, int32(cur))
		cur = int(ls.tree.Parent[cur])
	}
	for _, i := range p.path {
		p.at[i] = found
	}
	if found >= 0 {
		p.at[found] = found
		_, data, _ := ls.sess.Entries[found].CustomPayload()
		return replay.DecodePresetState(data)
	}
	return replay.ActivePreset{}
}

// isPresetState reports whether e is pi-forge's record of the Preset
// selection (a custom entry of replay.PresetStateType).
func isPresetState(e *session.Entry) bool {
	if e.Type != session.TypeCustom {
		return false
	}
	customType, _, ok := e.CustomPayload()
	return ok && customType == replay.PresetStateType
}
