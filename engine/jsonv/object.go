// Package jsonv models JSON values with JavaScript semantics.
//
// A value is one of: nil (null), bool, float64, string, []any or *Object.
// Objects keep JavaScript property order, strings are measured in UTF-16
// code units where the spec asks for JavaScript lengths, and Stringify
// produces the exact bytes JSON.stringify would.
//
// Lone surrogates. JavaScript strings may hold unpaired UTF-16 surrogates
// (JSON.parse("\"\\ud800\"") is legal). Go strings hold bytes, so jsonv
// stores such a surrogate as its WTF-8 form: the three-byte generalized
// UTF-8 encoding ED A0..BF 80..BF. Stringify and Quote turn those bytes back
// into a lowercase "\udxxx" escape, so Parse → Stringify round-trips exactly.
// Parse replaces other ill-formed UTF-8 the way Node decodes a file (one
// U+FFFD per maximal subpart); Quote and UTF16Len, which meet such bytes
// only in strings built elsewhere, treat each invalid byte as one U+FFFD.
package jsonv

import "strconv"

// smallObjectLimit is the size up to which lookups scan the entry slice
// instead of consulting the index map; small objects dominate real data.
const smallObjectLimit = 8

type entry struct {
	key   string
	value any
}

// Object is an ordered JSON object with JavaScript property order:
// integer-like keys ("0", "10", up to 2^32-2) come first in ascending
// numeric order, then every other key in insertion order.
// The zero value is an empty object ready to use.
type Object struct {
	entries  []entry
	intCount int            // entries[:intCount] are the integer-like keys
	index    map[string]int // key → position, built once the object grows
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{} }

// newObjectCap returns an empty object with room for n entries.
func newObjectCap(n int) *Object { return &Object{entries: make([]entry, 0, n)} }

// Len returns the number of own properties.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.entries)
}

func (o *Object) find(key string) int {
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range o.entries {
		if o.entries[i].key == key {
			return i
		}
	}
	return -1
}

// Get returns the value stored under key and whether the key is present.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	if i := o.find(key); i >= 0 {
		return o.entries[i].value, true
	}
	return nil, false
}

// GetString returns the string member key ("" when o is nil or the
// member is missing or not a string).
func (o *Object) GetString(key string) string {
	v, _ := o.Get(key)
	s, _ := v.(string)
	return s
}

// Has reports whether key is an own property.
func (o *Object) Has(key string) bool {
	_, ok := o.Get(key)
	return ok
}

// Set stores v under key. An existing key keeps its position (as in
// JavaScript); a new key is placed in JavaScript enumeration order.
func (o *Object) Set(key string, v any) {
	if i := o.find(key); i >= 0 {
		o.entries[i].value = v
		return
	}
	n, isInt := arrayIndex(key)
	if !isInt {
		o.entries = append(o.entries, entry{key, v})
		if o.index != nil {
			o.index[key] = len(o.entries) - 1
		} else if len(o.entries) > smallObjectLimit {
			o.rebuildIndex()
		}
		return
	}
	pos := o.intCount
	for i := 0; i < o.intCount; i++ {
		if m, _ := arrayIndex(o.entries[i].key); m > n {
			pos = i
			break
		}
	}
	o.entries = append(o.entries, entry{})
	copy(o.entries[pos+1:], o.entries[pos:])
	o.entries[pos] = entry{key, v}
	o.intCount++
	if o.index != nil || len(o.entries) > smallObjectLimit {
		o.rebuildIndex()
	}
}

// Delete removes key if present.
func (o *Object) Delete(key string) {
	if o == nil {
		return
	}
	i := o.find(key)
	if i < 0 {
		return
	}
	o.entries = append(o.entries[:i], o.entries[i+1:]...)
	if i < o.intCount {
		o.intCount--
	}
	if o.index != nil {
		o.rebuildIndex()
	}
}

func (o *Object) rebuildIndex() {
	o.index = make(map[string]int, len(o.entries))
	for i := range o.entries {
		o.index[o.entries[i].key] = i
	}
}

// Keys returns the own keys in JavaScript enumeration order.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	keys := make([]string, len(o.entries))
	for i := range o.entries {
		keys[i] = o.entries[i].key
	}
	return keys
}

// Range calls fn for each property in enumeration order until fn returns false.
func (o *Object) Range(fn func(key string, value any) bool) {
	if o == nil {
		return
	}
	for i := range o.entries {
		if !fn(o.entries[i].key, o.entries[i].value) {
			return
		}
	}
}

// ShallowClone returns a copy of o that shares its values (one
// allocation for the properties).
func (o *Object) ShallowClone() *Object {
	if o == nil {
		return nil
	}
	c := &Object{entries: append(make([]entry, 0, len(o.entries)+1), o.entries...), intCount: o.intCount}
	if o.index != nil {
		c.rebuildIndex()
	}
	return c
}

// Clone returns a deep copy of o.
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	c := &Object{entries: make([]entry, len(o.entries)), intCount: o.intCount}
	for i, e := range o.entries {
		c.entries[i] = entry{e.key, Clone(e.value)}
	}
	if o.index != nil {
		c.rebuildIndex()
	}
	return c
}

// Clone returns a deep copy of a model value.
func Clone(v any) any {
	switch t := v.(type) {
	case *Object:
		return t.Clone()
	case []any:
		c := make([]any, len(t))
		for i, e := range t {
			c[i] = Clone(e)
		}
		return c
	default:
		return v
	}
}

// arrayIndex reports whether key is a canonical JavaScript array index
// ("0" or a decimal without leading zero below 2^32-1) and its value.
func arrayIndex(key string) (uint64, bool) {
	if len(key) == 0 || len(key) > 10 {
		return 0, false
	}
	if key[0] == '0' {
		return 0, len(key) == 1
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}
