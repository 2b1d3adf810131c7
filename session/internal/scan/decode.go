package scan

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// DecodeString decodes the inside of a JSON string token (without the
// quotes). The fast path shares memory with the token: session lines are
// never modified after they are read.
func DecodeString(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		if len(raw) == 0 {
			return "", true
		}
		return unsafe.String(&raw[0], len(raw)), true
	}
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(quoted, '"')
	quoted = append(quoted, raw...)
	quoted = append(quoted, '"')
	v, err := jsonv.Parse(quoted)
	if err != nil {
		return "", false
	}
	s, ok := v.(string)
	return s, ok
}
