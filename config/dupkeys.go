package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
)

// checkDuplicateKeys refuses a JSON document in which one object names a
// member twice, at any depth. encoding/json keeps the last value without
// a word, so {"keys":{…},"keys":{…}} would silently drop the first half
// of a user's bindings; the token stream sees every member name as
// decoded, so "qu\u0069t" and "quit" are the same name here too. The
// error says where: the member names leading to the object, quoted and
// escaped.
func checkDuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object  bool
		names   map[string]bool
		wantKey bool   // an object's next string token is a member name
		name    string // this container's own name in its parent ("" at the top, "[i]" in an array)
	}
	var stack []frame
	var member string // the last member name read, the name of a container that opens next
	path := func() string {
		parts := make([]string, 0, len(stack))
		for _, f := range stack[1:] {
			parts = append(parts, f.name)
		}
		return strings.Join(parts, ".")
	}
	// value marks that a value was read in the innermost container.
	value := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return i18n.Errorf("not a JSON object: %w", err)
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				name := member
				if n := len(stack); n > 0 && !stack[n-1].object {
					name = "[]"
				}
				stack = append(stack, frame{object: t == '{', names: map[string]bool{}, wantKey: t == '{', name: keymap.Quote(name)})
			case '}', ']':
				stack = stack[:len(stack)-1]
				value()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
				f := &stack[n-1]
				if f.names[t] {
					if p := path(); p != "" {
						return i18n.Errorf("duplicate key %s in %s: a name may appear once per object", keymap.Quote(t), p)
					}
					return i18n.Errorf("duplicate key %s in the top-level object: a name may appear once per object", keymap.Quote(t))
				}
				f.names[t] = true
				f.wantKey = false
				member = t
				continue
			}
			value()
		default:
			value()
		}
	}
}
