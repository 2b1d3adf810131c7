package capabilities

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
)

// > on a session card is pi-forge's Locate (the web editor's Current
// session): the Payloads panel opens the request at the followed entry —
// compared with the one before it on the branch — with its block cursor
// on the update block the card's capability produced there, found by the
// system prompt section that carries the capability's text
// (capability.SectionPrefix + the activation id, in a native System
// message or in the fallback update message alike). A tool-only
// capability sends no text, so it has nothing to locate (pi-forge hides
// Locate for it).

// locateIntent asks to locate the card under the session view's cursor.
type locateIntent struct{}

func (locateIntent) isIntent() {}

// locateSelected jumps to the update block of the card under the cursor.
func (m *Model) locateSelected() tea.Cmd {
	v := &m.view
	a, ok := v.selectedActive()
	if !ok || v.sess == nil {
		return nil
	}
	if jsonv.TrimJS(a.Snapshot.Content) == "" {
		m.setStatus("a tool-only capability sends no text: it has no update block to locate", true)
		return nil
	}
	idx, ok := v.sess.IndexOf(v.state.ID)
	if !ok {
		m.setStatus("the entry "+sanitize.Line(v.state.ID)+" is not in the session as read: reload (r)", true)
		return nil
	}
	this := replay.Ref{Kind: replay.RefSession, Path: v.file, Entry: v.state.ID}.String()
	refs := [2]string{this, this} // no request before it: the request against itself
	if prev := replay.PreviousRequest(v.sess, idx); prev >= 0 {
		refs[0] = replay.Ref{Kind: replay.RefSession, Path: v.file, Entry: v.sess.Entries[prev].ID}.String()
	}
	return m.com.Jump(common.JumpTarget{Panel: common.PanelPayloads, CompareRefs: refs,
		LocateText: capability.SectionPrefix + a.Snapshot.ActivationID})
}
