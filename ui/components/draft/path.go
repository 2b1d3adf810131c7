package draft

import (
	"errors"
	"fmt"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/i18n"
)

// Path addresses a value in a JSON tree: string keys into objects and int
// indexes into arrays, e.g. Path{"items", 3, "options"}.
type Path = []any

// Get reads the value at path; ok is false when a step is missing or
// crosses a value of the wrong kind.
func Get(root *jsonv.Object, path Path) (value any, ok bool) {
	var node any = root
	for _, step := range path {
		switch s := step.(type) {
		case string:
			obj, isObj := node.(*jsonv.Object)
			if !isObj || obj == nil {
				return nil, false
			}
			if node, ok = obj.Get(s); !ok {
				return nil, false
			}
		case int:
			arr, isArr := node.([]any)
			if !isArr || s < 0 || s >= len(arr) {
				return nil, false
			}
			node = arr[s]
		default:
			return nil, false
		}
	}
	return node, true
}

// Set returns a new root in which the value at path is value. Only the
// containers along the path are copied; everything else is shared with
// root, which is left untouched. Missing objects along the path are
// created; an array index may be one past the end to append.
func Set(root *jsonv.Object, path Path, value any) (*jsonv.Object, error) {
	return change(root, path, value, false)
}

// Delete returns a new root without the value at path (an array element
// is removed and later ones shift). Deleting something absent is no
// change; root is left untouched.
func Delete(root *jsonv.Object, path Path) (*jsonv.Object, error) {
	return change(root, path, nil, true)
}

func change(root *jsonv.Object, path Path, value any, del bool) (*jsonv.Object, error) {
	if len(path) == 0 {
		obj, ok := value.(*jsonv.Object)
		if del || !ok {
			return nil, errors.New(i18n.T("the root must stay an object"))
		}
		return obj, nil
	}
	out, err := changeIn(root, path, value, del)
	if err != nil {
		return nil, err
	}
	obj, ok := out.(*jsonv.Object)
	if !ok {
		return nil, errors.New(i18n.T("the root must stay an object"))
	}
	return obj, nil
}

func changeIn(node any, path Path, value any, del bool) (any, error) {
	switch step := path[0].(type) {
	case string:
		return changeKey(node, step, path, value, del)
	case int:
		return changeIndex(node, step, path, value, del)
	default:
		return nil, errors.New(i18n.T("path step %v: want a string key or an int index", step))
	}
}

func changeKey(node any, step string, path Path, value any, del bool) (any, error) {
	var obj *jsonv.Object
	switch n := node.(type) {
	case *jsonv.Object:
		obj = shallowCopy(n)
	case nil:
		if del {
			return nil, nil
		}
		obj = jsonv.NewObject()
	default:
		return nil, errors.New(i18n.T("key %q: not an object", step))

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
	nv, err := changeIn(child, path[1:], value, del)
	if err != nil {
		return nil, fmt.Errorf("%s.%w", step, err)
	}
	obj.Set(step, nv)
	return obj, nil
}

func changeIndex(node any, step int, path Path, value any, del bool) (any, error) {
	arr, ok := node.([]any)
	if !ok && node != nil {
		return nil, errors.New(i18n.T("index %d: not an array", step))
	}
	if step < 0 || step > len(arr) || (step == len(arr) && (del || len(path) > 1)) {
		return nil, errors.New(i18n.T("index %d out of range (length %d)", step, len(arr)))
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
	nv, err := changeIn(out[step], path[1:], value, del)
	if err != nil {
		return nil, fmt.Errorf("[%d]%w", step, err)
	}
	out[step] = nv
	return out, nil
}

// shallowCopy returns a new object with o's keys in o's order and the same
// (shared) values.
func shallowCopy(o *jsonv.Object) *jsonv.Object {
	c := jsonv.NewObject()
	o.Range(func(k string, v any) bool {
		c.Set(k, v)
		return true
	})
	return c
}

// Equal reports whether two JSON values are the same document, key order
// included (so "equal" means "would serialize the same"). Shared subtrees
// are recognised by identity first, which makes comparing an edited tree
// with the one it came from cost the length of the edited path, not the
// size of the tree.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case *jsonv.Object:
		y, ok := b.(*jsonv.Object)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		if x == nil || y == nil || x.Len() != y.Len() {
			return false
		}
		xk, yk := x.Keys(), y.Keys()
		for i, k := range xk {
			if yk[i] != k {
				return false
			}
			xv, _ := x.Get(k)
			yv, _ := y.Get(k)
			if !Equal(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return true
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}
