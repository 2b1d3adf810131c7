package subagent

import (
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Small readers over jsonv values: each returns the zero value and false
// when the field is absent or of another type, so lenient parsing is a
// sequence of lookups.

func getObj(o *jsonv.Object, key string) (*jsonv.Object, bool) {
	v, _ := o.Get(key)
	obj, ok := v.(*jsonv.Object)
	return obj, ok
}

func getStr(o *jsonv.Object, key string) (string, bool) {
	v, _ := o.Get(key)
	s, ok := v.(string)
	return s, ok
}

func getNum(o *jsonv.Object, key string) (float64, bool) {
	v, _ := o.Get(key)
	f, ok := v.(float64)
	return f, ok
}

func getBool(o *jsonv.Object, key string) (bool, bool) {
	v, _ := o.Get(key)
	b, ok := v.(bool)
	return b, ok
}

func getArr(o *jsonv.Object, key string) ([]any, bool) {
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
	case *jsonv.Object:
		return "an object"
	}
	return "unknown"
}

// isSafeInteger is Number.isSafeInteger.
func isSafeInteger(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) <= 9007199254740991
}
