package scan

import "bytes"

// The functions in this file walk JSON that the validating scanner
// (scan.go) has already accepted: an entry's line was checked when it was
// read, so reading its members again (a summary does, for every entry of
// a tree) needs only to find where values end. A string's end is found
// with IndexByte on its quotes, which runs many bytes per step, instead
// of looking at every byte for escapes and control characters.

// EndOfString returns the index after the string that starts at
// d[i] == '"' in valid JSON.
func EndOfString(d []byte, i int) int {
	i++
	for {
		k := bytes.IndexByte(d[i:], '"')
		if k < 0 {
			return len(d)
		}
		j := i + k
		odd := false // an odd run of backslashes escapes the quote
		for p := j - 1; p >= i && d[p] == '\\'; p-- {
			odd = !odd
		}
		if !odd {
			return j + 1
		}
		i = j + 1
	}
}

// EndOfValue returns the index after the value that starts at d[i] (no
// leading white space) in valid JSON.
func EndOfValue(d []byte, i int) int {
	depth := 0
	for i < len(d) {
		switch d[i] {
		case '"':
			i = EndOfString(d, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 { // the end of the container around a scalar
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
}

// MembersOf lists the members of the object at d[i] == '{' in valid JSON
// as ScanMembers would, and returns the index after the object.
func MembersOf(d []byte, i int, out []Span) ([]Span, int) {
	i = SkipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return out, i + 1
	}
	for i < len(d) {
		keyEnd := EndOfString(d, i)
		key := d[i+1 : keyEnd-1]
		i = SkipWS(d, SkipWS(d, keyEnd)+1) // past the colon
		start := i
		i = EndOfValue(d, i)
		out = append(out, Span{Key: key, Escaped: bytes.IndexByte(key, '\\') >= 0, Value: d[start:i]})
		i = SkipWS(d, i)
		if i >= len(d) || d[i] == '}' {
			return out, i + 1
		}
		i = SkipWS(d, i+1) // past the comma
	}
	return out, i
}
