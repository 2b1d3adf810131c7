package session

import (
	"math"
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session/internal/scan"
)

// RawValue is the undecoded JSON text of one field exactly as it appears in
// the file. A nil RawValue means the field is absent (JavaScript undefined);
// the text "null" is a present null.
type RawValue []byte

// Present reports whether the field exists (even if it is null).
func (r RawValue) Present() bool { return r != nil }

// IsNull reports whether the field holds JSON null.
func (r RawValue) IsNull() bool { return string(r) == "null" }

// Nullish reports whether the field is absent or null (JavaScript `== null`).
func (r RawValue) Nullish() bool { return r == nil || r.IsNull() }

// Str returns the field as a Go string when it holds a JSON string.
func (r RawValue) Str() (string, bool) {
	if len(r) < 2 || r[0] != '"' {
		return "", false
	}
	return scan.DecodeString(r[1 : len(r)-1])
}

// StrOr returns the field as a string, or def when it is not a JSON string.
func (r RawValue) StrOr(def string) string {
	if s, ok := r.Str(); ok {
		return s
	}
	return def
}

// Number returns the field as a float64 when it holds a JSON number.
func (r RawValue) Number() (float64, bool) {
	if len(r) == 0 || !(r[0] == '-' || scan.IsDigit(r[0])) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(r), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// Truthy reports JavaScript truthiness of the field (absent is falsy): the
// same answer as jsonv.Truthy of the decoded value, read from the raw text
// without decoding objects or arrays (FuzzRawValueTruthy checks they agree).
func (r RawValue) Truthy() bool {
	if len(r) == 0 {
		return false
	}
	switch r[0] {
	case 'n', 'f':
		return false
	case '"':
		return len(r) > 2
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		f, ok := r.Number()
		return ok && f != 0
	}
	return true // true, objects and arrays
}

// Decode parses the field into the jsonv model. An absent field decodes
// to (nil, false).
func (r RawValue) Decode() (any, bool, error) {
	if r == nil {
		return nil, false, nil
	}
	v, err := jsonv.Parse(r)
	if err != nil {
		return nil, true, err
	}
	return v, true, nil
}

// jsToNumber converts a field to a number like JavaScript's ToNumber for the
// primitive cases (used for the header version comparison). Objects and
// arrays give NaN.
func jsToNumber(r RawValue) float64 {
	if f, ok := r.Number(); ok {
		return f
	}
	switch string(r) {
	case "true":
		return 1
	case "false", "null":
		return 0
	}
	if s, ok := r.Str(); ok {
		t := jsonv.TrimJS(s)
		if t == "" {
			return 0
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil && (scan.IsDigit(t[len(t)-1]) || t[len(t)-1] == '.') {
			return f
		}
		switch t {
		case "Infinity", "+Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
		if len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
			if n, err := strconv.ParseUint(t[2:], 16, 64); err == nil {
				return float64(n)
			}
		}
	}
	return math.NaN()
}

// lookup returns the value of the last member named name (JSON.parse keeps
// the last duplicate), or nil when absent: scan.Lookup as a RawValue.
func lookup(members []scan.Span, name string) RawValue {
	return RawValue(scan.Lookup(members, name))
}
