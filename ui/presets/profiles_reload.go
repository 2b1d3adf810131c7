package presets

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
)

// newProfileDraft is a draft of p as its file reads now.
func newProfileDraft(p *resources.Profile) *profileDraft {
	tree := jsonv.NewObject()
	if v, err := jsonv.Parse(p.Raw); err == nil {
		if obj, ok := v.(*jsonv.Object); ok {
			tree = obj
		}
	}
	if len(tree.Keys()) == 0 {
		tree = profile.ToJSON(p.Profile)
	}
	d := &profileDraft{p: p, revision: p.SourceRevision, tree: tree, baseline: tree}
	d.check()
	return d
}

// followProfileFile takes the library's entry for the draft's file: a
// draft without edits whose file changed on disk is read again (its form
// with it), so it never saves against a revision that is gone; an edited
// draft is kept, and its save meets the conflict.
func (v *profilesView) followProfileFile(p *resources.Profile) intent {
	if p.SourceRevision == v.prof.revision || v.prof.dirty() {
		var note intent
		if p.SourceRevision != v.prof.p.SourceRevision && p.SourceRevision != v.prof.revision {
			note = statusIntent{i18n.T("%s changed on disk; your profile draft is kept — %s reloads it (dropping the draft), %s shows the difference and offers overwrite or fork",
				p.Key(), v.keys.Reload.Help().Key, v.keys.Save.Help().Key), true}
		}
		v.prof.p = p // the snapshot's entry; the draft keeps its revision
		return note
	}
	v.prof = newProfileDraft(p)
	if v.profForm != nil {
		v.rebuildProfileForm()
	}
	return nil
}

// reloadProfiles is r in the Profiles view: the library is read again and
// the profile draft dropped, after asking when it has edits.
func (m *Model) reloadProfiles() tea.Cmd {
	if m.prof == nil || !m.prof.dirty() {
		return m.dropProfileDraft("")
	}
	m.openDialog(newConfirm(m, i18n.T("Reload from disk?"), i18n.T("Reloading discards the unsaved changes to profile %s; answer %s, then %s, to keep them.",
		m.prof.p.Key(), m.keys.Cancel.Help().Key, m.keys.Save.Help().Key), (*Model).dropProfileDraft))

	return nil
}

// dropProfileDraft drops the profile draft and reloads the library (after
// asking about an edited Preset draft).
func (m *Model) dropProfileDraft(_ string) tea.Cmd {
	m.prof, m.profForm, m.profFocus = nil, nil, false
	return m.confirmDiscard(i18n.T("Reload from disk?"), m.reload)
}
