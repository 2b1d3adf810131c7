package uitest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// DumpState writes v's state as text: every field reached through values
// and pointers (each pointer once), maps in key order, for a test that
// checks a View changes nothing (call it before and after). Left out:
// functions and channels, and the caches a frame may fill (the kit's
// lists keep their window and row cache from the last frame, for paging
// and the mouse; the shared Common; bubbles' memoised wrapping and the
// viewport its textarea fills as it draws).
func DumpState(v any) string {
	var b strings.Builder
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		if depth > 40 {
			b.WriteString("…")
			return
		}
		switch v.Kind() {
		case reflect.Invalid, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			return
		case reflect.Pointer:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			if skipInDump(v.Type().String()) || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem(), depth+1)
		case reflect.Interface:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			walk(v.Elem(), depth+1)
		case reflect.Struct:
			b.WriteString("{")
			for i := range v.NumField() {
				b.WriteString(v.Type().Field(i).Name + ":")
				walk(v.Field(i), depth+1)
				b.WriteString(" ")
			}
			b.WriteString("}")
		case reflect.Slice, reflect.Array:
			b.WriteString("[")
			for i := range v.Len() {
				walk(v.Index(i), depth+1)
				b.WriteString(",")
			}
			b.WriteString("]")
		case reflect.Map:
			keys := v.MapKeys()
			slices.SortFunc(keys, func(a, c reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(c)) })
			b.WriteString("map[")
			for _, k := range keys {
				b.WriteString(fmt.Sprint(k) + ":")
				walk(v.MapIndex(k), depth+1)
				b.WriteString(",")
			}
			b.WriteString("]")
		case reflect.String:
			fmt.Fprintf(&b, "%q", v.String())
		case reflect.Bool:
			fmt.Fprint(&b, v.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			fmt.Fprint(&b, v.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			fmt.Fprint(&b, v.Uint())
		case reflect.Float32, reflect.Float64:
			fmt.Fprint(&b, v.Float())
		default:
			fmt.Fprintf(&b, "<%s>", v.Kind())
		}
	}
	walk(reflect.ValueOf(v), 0)
	return b.String()
}

// skipInDump reports the pointer types DumpState leaves out.
func skipInDump(typ string) bool {
	for _, p := range []string{"*common.List[", "*common.Common", "*memoization.", "*viewport.", "*diffview.wrapMemo"} {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return false
}
