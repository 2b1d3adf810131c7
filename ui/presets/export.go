package presets

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/draft"
)

// w exports the open draft, unsaved edits included: to a new file (a
// path; the file's name without .json is the new id, written into the
// draft's id) never over an existing one, or, for "-", shown whole as
// preset show --json prints it (y copies it there, o pages it).

// exportedMsg reports an export write.
type exportedMsg struct {
	path, id string
	err      error
}

// promptExport asks where to export the draft.
func (m *Model) promptExport() tea.Cmd {
	if m.d == nil {
		return nil
	}
	d := newPrompt(m, i18n.T("Export the draft"), i18n.T("enter writes the draft, your unsaved edits included, as a new pi-forge Preset file at this path (relative to the project); its name without .json is the new id. An existing file is never replaced. - shows the draft as preset show --json prints it."), m.d.ID()+"-export.json", nil)
	d.input.Prompt = i18n.T("file: ")
	d.freeText = true
	d.onYes = func(m *Model, text string) tea.Cmd { return m.export(text) }
	m.openDialog(d)
	return d.input.Focus()
}

// export writes the draft to path under the id its name gives, or shows
// it as preset show --json for "-".
func (m *Model) export(path string) tea.Cmd {
	if m.d == nil {
		return nil
	}
	if path == "-" {
		return common.ShowWhole(common.Whole{Title: i18n.T("preset show --json of the draft %s", m.draftName()), Text: jsonv.StringifyIndent(m.draftShowJSON(), "  ") + "\n"})
	}
	id := strings.TrimSuffix(filepath.Base(path), ".json")
	if !preset.IsValidResourceID(id) {
		m.setStatus(i18n.T("“%s” is not a valid id: the file's name without .json becomes the Preset's id (a letter or digit, then letters, digits, . _ -)", id), true)
		return nil
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.com.Workspace.Cwd, path)
	}
	tree, err := draft.Set(m.d.Tree(), draft.Path{"id"}, id)
	if err != nil {
		m.setStatus(i18n.T("export: %s", err.Error()), true)
		return nil
	}
	data := resources.PresetTreeBytes(tree)
	m.setStatus(i18n.T("exporting to %s…", path), false)
	return func() tea.Msg {
		err := resources.WriteFileExclusive(path, data, 0o644)
		if errors.Is(err, fs.ErrExist) {
			err = wrapText(err, i18n.T("%s exists already; nothing was written — pick another name", path))
		}
		return exportedMsg{path: path, id: id, err: err}
	}
}

// applyExported reports an export.
func (m *Model) applyExported(msg exportedMsg) {
	if msg.err != nil {
		m.setStatus(i18n.T("export: %s", msg.err.Error()), true)
		return
	}
	m.setStatus(i18n.T("exported the draft as Preset %s to %s (I imports it into the library)", msg.id, msg.path), false)
}

// draftShowJSON is the draft as preset show --json prints a Preset:
// {scope, id, key, path, sourceRevision, errors, warnings, usable, stack,
// diagnostics}, from the draft's own stack and diagnostics (its path and
// revision are the open file's).
func (m *Model) draftShowJSON() *jsonv.Object {
	o := jsonv.NewObject()
	stack := m.d.Stack()
	scope := preset.ScopeProject
	path, rev := "", ""
	if m.open != nil {
		scope, path, rev = m.open.Scope, m.open.Path, m.revision
	}
	errs, warns := 0, 0
	diags := make([]any, 0, len(m.d.Diagnostics()))
	for _, d := range m.d.Diagnostics() {
		switch d.Level {
		case preset.LevelError:
			errs++
		case preset.LevelWarning:
			warns++
		}
		do := jsonv.NewObject()
		do.Set("level", string(d.Level))
		do.Set("message", d.Message)
		if d.ItemID != "" {
			do.Set("itemId", d.ItemID) //i18n:raw JSON key of preset show --json
		}
		diags = append(diags, do)
	}
	o.Set("scope", string(scope))
	o.Set("id", stack.ID)
	o.Set("key", string(scope)+":"+stack.ID)
	o.Set("path", path)
	o.Set("sourceRevision", rev) //i18n:raw JSON key of preset show --json
	o.Set("errors", float64(errs))
	o.Set("warnings", float64(warns))
	o.Set("usable", errs == 0)
	o.Set("stack", preset.ToJSON(stack))
	o.Set("diagnostics", diags)
	return o
}
