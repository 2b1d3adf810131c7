package replay

import "github.com/forgebench/forgebench/engine/jsonv"

// asObject returns v as an object (nil when it is not one).
func asObject(v any) *jsonv.Object {
	o, _ := v.(*jsonv.Object)
	return o
}
