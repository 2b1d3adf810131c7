package replay

import "github.com/forgebench/forgebench/engine/jsonv"

// asObject returns v as an object (nil when it is not one).
func asObject(v any) *jsonv.Object {
	o, _ := v.(*jsonv.Object)
	return o
}

// objString returns the string member key of o ("" when o is nil or the
// member is missing or not a string).
func objString(o *jsonv.Object, key string) string {
	if o == nil {
		return ""
	}
	v, _ := o.Get(key)
	str, _ := v.(string)
	return str
}
