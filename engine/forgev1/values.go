package forgev1

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// JavaScript values that are not JSON but that upstream's `segment in
// cursor` walk can reach through Object.prototype (the `quirk:` vectors).
type (
	jsUndefined       struct{}
	jsFunction        struct{ name string } // a method of Object.prototype
	jsObjectPrototype struct{}              // Object.prototype itself
)

// objectPrototypeMethods are the function-valued members every plain
// JavaScript object inherits.
var objectPrototypeMethods = map[string]string{
	"constructor":          "Object",
	"__defineGetter__":     "__defineGetter__",
	"__defineSetter__":     "__defineSetter__",
	"hasOwnProperty":       "hasOwnProperty",
	"__lookupGetter__":     "__lookupGetter__",
	"__lookupSetter__":     "__lookupSetter__",
	"isPrototypeOf":        "isPrototypeOf",
	"propertyIsEnumerable": "propertyIsEnumerable",
	"toString":             "toString",
	"valueOf":              "valueOf",
	"toLocaleString":       "toLocaleString",
}

// member implements `segment in cursor` followed by `cursor[segment]` for
// a cursor that must be a non-null, non-array object.
func member(cursor any, seg string) (any, bool) {
	switch c := cursor.(type) {
	case *jsonv.Object:
		if v, ok := c.Get(seg); ok {
			return v, true
		}
		return prototypeMember(seg, false)
	case jsObjectPrototype:
		return prototypeMember(seg, true)
	}
	return nil, false
}

func prototypeMember(seg string, onPrototype bool) (any, bool) {
	if seg == "__proto__" {
		if onPrototype {
			return nil, true
		}
		return jsObjectPrototype{}, true
	}
	if name, ok := objectPrototypeMethods[seg]; ok {
		return jsFunction{name}, true
	}
	return nil, false
}

// jsString is String(v).
func jsString(v any) string {
	switch t := v.(type) {
	case jsUndefined:
		return "undefined"
	case jsFunction:
		return "function " + t.name + "() { [native code] }"
	case jsObjectPrototype:
		return "[object Object]"
	}
	return jsonv.ToString(v)
}

// valueToString is upstream's valueToString; defined is false when the
// result is JavaScript undefined (JSON.stringify of a function).
func valueToString(v any) (s string, defined bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case jsUndefined:
		return "", true
	case jsFunction:
		return "", false
	case jsObjectPrototype:
		return "{}", true
	}
	return jsonv.Stringify(v), true
}

// conditionTruthy is the `{% if path %}` rule (§8.4). It is not
// JavaScript's ToBoolean (jsonv.Truthy): pi-forge tests arrays by length and
// objects by their own keys, so [] and {} are false here, and undefined,
// functions and Object.prototype (no own keys) are false too.
func conditionTruthy(v any) bool {
	switch t := v.(type) {
	case []any:
		return len(t) > 0
	case *jsonv.Object:
		return t.Len() > 0
	case jsUndefined, jsFunction, jsObjectPrototype:
		return false
	}
	return jsonv.Truthy(v)
}

// stringFilter is applyFilter for a string value: the filtered string,
// or false for a name that is not a filter (applyFilter reports it).
func stringFilter(name, s string) (string, bool) {
	switch name {
	case "trim":
		return jsonv.TrimJS(s), true
	case "upper":
		return changeCase(s, true), true
	case "lower":
		return changeCase(s, false), true
	case "json":
		return jsonv.Stringify(s), true
	case "xml":
		return jsonv.EscapeXML(s), true
	}
	return s, false
}

func (r *renderer) applyFilter(name string, v any, n *node) (any, *Error) {
	switch name {
	case "trim":
		return jsonv.TrimJS(jsString(v)), nil
	case "upper":
		return changeCase(jsString(v), true), nil
	case "lower":
		return changeCase(jsString(v), false), nil
	case "json":
		switch t := v.(type) {
		case jsUndefined, jsFunction:
			return jsUndefined{}, nil
		case jsObjectPrototype:
			return "{}", nil
		default:
			return jsonv.Stringify(t), nil
		}
	case "xml":
		return jsonv.EscapeXML(jsString(v)), nil
	}
	return nil, spanError(r.t.src, StageRender, KindFilter, "Unknown forge-v1 filter: "+name, int(n.start), int(n.end))
}

// Casers are costly to build and not safe for concurrent use: each
// direction keeps a pool (String resets a caser before use).
var (
	upperCasers = sync.Pool{New: func() any { c := cases.Upper(language.Und); return &c }}
	lowerCasers = sync.Pool{New: func() any { c := cases.Lower(language.Und); return &c }}
)

// changeCase is toUpperCase/toLowerCase: full Unicode case mapping,
// locale-independent, with WTF-8 lone surrogates passed through.
func changeCase(s string, upper bool) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		if upper {
			return strings.ToUpper(s)
		}
		return strings.ToLower(s)
	}
	pool := &lowerCasers
	if upper {
		pool = &upperCasers
	}
	caser := pool.Get().(*cases.Caser)
	defer pool.Put(caser)
	var b strings.Builder
	b.Grow(len(s))
	start := 0
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			b.WriteString(caser.String(s[start:i]))
			b.WriteString(s[i : i+3])
			i += 2
			start = i + 1
		}
	}
	b.WriteString(caser.String(s[start:]))
	return b.String()
}
