package jsonv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// maxParseDepth bounds array/object nesting so hostile input cannot
// exhaust the stack; JavaScript engines fail on deep nesting too.
const maxParseDepth = 10000

// ErrSyntax is wrapped by every error Parse returns.
var ErrSyntax = errors.New("invalid JSON")

// Parse decodes data like JSON.parse: strict JSON with surrounding JSON
// whitespace, object order preserved in JavaScript order, and a duplicate
// key keeping its first position with the last value. Ill-formed UTF-8
// inside strings becomes one U+FFFD per maximal subpart (as Node's UTF-8
// decoder does); a lone \uD800-\uDFFF escape is kept as WTF-8 (see the
// package comment).
func Parse(data []byte) (any, error) {
	p := parser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		return nil, p.fail("unexpected data after JSON value")
	}
	return v, nil
}

type parser struct {
	data []byte
	pos  int
	buf  []byte // scratch space for strings with escapes
}

func (p *parser) fail(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrSyntax, what, p.pos)
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	default:
		return nil, p.fail(fmt.Sprintf("unexpected character %q", c))
	}
}

func (p *parser) literal(word string, v any) (any, error) {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return nil, p.fail("invalid literal")
	}
	p.pos += len(word)
	return v, nil
}

func (p *parser) object(depth int) (any, error) {
	if depth > maxParseDepth {
		return nil, p.fail("nesting too deep")
	}
	p.pos++ // '{'
	obj := newObjectCap(4)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return obj, nil
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail("expected string key")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail("expected ':'")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		obj.Set(key, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail("unterminated object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			return obj, nil
		default:
			return nil, p.fail("expected ',' or '}'")
		}
	}
}

func (p *parser) array(depth int) (any, error) {
	if depth > maxParseDepth {
		return nil, p.fail("nesting too deep")
	}
	p.pos++ // '['
	arr := make([]any, 0, 4)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return arr, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail("unterminated array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			return arr, nil
		default:
			return nil, p.fail("expected ',' or ']'")
		}
	}
}

func (p *parser) number() (any, error) {
	start := p.pos
	d := p.data
	i := p.pos
	if d[i] == '-' {
		i++
	}
	if i >= len(d) {
		p.pos = i
		return nil, p.fail("invalid number")
	}
	intStart := i
	if d[i] == '0' {
		i++
	} else if d[i] >= '1' && d[i] <= '9' {
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	} else {
		p.pos = i
		return nil, p.fail("invalid number")
	}
	simple := i-intStart <= 15
	if i < len(d) && d[i] == '.' {
		simple = false
		i++
		fs := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == fs {
			p.pos = i
			return nil, p.fail("invalid number")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		simple = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		es := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == es {
			p.pos = i
			return nil, p.fail("invalid number")
		}
	}
	p.pos = i
	if simple {
		var n int64
		for _, c := range d[intStart:i] {
			n = n*10 + int64(c-'0')
		}
		f := float64(n)
		if d[start] == '-' {
			f = -f
		}
		return f, nil
	}
	f, err := strconv.ParseFloat(string(d[start:i]), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, p.fail("invalid number")
	}
	return f, nil // out-of-range values are ±Infinity or 0, as in JavaScript
}

// str decodes the string starting at the opening quote.
func (p *parser) str() (string, error) {
	p.pos++ // opening quote
	d := p.data
	start := p.pos
	end, nonASCII := plainRun(d, start)
	if end < len(d) && d[end] == '"' && (!nonASCII || utf8.Valid(d[start:end])) {
		p.pos = end + 1
		return string(d[start:end]), nil
	}
	return p.slowString(start)
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainRun returns the index of the first '"', '\\' or control byte at or
// after i (len(d) if none) and whether the bytes before it include
// non-ASCII. It tests eight bytes per step; the zero-byte tricks may flag a
// word falsely, which only sends that word to the byte loop.
func plainRun(d []byte, i int) (int, bool) {
	var high uint64
	for ; i+8 <= len(d); i += 8 {
		w := binary.LittleEndian.Uint64(d[i:])
		q := w ^ (lsb * '"')
		b := w ^ (lsb * '\\')
		if ((q-lsb)&^q|(b-lsb)&^b|(w-lsb*0x20)&^w)&msb != 0 {
			break
		}
		high |= w
	}
	nonASCII := high&msb != 0
	for ; i < len(d); i++ {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		if c >= 0x80 {
			nonASCII = true
		}
	}
	return i, nonASCII
}

// slowString decodes a string with escapes or invalid UTF-8, starting at
// the first byte after the opening quote.
func (p *parser) slowString(start int) (string, error) {
	d := p.data
	buf := p.buf[:0]
	i := start
	for {
		end, nonASCII := plainRun(d, i)
		if !nonASCII || utf8.Valid(d[i:end]) {
			buf = append(buf, d[i:end]...)
		} else {
			buf = appendReplacingInvalid(buf, d[i:end])
		}
		i = end
		if i >= len(d) {
			p.pos = i
			return "", p.fail("unterminated string")
		}
		switch c := d[i]; {
		case c == '"':
			p.pos = i + 1
			p.buf = buf
			return string(buf), nil
		case c < 0x20:
			p.pos = i
			return "", p.fail("control character in string")
		}
		// A backslash escape.
		if i+1 >= len(d) {
			p.pos = i
			return "", p.fail("unterminated escape")
		}
		e := d[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			u, ok := Hex4(d, i)
			if !ok {
				p.pos = i
				return "", p.fail("invalid \\u escape")
			}
			i += 4
			if u >= 0xD800 && u <= 0xDBFF && i+6 <= len(d) && d[i] == '\\' && d[i+1] == 'u' {
				if lo, ok := Hex4(d, i+2); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 6
					buf = utf8.AppendRune(buf, rune((u-0xD800)<<10|(lo-0xDC00))+0x10000)
					continue
				}
			}
			buf = appendCodeUnit(buf, u)
		default:
			p.pos = i - 1
			return "", p.fail("invalid escape")
		}
	}
}

// appendReplacingInvalid appends run with every ill-formed UTF-8 sequence
// replaced by one U+FFFD per maximal subpart, as Node's (WHATWG) UTF-8
// decoder does when it reads a file: a truncated multi-byte character is a
// single replacement, a byte that can never start or continue a sequence
// is one replacement of its own.
func appendReplacingInvalid(buf, run []byte) []byte {
	for len(run) > 0 {
		r, size := utf8.DecodeRune(run)
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, "\uFFFD"...)
			size = MaximalSubpart(run)
		} else {
			buf = append(buf, run[:size]...)
		}
		run = run[size:]
	}
	return buf
}

// MaximalSubpart returns the length of the ill-formed UTF-8 sequence at
// the start of b: the lead byte plus the continuation bytes that were still
// acceptable for it (at least 1). Node's (WHATWG) decoder replaces each
// such subpart with one U+FFFD.
func MaximalSubpart(b []byte) int {
	var need int
	lo, hi := byte(0x80), byte(0xBF) // range of the second byte
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}

// appendCodeUnit appends one UTF-16 code unit; a surrogate is written in
// its WTF-8 form so that it survives Stringify.
func appendCodeUnit(buf []byte, u uint32) []byte {
	if u >= 0xD800 && u <= 0xDFFF {
		return append(buf, 0xED, byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F))
	}
	return utf8.AppendRune(buf, rune(u))
}

// Hex4 reads the four hex digits of a \uXXXX escape at d[i:]; ok is false
// when they are not all there or not all hex digits.
func Hex4(d []byte, i int) (u uint32, ok bool) {
	if i < 0 || i+4 > len(d) {
		return 0, false
	}
	for _, c := range d[i : i+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		u = u<<4 | uint32(v)
	}
	return u, true
}
