// Package fingerprint implements pi-forge's canonical JSON and its "sha256:v1"
// content fingerprint (spec pi-forge-formats §10.1), and the sourceRevision of
// resource files (§10.3): the lowercase hex sha256 of the raw bytes.
//
// Values are jsonv values (nil, bool, float64, string, []any, *jsonv.Object);
// ordinary Go data (ints, string-keyed maps, typed slices) is accepted too. Everything here is pure.
package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Prefix starts every canonical-JSON fingerprint.
const Prefix = "sha256:v1:"

// CanonicalJSON renders v as pi-forge's canonicalJson: object keys sorted by
// UTF-16 code units, no whitespace, JSON.stringify escaping and number form,
// -0 as 0. It fails like pi-forge for a non-finite number
// ("Cannot fingerprint non-finite number at $.a[0].") and for cyclic values;
// values it cannot represent report "Cannot fingerprint non-plain object at <path>.".
func CanonicalJSON(v any) (string, error) {
	var b strings.Builder
	c := canonicalizer{out: &b, ancestors: map[any]bool{}}
	if err := c.write(v, "$"); err != nil {
		return "", err // pi-forge's own TypeError message; callers add context
	}
	return b.String(), nil
}

// Fingerprint is fingerprintJson: Prefix followed by the lowercase hex
// sha256 of the UTF-8 bytes of CanonicalJSON(v).
func Fingerprint(v any) (string, error) {
	canonical, err := CanonicalJSON(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(canonical))
	return Prefix + hex.EncodeToString(sum[:]), nil
}

// IsFingerprint reports whether s has the form ^sha256:v1:[0-9a-f]{64}$.
func IsFingerprint(s string) bool {
	if !strings.HasPrefix(s, Prefix) || len(s) != len(Prefix)+64 {
		return false
	}
	for i := len(Prefix); i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// SourceRevision is the sourceRevision of a resource file: the lowercase hex
// sha256 of exactly the raw bytes that were parsed, with no prefix.
func SourceRevision(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

type canonicalizer struct {
	out       *strings.Builder
	ancestors map[any]bool
}

func (c *canonicalizer) write(v any, path string) error {
	switch x := v.(type) {
	case nil:
		c.out.WriteString("null")
	case bool:
		if x {
			c.out.WriteString("true")
		} else {
			c.out.WriteString("false")
		}
	case string:
		c.out.WriteString(jsonv.Quote(x))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("Cannot fingerprint non-finite number at %s.", path)
		}
		if x == 0 {
			x = 0 // -0 → 0
		}
		c.out.WriteString(jsonv.FormatNumber(x))
	case []any:
		return c.writeArray(x, path)
	case *jsonv.Object:
		if x == nil {
			c.out.WriteString("null")
			return nil
		}
		return c.writeObject(x, path)
	default:
		return c.writeGo(reflect.ValueOf(v), path)
	}
	return nil
}

// writeGo canonicalizes ordinary Go data (numbers of any kind, typed slices
// and arrays, string-keyed maps, pointers); structs, functions, channels and
// other kinds are rejected like non-plain JavaScript objects.
func (c *canonicalizer) writeGo(rv reflect.Value, path string) error {
	switch rv.Kind() {
	case reflect.Bool:
		return c.write(rv.Bool(), path)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return c.write(float64(rv.Int()), path)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return c.write(float64(rv.Uint()), path)
	case reflect.Float32, reflect.Float64:
		return c.write(rv.Float(), path)
	case reflect.String:
		return c.write(rv.String(), path)
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return c.write(nil, path)
		}
		return c.write(rv.Elem().Interface(), path)
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return c.write(nil, path)
		}
		items := make([]any, rv.Len())
		for i := range items {
			items[i] = rv.Index(i).Interface()
		}
		return c.writeArray(items, path)
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			obj := jsonv.NewObject()
			iter := rv.MapRange()
			for iter.Next() {
				obj.Set(iter.Key().String(), iter.Value().Interface())
			}
			return c.writeObject(obj, path)
		}
	case reflect.Func:
		return fmt.Errorf("Cannot fingerprint function at %s.", path)
	case reflect.Invalid:
		return c.write(nil, path)
	}
	return fmt.Errorf("Cannot fingerprint non-plain object at %s.", path)
}

func (c *canonicalizer) writeArray(items []any, path string) error {
	if len(items) > 0 {
		identity := &items[0]
		if c.ancestors[identity] {
			return fmt.Errorf("Cannot fingerprint cyclic value at %s.", path)
		}
		c.ancestors[identity] = true
		defer delete(c.ancestors, identity)
	}
	c.out.WriteByte('[')
	for i, item := range items {
		if i > 0 {
			c.out.WriteByte(',')
		}
		if err := c.write(item, path+"["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	c.out.WriteByte(']')
	return nil
}

func (c *canonicalizer) writeObject(obj *jsonv.Object, path string) error {
	if c.ancestors[obj] {
		return fmt.Errorf("Cannot fingerprint cyclic value at %s.", path)
	}
	c.ancestors[obj] = true
	defer delete(c.ancestors, obj)
	keys := obj.Keys()
	sortUTF16(keys)
	c.out.WriteByte('{')
	for i, key := range keys {
		if i > 0 {
			c.out.WriteByte(',')
		}
		c.out.WriteString(jsonv.Quote(key))
		c.out.WriteByte(':')
		value, _ := obj.Get(key)
		if err := c.write(value, path+"."+key); err != nil {
			return err
		}
	}
	c.out.WriteByte('}')
	return nil
}

// sortUTF16 sorts keys like JavaScript's default Array.prototype.sort:
// by UTF-16 code units.
func sortUTF16(keys []string) {
	sort.SliceStable(keys, func(i, j int) bool { return CompareUTF16(keys[i], keys[j]) < 0 })
}

// CompareUTF16 compares two strings by their UTF-16 code units, the order of
// JavaScript's default sort and string comparison. Lone surrogates stored in
// jsonv's WTF-8 form compare as the surrogate code unit they stand for.
func CompareUTF16(a, b string) int {
	for len(a) > 0 && len(b) > 0 {
		ra, na := decodeWTF8(a)
		rb, nb := decodeWTF8(b)
		a, b = a[na:], b[nb:]
		if ra == rb {
			continue
		}
		ha, la := utf16Units(ra)
		hb, lb := utf16Units(rb)
		if ha != hb {
			return cmpUnit(ha, hb)
		}
		// Same high surrogate: a BMP unit (la == -1) is a prefix of the pair.
		return cmpUnit(la, lb)
	}
	switch {
	case len(a) == len(b):
		return 0
	case len(a) == 0:
		return -1
	default:
		return 1
	}
}

func cmpUnit(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// utf16Units returns the first and second UTF-16 code unit of r (second = -1
// for a BMP character).
func utf16Units(r rune) (int, int) {
	if r < 0x10000 {
		return int(r), -1
	}
	r -= 0x10000
	return 0xD800 + int(r>>10), 0xDC00 + int(r&0x3FF)
}

// decodeWTF8 decodes one character, accepting the three-byte encoding of a
// lone surrogate; other invalid bytes read as U+FFFD.
func decodeWTF8(s string) (rune, int) {
	if len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF {
		return rune(0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F)), 3
	}
	return utf8.DecodeRuneInString(s)
}
