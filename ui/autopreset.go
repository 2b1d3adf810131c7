package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/services"
)

// What pi-forge activates where a session's branch records no Preset
// selection (spec pi-forge-formats §11.3, §14.2; pi-forge 0.5.1's
// lifecycle): a session that is started fresh at that entry gets the
// auto-activating agent profile's Preset, else the auto-activating
// Preset (Library.FreshSessionPreset); a session resumed there, or
// reached by tree navigation, never re-applies a profile and gets the
// auto-activating Preset alone (Library.AutoActivatePreset); an
// untrusted project gets none. The header shows that choice marked
// "(auto)", apart from a selection the branch records (▶).

// autoPresets are the keys of the Presets pi-forge would activate with
// nothing recorded ("" = none), once the library has been read.
type autoPresets struct {
	loaded bool
	// fresh is for a branch a fresh session would hold, resume for any
	// other.
	fresh, resume string
}

// at is the auto-activated Preset's key for a selection's branch.
func (a autoPresets) at(freshBranch bool) string {
	if freshBranch {
		return a.fresh
	}
	return a.resume
}

// autoPresetsMsg carries the library's auto-activation choices.
type autoPresetsMsg struct{ auto autoPresets }

// loadAutoPresetsCmd reads the preset library again to learn what
// pi-forge would auto-activate (at start, and after a panel changed the
// library).
func loadAutoPresetsCmd(svc *services.Services) tea.Cmd {
	ws := svc.Workspace()
	return func() tea.Msg {
		auto := autoPresets{loaded: true}
		lib, err := svc.Reload()
		if err != nil || !ws.Trust.Trusted {
			return autoPresetsMsg{auto: auto} // none: pi-forge applies nothing it cannot read or trust
		}
		if p, _ := lib.FreshSessionPreset(); p != nil {
			auto.fresh = p.Key()
		}
		if p := lib.AutoActivatePreset(); p != nil {
			auto.resume = p.Key()
		}
		return autoPresetsMsg{auto: auto}
	}
}
