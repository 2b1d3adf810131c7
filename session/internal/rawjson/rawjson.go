// Package rawjson walks undecoded JSON text without allocating: it finds the
// members of an object, the elements of an array and reads numbers, so hot
// paths (session statistics over hundreds of MB) can read a few fields of a
// large value without building it. Input that is not valid JSON makes the
// functions report failure; they never panic.
package rawjson

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 512

// SkipWS returns the index of the first non-whitespace byte at or after i.
func SkipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// SkipValue returns the index just past the JSON value starting at b[i]
// (leading whitespace allowed), or -1 when the text is not a valid value.
func SkipValue(b []byte, i int) int { return skipValue(b, SkipWS(b, i), 0) }

func skipValue(b []byte, i, depth int) int {
	if i >= len(b) || depth > maxDepth {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{':
		return skipContainer(b, i, '}', true, depth)
	case c == '[':
		return skipContainer(b, i, ']', false, depth)
	case c == 't':
		return skipLiteral(b, i, "true")
	case c == 'f':
		return skipLiteral(b, i, "false")
	case c == 'n':
		return skipLiteral(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		j := i + 1
		for j < len(b) {
			d := b[j]
			if (d >= '0' && d <= '9') || d == '.' || d == 'e' || d == 'E' || d == '+' || d == '-' {
				j++
				continue
			}
			break
		}
		return j
	}
	return -1
}

func skipLiteral(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// skipString returns the index just past the string starting at b[i] (a
// quote). It jumps from quote to quote with bytes.IndexByte and counts the
// backslashes before each one: an even count means the quote is real.
func skipString(b []byte, i int) int {
	j := i + 1
	for j <= len(b) {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return -1
}

func skipContainer(b []byte, i int, closer byte, object bool, depth int) int {
	i = SkipWS(b, i+1)
	if i < len(b) && b[i] == closer {
		return i + 1
	}
	for i < len(b) {
		if object {
			if b[i] != '"' {
				return -1
			}
			if i = skipString(b, i); i < 0 {
				return -1
			}
			i = SkipWS(b, i)
			if i >= len(b) || b[i] != ':' {
				return -1
			}
			i = SkipWS(b, i+1)
		}
		if i = skipValue(b, i, depth+1); i < 0 {
			return -1
		}
		i = SkipWS(b, i)
		if i >= len(b) {
			return -1
		}
		if b[i] == closer {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = SkipWS(b, i+1)
	}
	return -1
}

// EachMember calls fn for each member of the object held by obj, in file
// order, with the key's raw text (between the quotes, still escaped) and the
// raw value. It stops early when fn returns false and reports whether obj
// was a well-formed object (as far as it was read).
func EachMember(obj []byte, fn func(rawKey, value []byte) bool) bool {
	i := SkipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = SkipWS(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return true
	}
	for i < len(obj) {
		if obj[i] != '"' {
			return false
		}
		end := skipString(obj, i)
		if end < 0 {
			return false
		}
		key := obj[i+1 : end-1]
		i = SkipWS(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = SkipWS(obj, i+1)
		vend := skipValue(obj, i, 1)
		if vend < 0 {
			return false
		}
		if !fn(key, obj[i:vend]) {
			return true
		}
		i = SkipWS(obj, vend)
		if i >= len(obj) {
			return false
		}
		if obj[i] == '}' {
			return true
		}
		if obj[i] != ',' {
			return false
		}
		i = SkipWS(obj, i+1)
	}
	return false
}

// Member returns the raw value of the member named key (the last one when
// duplicated, as JSON.parse keeps), or nil when obj is not an object or
// has no such member.
func Member(obj []byte, key string) []byte {
	var found []byte
	EachMember(obj, func(rawKey, value []byte) bool {
		if KeyEquals(rawKey, key) {
			found = value
		}
		return true
	})
	return found
}

// KeyEquals compares a raw (still escaped) key with a plain string.
func KeyEquals(rawKey []byte, key string) bool {
	for _, c := range rawKey {
		if c == '\\' {
			s, ok := Unquote(rawKey)
			return ok && s == key
		}
	}
	return string(rawKey) == key
}

// Unquote decodes the raw text between the quotes of a JSON string.
func Unquote(raw []byte) (string, bool) {
	escaped := false
	for _, c := range raw {
		if c == '\\' || c < 0x20 {
			escaped = true
			break
		}
	}
	if !escaped {
		return string(raw), true
	}
	var s string
	buf := make([]byte, 0, len(raw)+2)
	buf = append(append(append(buf, '"'), raw...), '"')
	if err := json.Unmarshal(buf, &s); err != nil {
		return "", false
	}
	return s, true
}

// String returns the value as a Go string when it is a JSON string.
func String(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	return Unquote(v[1 : len(v)-1])
}

// EachElement calls fn for each element of the array held by arr and
// reports whether arr was a well-formed array (as far as it was read).
func EachElement(arr []byte, fn func(elem []byte) bool) bool {
	i := SkipWS(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return false
	}
	i = SkipWS(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return true
	}
	for i < len(arr) {
		end := skipValue(arr, i, 1)
		if end < 0 {
			return false
		}
		if !fn(arr[i:end]) {
			return true
		}
		i = SkipWS(arr, end)
		if i >= len(arr) {
			return false
		}
		if arr[i] == ']' {
			return true
		}
		if arr[i] != ',' {
			return false
		}
		i = SkipWS(arr, i+1)
	}
	return false
}

// Number returns the value as a float64 when it is a JSON number (huge
// exponents give ±Inf like JavaScript).
func Number(v []byte) (float64, bool) {
	if len(v) == 0 || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		return 0, false
	}
	if len(v) <= 9 {
		if n, ok := smallInt(v); ok {
			return n, true
		}
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// smallInt parses short non-negative integers without strconv.
func smallInt(v []byte) (float64, bool) {
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return float64(n), true
}

// IsNull reports whether the value is JSON null.
func IsNull(v []byte) bool { return string(v) == "null" }
