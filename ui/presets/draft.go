package presets

import (
	"fmt"
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// undoDepth is how many earlier drafts undo keeps.
const undoDepth = 100

// Path addresses a value in the draft tree: string keys into objects and
// int indexes into arrays (the same shape as forms.Path).
type Path = []any

// draft is the preset being edited: an ordered JSON tree that is never
// mutated once built. Every edit makes a new tree that shares the
// untouched subtrees, so a tree held by a render, the undo stack or a
// command stays exactly as it was.
type draft struct {
	tree *jsonv.Object
	// basename is the file name used for validation ("<id>.json").
	basename string
	scope    preset.Scope
	// baseline is the serialized tree as loaded or last saved; the draft is
	// dirty when its own serialization differs.
	baseline string
	undo     []undoStep
	// lastLabel and coalesce let a run of keystrokes in one field become a
	// single undo step.
	lastLabel string

	stack *preset.Stack
	diags preset.Diagnostics
	dirty bool
	// version increases with every change of tree.
	version int
}

// undoStep is one earlier tree and the edit that replaced it.
type undoStep struct {
	tree  *jsonv.Object
	label string
}

// newDraft starts a draft from a loaded tree.
func newDraft(tree *jsonv.Object, basename string, scope preset.Scope) *draft {
	d := &draft{tree: tree, basename: basename, scope: scope}
	d.baseline = serializeTree(tree)
	d.revalidate()
	return d
}

// serializeTree is the comparable form of a tree.
func serializeTree(tree *jsonv.Object) string { return jsonv.StringifyIndent(tree, "  ") }

// revalidate re-parses the tree for live diagnostics and the stack the
// preview compiles.
func (d *draft) revalidate() {
	d.stack, d.diags = preset.ParseValue(d.tree, d.basename, preset.ParseOptions{Scope: d.scope})
	d.dirty = serializeTree(d.tree) != d.baseline
	d.version++
}

// apply replaces the tree with the result of setting (or deleting) the
// value at path. When coalesce is true and the previous edit had the same
// label, no new undo step is pushed (typing in one field undoes at once).
func (d *draft) apply(path Path, value any, del bool, label string, coalesce bool) error {
	next, err := setPath(d.tree, path, value, del)
	if err != nil {
		return fmt.Errorf("edit %s: %w", label, err)
	}
	d.replace(next, label, coalesce)
	return nil
}

// replace installs a new tree, remembering the old one for undo.
func (d *draft) replace(next *jsonv.Object, label string, coalesce bool) {
	if !(coalesce && label != "" && label == d.lastLabel && len(d.undo) > 0) {
		d.undo = append(d.undo, undoStep{tree: d.tree, label: label})
		if len(d.undo) > undoDepth {
			d.undo = append([]undoStep(nil), d.undo[len(d.undo)-undoDepth:]...)
		}
	}
	d.lastLabel = label
	d.tree = next
	d.revalidate()
}

// undoLast restores the tree before the last edit; it returns the label
// of the undone edit, or false when there is nothing to undo.
func (d *draft) undoLast() (string, bool) {
	if len(d.undo) == 0 {
		return "", false
	}
	step := d.undo[len(d.undo)-1]
	d.undo = d.undo[:len(d.undo)-1]
	d.tree = step.tree
	d.lastLabel = ""
	d.revalidate()
	return step.label, true
}

// markSaved makes the current tree the new baseline.
func (d *draft) markSaved() {
	d.baseline = serializeTree(d.tree)
	d.dirty = false
	d.lastLabel = ""
}

// items returns the draft's raw items array (nil when absent or not an array).
func (d *draft) items() []any {
	v, _ := d.tree.Get("items")
	list, _ := v.([]any)
	return list
}

// item returns the raw item object at index i.
func (d *draft) item(i int) *jsonv.Object {
	list := d.items()
	if i < 0 || i >= len(list) {
		return nil
	}
	obj, _ := list[i].(*jsonv.Object)
	return obj
}

// setItems replaces the items array in one undoable edit.
func (d *draft) setItems(list []any, label string) error {
	return d.apply(Path{"items"}, list, false, label, false)
}

// cloneObject returns a shallow copy of o with the same key order.
func cloneObject(o *jsonv.Object) *jsonv.Object {
	c := jsonv.NewObject()
	for _, k := range o.Keys() {
		v, _ := o.Get(k)
		c.Set(k, v)
	}
	return c
}

// deepClone copies a JSON value completely (used when a new item starts
// from an existing one, so the two never share containers).
func deepClone(v any) any {
	switch v := v.(type) {
	case *jsonv.Object:
		c := jsonv.NewObject()
		for _, k := range v.Keys() {
			x, _ := v.Get(k)
			c.Set(k, deepClone(x))
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = deepClone(x)
		}
		return c
	default:
		return v
	}
}

// setPath returns a new root in which the value at path is set to value
// (or removed when del). Only the containers along the path are copied;
// everything else is shared with root, which is left untouched. Missing
// objects along the path are created; an array index may be one past the
// end to append. Deleting an array element removes it (later ones shift).
func setPath(root *jsonv.Object, path Path, value any, del bool) (*jsonv.Object, error) {
	if len(path) == 0 {
		obj, ok := value.(*jsonv.Object)
		if del || !ok {
			return nil, fmt.Errorf("the root must stay an object")
		}
		return obj, nil
	}
	out, err := setIn(root, path, value, del)
	if err != nil {
		return nil, err
	}
	obj, ok := out.(*jsonv.Object)
	if !ok {
		return nil, fmt.Errorf("the root must stay an object")
	}
	return obj, nil
}

func setIn(node any, path Path, value any, del bool) (any, error) {
	switch step := path[0].(type) {
	case string:
		var obj *jsonv.Object
		switch n := node.(type) {
		case *jsonv.Object:
			obj = cloneObject(n)
		case nil:
			if del {
				return nil, nil
			}
			obj = jsonv.NewObject()
		default:
			return nil, fmt.Errorf("key %q: not an object", step)
		}
		if len(path) == 1 {
			if del {
				obj.Delete(step)
			} else {
				obj.Set(step, value)
			}
			return obj, nil
		}
		child, _ := obj.Get(step)
		nv, err := setIn(child, path[1:], value, del)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", step, err)
		}
		obj.Set(step, nv)
		return obj, nil
	case int:
		arr, ok := node.([]any)
		if !ok && node != nil {
			return nil, fmt.Errorf("index %d: not an array", step)
		}
		if step < 0 || step > len(arr) || (step == len(arr) && (del || len(path) > 1)) {
			return nil, fmt.Errorf("index %s out of range (length %d)", strconv.Itoa(step), len(arr))
		}
		if len(path) == 1 && del {
			out := make([]any, 0, len(arr)-1)
			out = append(out, arr[:step]...)
			return append(out, arr[step+1:]...), nil
		}
		out := make([]any, len(arr), len(arr)+1)
		copy(out, arr)
		if step == len(arr) {
			out = append(out, nil)
		}
		if len(path) == 1 {
			out[step] = value
			return out, nil
		}
		nv, err := setIn(out[step], path[1:], value, del)
		if err != nil {
			return nil, fmt.Errorf("[%d]%w", step, err)
		}
		out[step] = nv
		return out, nil
	default:
		return nil, fmt.Errorf("path step %v: want a string key or an int index", step)
	}
}

// getPath reads the value at path ("", false when absent).
func getPath(root *jsonv.Object, path Path) (any, bool) {
	var node any = root
	for _, step := range path {
		switch s := step.(type) {
		case string:
			obj, ok := node.(*jsonv.Object)
			if !ok {
				return nil, false
			}
			if node, ok = obj.Get(s); !ok {
				return nil, false
			}
		case int:
			arr, ok := node.([]any)
			if !ok || s < 0 || s >= len(arr) {
				return nil, false
			}
			node = arr[s]
		default:
			return nil, false
		}
	}
	return node, true
}
