// Package scan is the validating JSON scanner of session lines, shared by
// the session reader and the packages that read session files their own
// way (session/stats' digest): it checks exactly JSON.parse's grammar
// without building values and records where an object's members are.
// It is internal so the scanner stays out of session's public API.
package scan

import (
	"encoding/binary"
	"math/bits"
)

// This file holds the validating JSON scanner used on every line of a
// session file. Pi parses each line with JSON.parse and silently drops lines
// that fail, so a line only counts as an entry when it is complete, strict
// JSON. The scanner checks exactly that grammar without building values: it
// records where the members of the top-level object (and of its "message"
// object) are, so header fields can be read eagerly and message bodies
// decoded later, on demand.
//
// Invalid UTF-8 is not an error: Pi decodes the file as UTF-8 with
// replacement characters before parsing, so such bytes only change string
// contents, never validity.

// Span is one member of a scanned JSON object: the raw key (without quotes)
// and the raw value bytes.
type Span struct {
	Key     []byte
	Escaped bool // the key contains a backslash escape
	Value   []byte
}

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
	swarQuote = swarOnes * '"'
	swarSlash = swarOnes * '\\'
)

// stringSpecial returns the index of the first byte at or after i that is a
// quote, a backslash or a control character, or len(d) if there is none.
// It examines eight bytes per step.
func stringSpecial(d []byte, i int) int {
	for i+8 <= len(d) {
		w := binary.LittleEndian.Uint64(d[i:])
		q := w ^ swarQuote
		s := w ^ swarSlash
		m := ((q - swarOnes) &^ q) | ((s - swarOnes) &^ s) | ((w - swarOnes*0x20) &^ w)
		m &= swarHighs
		if m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for i < len(d) {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 {
			return i
		}
		i++
	}
	return i
}

// SkipString validates the string starting at d[i] == '"' and returns the
// index after its closing quote and whether it contained an escape.
func SkipString(d []byte, i int) (end int, escaped bool, ok bool) {
	i++
	for {
		i = stringSpecial(d, i)
		if i >= len(d) {
			return 0, false, false
		}
		switch c := d[i]; {
		case c == '"':
			return i + 1, escaped, true
		case c == '\\':
			escaped = true
			if i+1 >= len(d) {
				return 0, false, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || !isHex(d[i+2]) || !isHex(d[i+3]) || !isHex(d[i+4]) || !isHex(d[i+5]) {
					return 0, false, false
				}
				i += 6
			default:
				return 0, false, false
			}
		default: // control character
			return 0, false, false
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// SkipWS skips JSON whitespace (space, tab, LF, CR).
func SkipWS(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipNumber validates a JSON number starting at i.
func skipNumber(d []byte, i int) (int, bool) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i >= len(d) {
		return 0, false
	}
	if d[i] == '0' {
		i++
	} else if d[i] >= '1' && d[i] <= '9' {
		for i < len(d) && IsDigit(d[i]) {
			i++
		}
	} else {
		return 0, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || !IsDigit(d[i]) {
			return 0, false
		}
		for i < len(d) && IsDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !IsDigit(d[i]) {
			return 0, false
		}
		for i < len(d) && IsDigit(d[i]) {
			i++
		}
	}
	return i, true
}

func skipLiteral(d []byte, i int, word string) (int, bool) {
	if len(d)-i < len(word) || string(d[i:i+len(word)]) != word {
		return 0, false
	}
	return i + len(word), true
}

// SkipScalar validates a string, number or literal starting at i.
func SkipScalar(d []byte, i int) (int, bool) {
	switch d[i] {
	case '"':
		end, _, ok := SkipString(d, i)
		return end, ok
	case 't':
		return skipLiteral(d, i, "true")
	case 'f':
		return skipLiteral(d, i, "false")
	case 'n':
		return skipLiteral(d, i, "null")
	default:
		return skipNumber(d, i)
	}
}

// SkipValue validates one JSON value starting at i (leading whitespace
// allowed) and returns the index just after it. Nesting is handled with an
// explicit stack, so depth is limited only by the line length, as in V8.
func SkipValue(d []byte, i int) (int, bool) {
	var stackBuf [32]byte
	stack := stackBuf[:0]
	ok := false
	for {
		// A value is expected at i.
		i = SkipWS(d, i)
		if i >= len(d) {
			return 0, false
		}
		switch d[i] {
		case '{':
			i = SkipWS(d, i+1)
			if i < len(d) && d[i] == '}' {
				i++
				break
			}
			stack = append(stack, '{')
			if i, ok = skipKey(d, i); !ok {
				return 0, false
			}
			continue
		case '[':
			i = SkipWS(d, i+1)
			if i < len(d) && d[i] == ']' {
				i++
				break
			}
			stack = append(stack, '[')
			continue
		default:
			if i, ok = SkipScalar(d, i); !ok {
				return 0, false
			}
		}
		// A value ended at i: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = SkipWS(d, i)
			if i >= len(d) {
				return 0, false
			}
			top := stack[len(stack)-1]
			c := d[i]
			if c == ',' {
				i++
				if top == '{' {
					if i, ok = skipKey(d, SkipWS(d, i)); !ok {
						return 0, false
					}
				}
				break
			}
			if (top == '{' && c == '}') || (top == '[' && c == ']') {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			return 0, false
		}
	}
}

// skipKey validates `"key" :` starting at i and returns the index after the colon.
func skipKey(d []byte, i int) (int, bool) {
	if i >= len(d) || d[i] != '"' {
		return 0, false
	}
	end, _, ok := SkipString(d, i)
	if !ok {
		return 0, false
	}
	end = SkipWS(d, end)
	if end >= len(d) || d[end] != ':' {
		return 0, false
	}
	return end + 1, true
}

// ScanObject validates the object starting at d[i] == '{' and appends its
// members to out. When nestedKey is non-empty and a member with that key
// holds an object, that object's members are appended to nested[:0] (the
// last such member wins) and returned as the second result. Both slices
// only flow to the results, so callers can keep them on the stack.
func ScanObject(d []byte, i int, out []Span, nestedKey string, nested []Span) ([]Span, []Span, int, bool) {
	i = SkipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return out, nested, i + 1, true
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return out, nested, 0, false
		}
		keyEnd, escaped, ok := SkipString(d, i)
		if !ok {
			return out, nested, 0, false
		}
		key := d[i+1 : keyEnd-1]
		i = SkipWS(d, keyEnd)
		if i >= len(d) || d[i] != ':' {
			return out, nested, 0, false
		}
		i = SkipWS(d, i+1)
		if i >= len(d) {
			return out, nested, 0, false
		}
		start := i
		if nestedKey != "" && d[i] == '{' && KeyEquals(key, escaped, nestedKey) {
			nested, i, ok = ScanMembers(d, i, nested[:0])
		} else {
			i, ok = SkipValue(d, i)
		}
		if !ok {
			return out, nested, 0, false
		}
		out = append(out, Span{Key: key, Escaped: escaped, Value: d[start:i]})
		i = SkipWS(d, i)
		if i >= len(d) {
			return out, nested, 0, false
		}
		if d[i] == '}' {
			return out, nested, i + 1, true
		}
		if d[i] != ',' {
			return out, nested, 0, false
		}
		i = SkipWS(d, i+1)
	}
}

// ScanMembers is scanObject without a nested object.
func ScanMembers(d []byte, i int, out []Span) ([]Span, int, bool) {
	members, _, end, ok := ScanObject(d, i, out, "", nil)
	return members, end, ok
}

// KeyEquals compares a raw key with name, decoding escapes when present.
func KeyEquals(raw []byte, escaped bool, name string) bool {
	if !escaped {
		return string(raw) == name
	}
	s, ok := DecodeString(raw)
	return ok && s == name
}

// Lookup returns the value of the last member named name (JSON.parse keeps
// the last duplicate), or nil when absent.
func Lookup(members []Span, name string) []byte {
	for k := len(members) - 1; k >= 0; k-- {
		m := members[k]
		if KeyEquals(m.Key, m.Escaped, name) {
			return m.Value
		}
	}
	return nil
}
