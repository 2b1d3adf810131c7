package jsonv

import (
	"reflect"
	"sort"
)

// FromGo converts ordinary Go data into the model: maps with string keys
// become *Object with keys in sorted order (then JavaScript order),
// slices and arrays become []any, every numeric kind becomes float64.
// Model values pass through unchanged; anything else becomes nil.
func FromGo(v any) any {
	switch t := v.(type) {
	case nil, bool, float64, string, *Object:
		return t
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = FromGo(e)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := newObjectCap(len(keys))
		for _, k := range keys {
			o.Set(k, FromGo(t[k]))
		}
		return o
	}
	return fromReflect(reflect.ValueOf(v))
}

func fromReflect(rv reflect.Value) any {
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint())
	case reflect.Float32, reflect.Float64:
		return rv.Float()
	case reflect.String:
		return rv.String()
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = FromGo(rv.Index(i).Interface())
		}
		return out
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil
		}
		keys := make([]string, 0, rv.Len())
		for _, k := range rv.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		o := newObjectCap(len(keys))
		for _, k := range keys {
			o.Set(k, FromGo(rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())).Interface()))
		}
		return o
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		return FromGo(rv.Elem().Interface())
	}
	return nil
}
