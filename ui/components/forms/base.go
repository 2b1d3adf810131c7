package forms

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/components/draft"
)

// base is what every form keeps from its construction.
type base struct {
	ctx    Context
	keys   *keymap.Forms
	styles *themes.Styles
}

func newBase(ctx Context, o options) base {
	b := base{ctx: ctx, keys: o.keys}
	if b.keys == nil {
		if ctx.Com != nil && ctx.Com.Keys != nil {
			b.keys = &ctx.Com.Keys.Forms
		} else {
			km := keymap.DefaultForms()
			b.keys = &km
		}
	}
	if ctx.Com != nil {
		b.styles = &ctx.Com.Styles
	} else {
		st := themes.For(themes.Dark, true, true)
		b.styles = &st
	}
	if b.ctx.Draft == nil {
		b.ctx.Draft = jsonv.NewObject()
	}
	if b.ctx.Stack == nil {
		b.ctx.Stack, _ = preset.ParseValue(b.ctx.Draft, "draft.json", preset.ParseOptions{Scope: b.ctx.Scope})
	}
	return b
}

// objectAt reads the object at path (nil when absent or not an object).
func objectAt(root *jsonv.Object, path Path) *jsonv.Object {
	o, _ := valueAt(root, path).(*jsonv.Object)
	return o
}

// valueAt reads the value at path; nil when any step is missing.
func valueAt(root *jsonv.Object, path Path) any {
	v, _ := draft.Get(root, path)
	return v
}

// present reports whether path exists in root.
func present(root *jsonv.Object, path Path) bool {
	_, ok := draft.Get(root, path)
	return ok
}

// stringList returns the strings of an array value (non-strings skipped).
func stringList(v any) []string {
	a, _ := v.([]any)
	out := make([]string, 0, len(a))
	for _, e := range a {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// toAnyList builds a fresh jsonv array of strings.
func toAnyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// editAt returns the command that sets value at path. When the objects
// leading to path do not exist yet, the edit targets the deepest existing
// ancestor instead and carries freshly built objects down to the value, so
// the panel never has to invent intermediate containers.
func editAt(root *jsonv.Object, path Path, value any, label string) tea.Cmd {
	cut := len(path)
	for cut > 1 && !present(root, path[:cut-1]) {
		cut--
	}
	if cut > 1 {
		if _, isObj := valueAt(root, path[:cut-1]).(*jsonv.Object); !isObj {
			if _, isArr := valueAt(root, path[:cut-1]).([]any); !isArr {
				// The parent exists but is not a container: replace it.
				cut--
			}
		}
	}
	for i := len(path) - 1; i >= cut; i-- {
		k, ok := path[i].(string)
		if !ok {
			break
		}
		o := jsonv.NewObject()
		o.Set(k, value)
		value = o
	}
	return edit(path[:cut], value, label)
}
