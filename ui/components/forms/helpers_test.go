package forms

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// testCommon is a Common with the mono theme, as the goldens strip styling.
func testCommon() *common.Common {
	km := keymap.DefaultSet()
	return &common.Common{Styles: themes.For(themes.Dark, true, true), Keys: &km}
}

// parseDraft parses a test draft; the test fails on invalid JSON.
func parseDraft(t testing.TB, src string) *jsonv.Object {
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

// testContext builds a Context over src with its typed view and the
// preset's own diagnostics, as the panel does.
func testContext(t testing.TB, src string) Context {
	t.Helper()
	d := parseDraft(t, src)
	stack, diags := preset.ParseValue(d, "test.json", preset.ParseOptions{})
	return Context{Com: testCommon(), Draft: d, Stack: stack, Diagnostics: diags, Scope: preset.ScopeProject}
}

// driver presses keys on a form through the shared uitest harness and
// collects the EditMsgs it emits (the panel would apply them).
type driver struct {
	*uitest.Harness[Form]
	edits []EditMsg
}

func drive(t *testing.T, f Form) *driver {
	d := &driver{Harness: uitest.New(t, f, func(f Form, msg tea.Msg) (Form, tea.Cmd) { return f.Update(msg) })}
	d.Intercept = func(msg tea.Msg) bool {
		e, ok := msg.(EditMsg)
		if ok {
			d.edits = append(d.edits, e)
		}
		return ok
	}
	return d
}

// press sends each key and settles the commands, keeping EditMsgs.
func (d *driver) press(keys ...string) *driver {
	d.TB().Helper()
	d.Press(keys...)
	return d
}

// typeText types s rune by rune.
func (d *driver) typeText(s string) *driver {
	d.TB().Helper()
	d.Type(s)
	return d
}

// onlyEdit returns the single emitted edit; the test fails otherwise.
func (d *driver) onlyEdit() EditMsg {
	d.TB().Helper()
	if len(d.edits) != 1 {
		d.TB().Fatalf("want exactly one EditMsg, got %d: %+v", len(d.edits), d.edits)
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

// goldenForms compares the view of each named form, built afresh, at
// 80x24 and 160x48 with testdata/<name>_<w>x<h>.golden; every view must
// fit its size exactly.
func goldenForms(t *testing.T, forms map[string]func(*testing.T) Form) {
	t.Helper()
	names := slices.Sorted(maps.Keys(forms))
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, form := range names {
			name, build := fmt.Sprintf("%s_%dx%d", form, size.w, size.h), forms[form]
			t.Run(name, func(t *testing.T) {
				v := sizedView(build(t), size.w, size.h)
				uitest.AssertFits(t, v, size.w, size.h)
				uitest.Golden(t, name, v)
			})
		}
	}
}

// sizedView draws f as a host does: laid out for width×height (SetSize,
// from Update), then drawn. View must change nothing in the form: a View
// that does panics, which fails the test that drew it.
func sizedView(f Form, width, height int) string {
	f.SetSize(width, height)
	v, pure := viewChangesNothing(f, width, height)
	if !pure {
		panic(fmt.Sprintf("%T.View(%d, %d) changed the form", f, width, height))
	}
	return v
}
