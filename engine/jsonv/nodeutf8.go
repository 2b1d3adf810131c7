package jsonv

import "unicode/utf8"

// DecodeUTF8 returns data as Node reads a UTF-8 file into a string: valid
// text unchanged, every ill-formed sequence replaced by one U+FFFD per
// maximal subpart (a byte-order mark is kept).
func DecodeUTF8(data []byte) string {
	if utf8.Valid(data) {
		return string(data)
	}
	return string(appendReplacingInvalid(make([]byte, 0, len(data)+16), data))
}
