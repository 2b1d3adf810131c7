package replay

import (
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/session"
)

// PresetLookup resolves a Preset selector to its scoped key and tool
// policy (ok false when it does not resolve).
type PresetLookup func(selector string) (key string, policy *preset.ResourcePolicy, ok bool)

// ProfileStatus is a session's agent-profile status at an entry (pi-forge's
// /profile status, §11.4): the runtime there and, when a profile was
// applied on the branch, its provenance, source state and drift. The CLI's
// profile status and the Profiles view show it.
type ProfileStatus struct {
	SessionID, EntryID string
	Current            profile.Current
	// Last is nil when no profile was applied on the branch (or the last
	// provenance was forgotten); LastEntry is the entry that says so.
	Last      *profile.Status
	LastEntry string
}

// ProfileStatusAt computes the status at the entry with index of s: the
// model and thinking level in force, the active Preset (resolved with
// lookup), the tools the session recorded, and the last provenance entry
// compared with the profiles of cat now.
func ProfileStatusAt(s *session.Session, index int, cat *profile.Catalog, lookup PresetLookup) ProfileStatus {
	out := ProfileStatus{SessionID: s.Header.ID}
	if index < 0 || index >= len(s.Entries) {
		return out
	}
	out.EntryID = s.Entries[index].ID
	rt := RuntimeStateAt(s, index)
	cur := profile.Current{ThinkingLevel: rt.ThinkingLevel}
	if rt.Provider != "" || rt.Model != "" {
		cur.Model = &profile.Model{Provider: rt.Provider, ID: rt.Model}
	}
	if rt.Preset.Choice == PresetSelected {
		key := rt.Preset.Selector
		if k, _, ok := lookup(key); ok {
			key = k
		}
		cur.PromptStack = &key
	}
	if rc, err := RunContextAt(s, index, nil, time.Local, nil); err == nil && rc.FromSession {
		cur.Tools, cur.ToolsKnown = rc.Runtime.Options.SelectedTools, true
	}
	out.Current = cur
	st := ProfileStateAt(s, index)
	out.LastEntry = st.EntryID
	prov, ok := profile.ParseProvenance(st.Provenance)
	if !ok {
		return out
	}
	var expected []string
	if prov.PromptStack == nil {
		expected = compile.FreshSessionTools(nil).Tools
	} else if _, policy, ok := lookup(*prov.PromptStack); ok {
		expected = compile.FreshSessionTools(policy).Tools
	}
	status := profile.RuntimeStatus(cat, prov, cur, expected)
	out.Last = &status
	return out
}
