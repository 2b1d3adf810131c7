package presets

import (
	"errors"
	"os"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/ui/components/diffview"
)

// A profile save refused because its file changed on disk opens the
// Preset's conflict dialog (conflict.go): the difference between the file
// and what the save would write, overwrite against the revision now on
// disk, fork the draft, or reload (dropping it).

// readProfileConflictCmd reads the profile file again and diffs it with
// the bytes the draft would be saved as.
func readProfileConflictCmd(key, path string, draftBytes []byte) tea.Cmd {
	return func() tea.Msg {
		raw, err := regfile.Read(path, 0)
		if errors.Is(err, os.ErrNotExist) {
			return conflictReadMsg{key: key, gone: true, profile: true, diff: diffview.NewLineDiff("", string(draftBytes))}
		}
		if err != nil {
			return conflictReadMsg{key: key, profile: true, err: wrapText(err, i18n.T("read %s: %v", path, err))}
		}
		return conflictReadMsg{key: key, profile: true, revision: fingerprint.SourceRevision(raw),
			diff: diffview.NewLineDiff(string(raw), string(draftBytes))}
	}
}

// profileConflictCmd starts the dialog for the profile draft's refused save.
func (v *profilesView) profileConflictCmd() tea.Cmd {
	if v.prof == nil {
		return nil
	}
	prof, _ := profile.ParseValue(v.prof.tree, v.prof.p.ID)
	return readProfileConflictCmd(v.prof.p.Key(), v.prof.p.Path, profile.Serialize(prof))
}

// answerProfileConflict acts on overwrite, fork or reload for the profile
// draft.
func (m *Model) answerProfileConflict(c *conflictDialog, msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if m.prof == nil || m.prof.p.Key() != c.key {
		return nil
	}
	switch {
	case key.Matches(msg, k.Overwrite) && !c.gone:
		m.prof.revision = c.revision // the user saw the difference: save over it
		return m.run(m.profilesView.saveProfile())
	case key.Matches(msg, k.Fork):
		return m.promptForkProfile(m.prof.p)
	case key.Matches(msg, k.Reload):
		return m.dropProfileDraft("")
	}
	return nil
}
