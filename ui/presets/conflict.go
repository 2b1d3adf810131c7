package presets

import (
	"errors"
	"os"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/diffview"
	"github.com/forgebench/forgebench/ui/components/draft"
)

// A save refused because the file changed on disk (a Preset's, or a
// profile's: profiles_conflict.go) opens the conflict dialog: show the difference (the file on disk against the draft, as
// lines), overwrite (a save against the revision now on disk, still
// guarded), fork the draft to a new id, or reload (dropping the draft).
// Esc keeps the draft and the file as they are.

// dialogConflict is the kind of the save-conflict dialog.
const dialogConflict dialogKind = "conflict"

// conflictDialog is what the dialog knows of the file on disk.
type conflictDialog struct {
	key      string
	revision string // of the bytes read now ("" when the file is gone)
	gone     bool
	diff     *diffview.LineDiff
	view     diffview.LineView
	showDiff bool
	// profile marks the conflict of the profile draft (the Profiles view).
	profile bool
}

// conflictReadMsg carries the file on disk read after a refused save, and
// its line diff against the draft (computed in the command).
type conflictReadMsg struct {
	key      string
	revision string
	gone     bool
	diff     *diffview.LineDiff
	err      error
	profile  bool
}

// readConflictCmd reads the Preset file again and diffs it with the draft.
func readConflictCmd(key, path string, snap draft.Snapshot) tea.Cmd {
	return func() tea.Msg {
		raw, err := regfile.Read(path, 0)
		if errors.Is(err, os.ErrNotExist) {
			return conflictReadMsg{key: key, gone: true, diff: diffview.NewLineDiff("", string(resources.PresetTreeBytes(snap.Tree)))}
		}
		if err != nil {
			return conflictReadMsg{key: key, err: wrapText(err, i18n.T("read %s: %v", path, err))}
		}
		return conflictReadMsg{key: key, revision: fingerprint.SourceRevision(raw),
			diff: diffview.NewLineDiff(string(raw), string(resources.PresetTreeBytes(snap.Tree)))}
	}
}

// openConflict shows the dialog once the file is read.
func (m *Model) openConflict(msg conflictReadMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	if msg.profile && (m.prof == nil || m.prof.p.Key() != msg.key) ||
		!msg.profile && (m.open == nil || m.open.Key() != msg.key || m.d == nil) {
		return nil
	}
	c := &conflictDialog{key: msg.key, revision: msg.revision, gone: msg.gone, diff: msg.diff, view: diffview.NewLineView(), profile: msg.profile}
	c.view.SetDiff(msg.diff)
	k := &m.keys
	body := i18n.T("%s changed on disk since you opened it (%d line(s) differ from your draft), so it was not saved. Your draft is kept.\n%s writes your draft over the file; %s writes it under a new id; %s drops it and reads the file; %s keeps both as they are.",
		msg.key, msg.diff.Added()+msg.diff.Removed(), k.Overwrite.Help().Key, k.Fork.Help().Key, k.Reload.Help().Key, k.Dismiss.Help().Key)
	if msg.gone {
		body = i18n.T("%s was deleted on disk since you opened it, so it was not saved. Your draft is kept.\n%s writes it under a new id; %s drops it; %s keeps it.", msg.key, k.Fork.Help().Key, k.Reload.Help().Key, k.Dismiss.Help().Key)
	}
	m.openDialog(&dialog{com: m.com, keys: &m.keys, kind: dialogConflict, title: i18n.T("Save conflict"), body: body, conflict: c})
	return nil
}

// conflictKey answers the save conflict: d (the difference) and its
// scrolling stay in the dialog; overwrite, fork and reload close it with
// the panel's answer (the profile draft's for a profile's conflict).
func (d *dialog) conflictKey(msg tea.KeyPressMsg) (bool, any, tea.Cmd) {
	c, k := d.conflict, d.keys
	switch {
	case key.Matches(msg, k.ShowDiff):
		c.showDiff = !c.showDiff
	case c.showDiff && key.Matches(msg, k.Up):
		c.view.ScrollBy(-1)
	case c.showDiff && key.Matches(msg, k.Down):
		c.view.ScrollBy(1)
	case c.showDiff && key.Matches(msg, k.PageUp):
		c.view.ScrollBy(-max(1, d.height-10))
	case c.showDiff && key.Matches(msg, k.PageDown):
		c.view.ScrollBy(max(1, d.height-10))
	case c.profile && (key.Matches(msg, k.Fork, k.Reload) || key.Matches(msg, k.Overwrite) && !c.gone):
		return true, answer(func(m *Model) tea.Cmd { return m.answerProfileConflict(c, msg) }), nil
	case key.Matches(msg, k.Overwrite) && !c.gone:
		return true, answer(func(m *Model) tea.Cmd {
			m.revision = c.revision // the user saw the difference: save over it
			return m.save()
		}), nil
	case key.Matches(msg, k.Fork):
		return true, answer((*Model).promptFork), nil
	case key.Matches(msg, k.Reload):
		return true, answer((*Model).reload), nil
	}
	return false, nil, nil
}

// conflictHelp are the dialog's keys.
func (d *dialog) conflictHelp() []key.Binding {
	k := d.keys
	bs := []key.Binding{k.ShowDiff}
	if d.conflict.showDiff {
		bs = append(bs, k.Up, k.Down)
	}
	if !d.conflict.gone {
		bs = append(bs, k.Overwrite)
	}
	return append(bs, k.Fork, k.Reload, k.Dismiss)
}

// conflictBox draws the dialog: the explanation, and the difference when
// asked (the file on disk on the left/−, the draft on the right/+).
func (d *dialog) conflictBox(width, height int) string {
	st := &d.com.Styles
	inner := common.DialogInner(width)
	body := common.WrapWhole(d.body, inner)
	if d.conflict.showDiff {
		body = append(body, "", st.Text.Muted.Render(i18n.T("− on disk   + your draft")))
		v := d.conflict.view
		v.SetSize(inner, max(3, height-10-len(body)))
		body = append(body, strings.Split(v.View(st), "\n")...)
	}
	return common.DialogBox(st, width, height, d.title, body, common.KeyHint(d.conflictHelp()))
}
