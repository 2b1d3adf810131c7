package presets

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// copyText is what y copies (OSC 52) where the focus is: in the preview,
// the whole compiled system prompt; on an item, what that item compiled to
// in the preview (its system prompt part, or its messages), else its own
// text. what names it for the status line.
func (m *Model) copyText() (text, what string) {
	if m.d == nil {
		return "", ""
	}
	if m.focus == panePreview {
		if m.preview == nil {
			return "", ""
		}
		return m.preview.res.Result.System.SystemPrompt, i18n.T("the compiled system prompt")
	}
	it, _, ok := m.d.Item(m.items.Cursor())
	if !ok {
		return "", ""
	}
	if m.preview != nil {
		var parts []string
		for _, p := range m.preview.res.System {
			if p.ItemID == it.ID {
				parts = append(parts, p.Text)
			}
		}
		for _, p := range m.preview.res.Messages {
			if p.ItemID == it.ID {
				parts = append(parts, p.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n\n"), i18n.T("what %s compiles to", itemLabel(it))
		}
	}
	if content, ok := m.blockContent(m.items.Cursor()); ok {
		return content, i18n.T("the text of %s", itemLabel(it))
	}
	if it.Options != nil {
		return jsonv.StringifyIndent(it.Options, "  "), i18n.T("the options of %s", itemLabel(it))
	}
	return "", ""
}

// What y, v and o act on in the Presets panel (docs/KEYS.md): copyText
// where a Preset is open; in the list the Preset under the cursor and in
// the profiles view the profile, each as its file's JSON (the open draft's
// when it is the one open) after its path and diagnostics; in the draft
// diff the block or the line diff (requestdiff.Model.Whole).

// focusKey answers y, v and o; ok is false for other keys.
func (m *Model) focusKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	return m.com.AnswerFocusKey(common.PanelPresets, msg, m.noted, m.setStatus)
}

// noted is the thing under the focus, whole, with the status line the
// key found (wholeNote) as its note.
func (m *Model) noted() (common.Whole, bool) {
	w, ok := m.focusedWhole()
	w.Note = m.wholeNote
	return w, ok
}

// focusedWhole is what the focused part shows, whole (focusPart.Whole).
func (m *Model) focusedWhole() (common.Whole, bool) { return m.focused().Whole() }

// diffWhole is the open draft diff, whole.
func (m *Model) diffWhole() (common.Whole, bool) { return m.diff.view.Whole(m.diff.title) }

// profileWhole is the profile under the cursor as JSON (its draft's when
// it is being edited).
func (m *Model) profileWhole() (common.Whole, bool) {
	p := m.selectedProfile()
	if p == nil {
		return common.Whole{}, false
	}
	tree := profile.ToJSON(p.Profile)
	if m.prof != nil && m.prof.p.Path == p.Path {
		tree = m.prof.tree
	}
	return common.Whole{Title: i18n.T("profile %s", p.Key()), Text: resourceText(p.Path, p.Diagnostics, tree)}, true
}

// paneWhole is what the focused pane of the Preset view shows, whole: the
// Preset under the list's cursor (the draft's tree when it is the open
// one), a settings row's members, or the item, block or preview
// (copyText).
func (m *Model) paneWhole() (common.Whole, bool) {
	if m.focus == paneList || m.d == nil {
		i := m.presets.SelectedIndex()
		if m.lib == nil || i < 0 || i >= len(m.lib.Presets) {
			return common.Whole{}, false
		}
		p := m.lib.Presets[i]
		var tree any = preset.ToJSON(p.Stack)
		if m.open == p && m.d != nil {
			tree = m.d.Tree()
		}
		return common.Whole{Title: i18n.T("preset %s", p.Key()), Text: resourceText(p.Path, p.Diagnostics, tree)}, true
	}
	if m.onSetting() && (m.focus == paneItems || m.focus == paneEditor) {
		return m.settingWhole(m.items.Cursor() - m.d.Len())
	}
	text, what := m.copyText()
	if what == "" {
		return common.Whole{}, false
	}
	return common.Whole{Title: what, Text: text}, true
}

// settingWhole is settings row j whole: the draft members its section
// edits (settingsMembers) as JSON, or the whole draft for the raw JSON
// row.
func (m *Model) settingWhole(j int) (common.Whole, bool) {
	if j < 0 || j >= len(settingsRows) {
		return common.Whole{}, false
	}
	tree := m.d.Tree()
	section := tree
	if members := settingsMembers[settingsForms[j]]; members != nil {
		section = jsonv.NewObject()
		for _, name := range members {
			if v, ok := tree.Get(name); ok {
				section.Set(name, v)
			}
		}
	}
	title := i18n.T("the %s", i18n.T(settingsRows[j]))
	if m.open != nil {
		title = i18n.T("the %s of %s", i18n.T(settingsRows[j]), m.open.Key())
	}
	return common.Whole{Title: title, Text: jsonv.StringifyIndent(section, "  ") + "\n"}, true
}

// resourceText is a library file whole: its path, each diagnostic, then
// its JSON.
func resourceText(path string, diags []resources.Diagnostic, tree any) string {
	var b strings.Builder
	b.WriteString(i18n.T("file %s", path) + "\n")
	for _, d := range diags {
		b.WriteString(string(d.Level) + ": " + d.Message + "\n")
	}
	b.WriteString("\n" + jsonv.StringifyIndent(tree, "  ") + "\n")
	return b.String()
}
