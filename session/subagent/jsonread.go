package subagent

import (
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Small readers over jsonv values: each returns the zero value and false
// when the field is absent or of another type, so lenient parsing is a
// sequence of lookups.

// object is a decoded JSON object: a *jsonv.Object, or members (the
// records of state.json, decoded member by member).
type object interface {
	Get(key string) (any, bool)
}

// members is a decoded object kept as its list of members, in file order:
// Get finds a duplicated key's last value, as JSON.parse keeps it. It
// costs no index, which a jsonv.Object builds past eight members.
type members []member

type member struct {
	key string
	val any
}

// Get returns the last value stored under key.
func (m members) Get(key string) (any, bool) {
	for i := len(m) - 1; i >= 0; i-- {
		if m[i].key == key {
			return m[i].val, true
		}
	}
	return nil, false
}

func getObj(o object, key string) (*jsonv.Object, bool) {
	v, _ := o.Get(key)
	obj, ok := v.(*jsonv.Object)
	return obj, ok
}

func getStr(o object, key string) (string, bool) {
	v, _ := o.Get(key)
	s, ok := v.(string)
	return s, ok
}

func getNum(o object, key string) (float64, bool) {
	v, _ := o.Get(key)
	f, ok := v.(float64)
	return f, ok
}

func getBool(o object, key string) (bool, bool) {
	v, _ := o.Get(key)
	b, ok := v.(bool)
	return b, ok
}

func getArr(o object, key string) ([]any, bool) {
	v, _ := o.Get(key)
	a, ok := v.([]any)
	return a, ok
}

// truthy is JavaScript truthiness of a parsed value.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0 && !math.IsNaN(x)
	case string:
		return x != ""
	}
	return true
}

// typeName names a parsed value's JSON type for diagnostics.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case *jsonv.Object, members:
		return "an object"
	}
	return "unknown"
}

// isSafeInteger is Number.isSafeInteger.
func isSafeInteger(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) <= 9007199254740991
}
