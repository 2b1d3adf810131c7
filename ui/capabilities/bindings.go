package capabilities

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// bindingsView is the detail pane's bindings view as a sub-model: the
// Presets panel's bindings form (ui/components/forms) over one Preset,
// read-only here. It keeps the form built for the Preset it showed last
// (rebuilt when another Preset or revision shows, or after a reset: a new
// library, state or theme) and the Preset it shows now (nil: none is
// selected). Its Update moves in the form; enabling the binding under the
// cursor it asks the panel for, which checks it is the session's Preset.
type bindingsView struct {
	com  *common.Common
	keys *keymap.Capabilities

	form forms.Form
	// formFor is the Preset ("scope:id@revision") form was built for.
	formFor string
	// preset is the Preset shown (show's last answer).
	preset *resources.Preset
}

// show makes the view show p's bindings, from lib, and returns its form
// (nil when p is).
func (b *bindingsView) show(p *resources.Preset, lib *resources.Library) forms.Form {
	b.preset = p
	if p == nil {
		return nil
	}
	want := p.Key() + "@" + p.SourceRevision
	if b.form == nil || b.formFor != want {
		b.form = forms.NewBindings(forms.Context{Com: b.com, Draft: preset.ToJSON(p.Stack), Library: lib, Scope: p.Scope})
		b.formFor = want
	}
	return b.form
}

// reset drops the form: the next show builds it again (the library,
// the state or the theme changed under it).
func (b *bindingsView) reset() { b.form, b.formFor = nil, "" }

// cursorRow is the binding row under the form's cursor.
func (b *bindingsView) cursorRow() int { return forms.CursorOf(b.form).Row }

// Update implements part: the moving keys go to the form (read-only:
// nothing else is forwarded); enable asks for the binding under the
// cursor to be enabled.
func (b *bindingsView) Update(msg tea.Msg) (tea.Cmd, intent) {
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok, b.preset == nil:
	case isFormNav(k, b.keys):
		b.form, _ = b.form.Update(k)
	case key.Matches(k, b.keys.Enable, b.keys.EnableBound):
		return nil, enableBindingIntent{}
	}
	return nil, nil
}

// isFormNav reports whether a key only moves inside the bindings form.
func isFormNav(msg tea.KeyPressMsg, k *keymap.Capabilities) bool {
	switch msg.String() {
	case "left", "right":
		return true
	}
	return key.Matches(msg, k.Up, k.Down)
}

// ShortHelp implements part.
func (b *bindingsView) ShortHelp() []key.Binding {
	k := b.keys
	return []key.Binding{k.Up, k.Down, k.EnableBound, k.Bindings, k.Back}
}

// CapturesInput implements part: the read-only form takes no text.
func (b *bindingsView) CapturesInput() bool { return false }

// View implements the part: the form of the Preset shown in the pane r,
// or what to do when none is.
func (b *bindingsView) View(r rect, focused bool) string {
	st := b.com.Styles
	innerW, innerH := r.w-4, r.h-2
	title := "Bindings"
	var lines []string
	if b.preset != nil {
		title = "Bindings of " + b.preset.Key() + " (read-only; edit in Presets)"
		lines = strings.Split(b.form.View(innerW, innerH), "\n")
	} else {
		lines = wrap(st.Pane.Placeholder.Render("no Preset selected: choose one in the Presets panel (1), or follow a session with an active Preset"), innerW)
	}
	return common.Frame(st, r.w, r.h, title, "b capability", focused, lines)
}

// bindingsForm is the read-only bindings view of the selected Preset: the
// Presets panel's bindings form over the Preset the selection names, else
// the one in force in the session.
func (m *Model) bindingsForm() forms.Form {
	return m.bindings.show(m.selectedPreset(), m.lib)
}

// sizeBindings builds the bindings form of the selected Preset and lays
// it out for the detail pane View draws it in (forms.Form.SetSize);
// layoutParts calls it, so View only draws.
func (m *Model) sizeBindings() {
	if m.mode != modeBindings || m.width <= 0 || m.height <= 1 {
		return
	}
	if d := m.layout().detail; d.h > 0 {
		if f := m.bindingsForm(); f != nil {
			f.SetSize(d.w-4, d.h-2)
		}
	}
}

// bindingUnderCursor is the binding id the bindings view points at, when
// that view shows the Preset in force in the followed session (only its
// bindings can be enabled there).
func (m *Model) bindingUnderCursor() string {
	p := m.selectedPreset()
	st := m.view.state
	if p == nil || st == nil || st.Preset == nil || st.Preset.Key.String() != p.Key() {
		m.setStatus("only bindings of the session's active Preset can be enabled", true)
		return ""
	}
	res := m.lib.ResolvePresetCapabilities(p)
	row := m.bindings.cursorRow()
	if row < 0 || row >= len(res.Bindings) {
		return ""
	}
	return res.Bindings[row].ID
}

// selectedPreset is the Preset whose bindings show: the shared
// selection's, else the one in force at the followed entry.
func (m *Model) selectedPreset() *resources.Preset {
	if m.lib == nil {
		return nil
	}
	keys := []string{m.com.Selection.PresetID}
	if st := m.view.state; st != nil && st.Preset != nil {
		keys = append(keys, st.Preset.Key.String())
	}
	for _, want := range keys {
		if want == "" {
			continue
		}
		for _, p := range m.lib.Presets {
			if p.Key() == want {
				return p
			}
		}
	}
	return nil
}
