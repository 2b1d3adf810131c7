package demo

// A small ordered JSON model with JavaScript serialization, used by the
// workspace generator (JSON.stringify output, byte exact) and by the
// `sha256:v1` canonical-JSON fingerprint (spec pi-forge-formats §10).

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// member is one key/value pair of an ordered object.
type member struct {
	key   string
	value any
}

// jsObject is a JSON object that keeps insertion order, like a JavaScript object
// without integer-like keys.
type jsObject []member

// obj builds a jsObject from alternating keys and values. A value of type
// omitted is skipped, which mirrors JavaScript dropping `undefined` members.
func obj(pairs ...any) jsObject {
	if len(pairs)%2 != 0 {
		panic("obj: odd number of arguments")
	}
	out := make(jsObject, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		key, ok := pairs[i].(string)
		if !ok {
			panic(fmt.Sprintf("obj: key %v is not a string", pairs[i]))
		}
		if _, skip := pairs[i+1].(omitted); skip {
			continue
		}
		out = append(out, member{key, pairs[i+1]})
	}
	return out
}

// get returns the value stored under key.
func (o jsObject) get(key string) (any, bool) {
	for _, m := range o {
		if m.key == key {
			return m.value, true
		}
	}
	return nil, false
}

// omitted marks an optional member that is absent (JavaScript `undefined`).
type omitted struct{}

// undef is the absent value for obj.
var undef = omitted{}

// opt returns v, or undef when cond is false.
func opt(cond bool, v any) any {
	if !cond {
		return undef
	}
	return v
}

// strs converts string arguments into a JSON array.
func strs(values ...string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// jsStringify is JSON.stringify(v) for the model values.
func jsStringify(v any) string {
	var b strings.Builder
	writeJS(&b, v, "", "")
	return b.String()
}

// jsStringifyIndent is JSON.stringify(v, null, indent).
func jsStringifyIndent(v any, indent string) string {
	var b strings.Builder
	writeJS(&b, v, indent, "")
	return b.String()
}

func writeJS(b *strings.Builder, v any, indent, current string) {
	inner := current + indent
	newline := func(level string) {
		if indent != "" {
			b.WriteString("\n")
			b.WriteString(level)
		}
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(jsNumber(x))
	case string:
		b.WriteString(jsQuote(x))
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[")
		for i, item := range x {
			if i > 0 {
				b.WriteString(",")
			}
			newline(inner)
			writeJS(b, item, indent, inner)
		}
		newline(current)
		b.WriteString("]")
	case jsObject:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{")
		for i, m := range x {
			if i > 0 {
				b.WriteString(",")
			}
			newline(inner)
			b.WriteString(jsQuote(m.key))
			b.WriteString(":")
			if indent != "" {
				b.WriteString(" ")
			}
			writeJS(b, m.value, indent, inner)
		}
		newline(current)
		b.WriteString("}")
	default:
		panic(fmt.Sprintf("writeJS: unsupported value %T", v))
	}
}

// jsQuote is JSON.stringify of one string: only `"`, `\` and control
// characters are escaped; lone surrogates cannot occur in Go strings.
func jsQuote(s string) string {
	return `"` + escapeJSONStringContent(s) + `"`
}

// jsNumber formats f like ECMAScript Number::toString.
func jsNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	// Shortest round-trip digits and decimal exponent.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expPart, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expPart)
	k := len(digits)
	n := exp + 1 // position of the decimal point relative to the digits
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	expSign := "+"
	if n-1 < 0 {
		expSign = "-"
	}
	absExp := n - 1
	if absExp < 0 {
		absExp = -absExp
	}
	if k == 1 {
		return sign + digits + "e" + expSign + strconv.Itoa(absExp)
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + expSign + strconv.Itoa(absExp)
}

// canonicalJSON is pi-forge's canonical JSON: object keys sorted by UTF-16
// code units, no whitespace, JavaScript string and number formatting. It
// accepts both the ordered model and values decoded by encoding/json.
func canonicalJSON(v any) (string, error) {
	var b strings.Builder
	if err := writeCanonical(&b, v, "$"); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writeCanonical(b *strings.Builder, v any, at string) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool, string, int, int64:
		b.WriteString(jsStringify(x))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("cannot fingerprint non-finite number at %s", at)
		}
		b.WriteString(jsNumber(x))
	case []any:
		b.WriteString("[")
		for i, item := range x {
			if i > 0 {
				b.WriteString(",")
			}
			if err := writeCanonical(b, item, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		b.WriteString("]")
	case jsObject:
		m := make(map[string]any, len(x))
		for _, kv := range x {
			m[kv.key] = kv.value
		}
		return writeCanonical(b, m, at)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareUTF16)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(jsQuote(k))
			b.WriteString(":")
			if err := writeCanonical(b, x[k], at+"."+k); err != nil {
				return err
			}
		}
		b.WriteString("}")
	default:
		return fmt.Errorf("cannot fingerprint %T at %s", v, at)
	}
	return nil
}

// compareUTF16 orders strings by UTF-16 code units (JavaScript's default sort).
func compareUTF16(a, b string) int {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	return slices.Compare(ua, ub)
}

// fingerprintJSON is `"sha256:v1:" + hex(sha256(canonicalJson(v)))`.
func fingerprintJSON(v any) (string, error) {
	canonical, err := canonicalJSON(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(canonical))
	return "sha256:v1:" + hex.EncodeToString(sum[:]), nil
}
