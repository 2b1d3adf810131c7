package jsonv

// Truthy is JavaScript's ToBoolean for a jsonv value: null, false, 0, -0,
// NaN and "" are false; every other value is true, including empty arrays
// and objects ([] and {} are truthy in JavaScript). A value of a type
// outside the jsonv model is true, as any JavaScript object is.
//
// forge-v1's `{% if %}` is deliberately different (empty arrays and
// objects are false there); see engine/forgev1.
func Truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case float64:
		return t == t && t != 0
	case string:
		return t != ""
	}
	return true
}
