package turndiff

import (
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// fnv is a running FNV-1a 32-bit state over UTF-16 code units. Its methods
// hash text as pi-forge's hashText sees it without building that text:
// raw adds a string's units, quoted the units of its JSON.stringify form,
// json those of a whole value's JSON.stringify form.
type fnv uint32

// newFNV is the FNV-1a offset basis.
func newFNV() fnv { return fnvOffset }

// unit adds one UTF-16 code unit.
func (h fnv) unit(u uint16) fnv { return (h ^ fnv(u)) * fnvPrime }

// ascii adds the bytes of s, which are all ASCII (one unit each).
func (h fnv) ascii(s string) fnv {
	for len(s) >= 4 {
		h = (h ^ fnv(s[0])) * fnvPrime
		h = (h ^ fnv(s[1])) * fnvPrime
		h = (h ^ fnv(s[2])) * fnvPrime
		h = (h ^ fnv(s[3])) * fnvPrime
		s = s[4:]
	}
	for i := 0; i < len(s); i++ {
		h = (h ^ fnv(s[i])) * fnvPrime
	}
	return h
}

// word adds the eight ASCII bytes of w, lowest first.
func (h fnv) word(w uint64) fnv {
	for k := 0; k < 8; k++ {
		h = (h ^ fnv(w&0xFF)) * fnvPrime
		w >>= 8
	}
	return h
}

// raw adds the UTF-16 units of s (a WTF-8 surrogate is one unit, an
// invalid byte U+FFFD): hashText of s itself.
func (h fnv) raw(s string) fnv {
	for i := 0; i < len(s); {
		for i+8 <= len(s) {
			w := jsonv.Word(s[i:])
			if w&highBits != 0 {
				break
			}
			h = h.word(w)
			i += 8
		}
		for i < len(s) && s[i] < 0x80 {
			h = (h ^ fnv(s[i])) * fnvPrime
			i++
		}
		if i < len(s) {
			hi, lo, size := unitAt(s, i)
			h = h.unit(hi)
			if lo != 0 {
				h = h.unit(lo)
			}
			i += size
		}
	}
	return h
}

// highBits has the high bit of each byte of a word set.
const highBits = 0x8080808080808080

// quotedBody adds the units of jsonv.Quote(s) without its two quotes.
// Runs that Quote copies unchanged are tested and hashed eight bytes at a
// time.
func (h fnv) quotedBody(s string) fnv {
	for i := 0; i < len(s); {
		for i+8 <= len(s) {
			w := jsonv.Word(s[i:])
			if !jsonv.LiteralWord(w) {
				break
			}
			h = h.word(w)
			i += 8
		}
		for i < len(s) && jsonv.IsLiteral(s[i]) {
			h = (h ^ fnv(s[i])) * fnvPrime
			i++
		}
		if i < len(s) {
			var size int
			h, size = h.escaped(s, i)
			i += size
		}
	}
	return h
}

// escaped adds how jsonv.Quote writes the character at s[i], which is not
// a plain ASCII byte, and returns the bytes consumed.
func (h fnv) escaped(s string, i int) (fnv, int) {
	c := s[i]
	if c < 0x80 {
		switch c {
		case '"', '\\':
			return h.unit('\\').unit(uint16(c)), 1
		case '\b':
			return h.ascii(`\b`), 1
		case '\f':
			return h.ascii(`\f`), 1
		case '\n':
			return h.ascii(`\n`), 1
		case '\r':
			return h.ascii(`\r`), 1
		case '\t':
			return h.ascii(`\t`), 1
		}
		return h.ascii(`\u00`).unit(uint16(hexDigits[c>>4])).unit(uint16(hexDigits[c&0xF])), 1
	}
	hi, lo, size := unitAt(s, i)
	if size == 3 && hi >= 0xD800 && hi <= 0xDFFF {
		// A lone surrogate prints as \udxxx.
		h = h.ascii(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			h = h.unit(uint16(hexDigits[hi>>shift&0xF]))
		}
		return h, 3
	}
	h = h.unit(hi)
	if lo != 0 {
		h = h.unit(lo)
	}
	return h, size
}

// quoted adds the units of jsonv.Quote(s).
func (h fnv) quoted(s string) fnv { return h.unit('"').quotedBody(s).unit('"') }

// textPass hashes a message text for two FNV chains at once: key gets
// its units (the message key hashes role+"\x00"+text) and block the units
// of its JSON.stringify body (the block hash covers the quoted text). The
// chains are independent, so the processor overlaps them; units counts
// the text's UTF-16 length on the way.
type textPass struct {
	s          string
	i          int // bytes of s hashed so far
	key, block fnv
	units      int
}

// finish hashes the text (the rest of it, from byte i).
func (p *textPass) finish() {
	s, i, r, q, units := p.s, p.i, p.key, p.block, p.units
	for i < len(s) {
		start := i
		for i+8 <= len(s) {
			w := jsonv.Word(s[i:])
			if !jsonv.LiteralWord(w) {
				break
			}
			for k := 0; k < 8; k++ {
				r = (r ^ fnv(w&0xFF)) * fnvPrime
				q = (q ^ fnv(w&0xFF)) * fnvPrime
				w >>= 8
			}
			i += 8
		}
		for i < len(s) && jsonv.IsLiteral(s[i]) {
			r = (r ^ fnv(s[i])) * fnvPrime
			q = (q ^ fnv(s[i])) * fnvPrime
			i++
		}
		units += i - start
		if i < len(s) {
			var size int
			r, q, units, size = special(r, q, units, s, i)
			i += size
		}
	}
	p.i, p.key, p.block, p.units = i, r, q, units
}

// special adds the character at s[i], which is not a literal byte, to a
// text pass's chains and length, and returns the bytes consumed.
func special(r, q fnv, units int, s string, i int) (fnv, fnv, int, int) {
	if s[i] < 0x80 {
		q, _ = q.escaped(s, i)
		return r.unit(uint16(s[i])), q, units + 1, 1
	}
	hi, lo, size := unitAt(s, i)
	r = r.unit(hi)
	units++
	if lo != 0 {
		return r.unit(lo), q.unit(hi).unit(lo), units + 1, size
	}
	if size == 3 && hi >= 0xD800 && hi <= 0xDFFF {
		q, _ = q.escaped(s, i)
		return r, q, units, size
	}
	return r, q.unit(hi), units, size
}

// json adds the units of jsonv.Stringify(v) (compact), walking v as
// jsonv's stringifier does.
func (h fnv) json(v any) fnv {
	switch t := v.(type) {
	case nil:
		return h.ascii("null")
	case bool:
		if t {
			return h.ascii("true")
		}
		return h.ascii("false")
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return h.ascii("null")
		}
		return h.ascii(jsonv.FormatNumber(t))
	case string:
		return h.quoted(t)
	case []any:
		h = h.unit('[')
		for i, e := range t {
			if i > 0 {
				h = h.unit(',')
			}
			h = h.json(e)
		}
		return h.unit(']')
	case *jsonv.Object:
		h = h.unit('{')
		first := true
		t.Range(func(key string, value any) bool {
			if !first {
				h = h.unit(',')
			}
			first = false
			h = h.quoted(key).unit(':').json(value)
			return true
		})
		return h.unit('}')
	}
	return h.ascii("null")
}

// hex is the state as pi-forge prints a hash: 8 lowercase hex digits.
func (h fnv) hex() string {
	var out [8]byte
	for k := 7; k >= 0; k-- {
		out[k] = hexDigits[h&0xF]
		h >>= 4
	}
	return string(out[:])
}

const hexDigits = "0123456789abcdef"
