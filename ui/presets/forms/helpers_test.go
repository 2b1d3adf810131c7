package forms

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// testCommon is a Common with the mono theme, as the goldens strip styling.
func testCommon() *common.Common {
	km := keymap.DefaultGlobal()
	return &common.Common{Styles: themes.For(themes.Dark, true, true), Keys: &km}
}

// draft parses a test draft; the test fails on invalid JSON.
func draft(t testing.TB, src string) *jsonv.Object {
	t.Helper()
	v, err := jsonv.Parse([]byte(src))
	if err != nil {
		t.Fatalf("test draft: %v", err)
	}
	o, ok := v.(*jsonv.Object)
	if !ok {
		t.Fatalf("test draft is not an object: %s", src)
	}
	return o
}

// testContext builds a Context over src with the preset's own diagnostics.
func testContext(t testing.TB, src string) Context {
	t.Helper()
	d := draft(t, src)
	_, diags := preset.ParseValue(d, "test.json", preset.ParseOptions{})
	return Context{Com: testCommon(), Draft: d, Diagnostics: diags, Scope: preset.ScopeProject}
}

// keyMsg builds the key press for a key name ("enter", "a", "shift+up"…).
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "delete":
		return tea.KeyPressMsg{Code: tea.KeyDelete}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// driver presses keys on a form and collects the EditMsgs it emits.
type driver struct {
	t     *testing.T
	form  Form
	edits []EditMsg
}

func drive(t *testing.T, f Form) *driver { return &driver{t: t, form: f} }

// press sends each key and runs the commands, keeping EditMsgs.
func (d *driver) press(keys ...string) *driver {
	d.t.Helper()
	for _, k := range keys {
		var cmd tea.Cmd
		d.form, cmd = d.form.Update(keyMsg(k))
		d.run(cmd)
	}
	return d
}

// typeText types s rune by rune.
func (d *driver) typeText(s string) *driver {
	for _, r := range s {
		var cmd tea.Cmd
		if r == ' ' {
			d.form, cmd = d.form.Update(keyMsg("space"))
		} else {
			d.form, cmd = d.form.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		d.run(cmd)
	}
	return d
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch m := cmd().(type) {
	case EditMsg:
		d.edits = append(d.edits, m)
	case tea.BatchMsg:
		for _, c := range m {
			d.run(c)
		}
	}
}

// onlyEdit returns the single emitted edit; the test fails otherwise.
func (d *driver) onlyEdit() EditMsg {
	d.t.Helper()
	if len(d.edits) != 1 {
		d.t.Fatalf("want exactly one EditMsg, got %d: %+v", len(d.edits), d.edits)
	}
	return d.edits[0]
}

// assertEdit checks one emitted edit's path, JSON value and label.
func assertEdit(t *testing.T, got EditMsg, path Path, valueJSON, label string) {
	t.Helper()
	if jsonv.Stringify(toAnyPath(got.Path)) != jsonv.Stringify(toAnyPath(path)) {
		t.Errorf("path = %v, want %v", got.Path, path)
	}
	if got.Delete {
		t.Errorf("edit is a delete, want set %s", valueJSON)
	}
	if s := jsonv.Stringify(got.Value); s != valueJSON {
		t.Errorf("value = %s, want %s", s, valueJSON)
	}
	if label != "" && got.Label != label {
		t.Errorf("label = %q, want %q", got.Label, label)
	}
}

// toAnyPath converts a path to a jsonv array for comparison.
func toAnyPath(p Path) []any {
	out := make([]any, len(p))
	for i, s := range p {
		if n, ok := s.(int); ok {
			out[i] = float64(n)
		} else {
			out[i] = s
		}
	}
	return out
}
