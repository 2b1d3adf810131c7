package jsonv

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// Stringify returns JSON.stringify(v) for a model value. Values outside
// the model (which JSON.stringify would drop as undefined) print as null.
func Stringify(v any) string {
	if s, ok := v.(string); ok {
		return Quote(s)
	}
	var memo quoteMemo
	return bytesToString(memo.appendValue(make([]byte, 0, sizeHint(v, 0)), v, "", ""))
}

// bytesToString returns b as a string without copying it (what
// strings.Builder does): b is a fresh buffer no one writes to again, and
// the JSON text of a large value is megabytes.
func bytesToString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// sizeHint estimates the length of v's JSON text (compact, plus indent
// bytes per nesting level when indenting), so the output buffer is sized
// once instead of growing by a quarter at a time.
func sizeHint(v any, indent int) int {
	switch t := v.(type) {
	case string:
		// Room for an escape every 16 bytes (a newline every line).
		return len(t) + len(t)/16 + 2
	case []any:
		n := 2
		for _, e := range t {
			n += sizeHint(e, indent) + 1 + indent
		}
		return n
	case *Object:
		n := 2
		for _, e := range t.entries {
			n += len(e.key) + 4 + indent + sizeHint(e.value, indent)
		}
		return n
	}
	return 8
}

// StringifyIndent returns JSON.stringify(v, null, indent). As in
// JavaScript the indent is cut to 10 characters; an empty indent gives
// the compact form.
func StringifyIndent(v any, indent string) string {
	if UTF16Len(indent) > 10 {
		indent = truncateUTF16(indent, 10)
	}
	var memo quoteMemo
	return bytesToString(memo.appendValue(make([]byte, 0, sizeHint(v, len(indent)+1)), v, indent, ""))
}

// AppendStringifyIndent appends JSON.stringify(v, null, indent) to dst as
// it reads when v sits at depth prefix (the indentation of the line v
// starts on): a writer of a long array lays out one element at a time
// with it and never holds the whole document.
func AppendStringifyIndent(dst []byte, v any, indent, prefix string) []byte {
	if UTF16Len(indent) > 10 {
		indent = truncateUTF16(indent, 10)
	}
	var memo quoteMemo
	return memo.appendValue(dst, v, indent, prefix)
}

// AppendStringify appends JSON.stringify(v) to dst and returns the result.
func AppendStringify(dst []byte, v any) []byte {
	var memo quoteMemo
	return memo.appendValue(dst, v, "", "")
}

// quoteMemo remembers where the last long string value went in the
// output, so a value repeating it (a diff's before and after text of an
// unchanged block) copies those bytes instead of quoting it again.
type quoteMemo struct {
	s          string
	start, end int
}

// memoMinLen is the shortest string quoteMemo remembers.
const memoMinLen = 256

func (m *quoteMemo) appendQuote(b []byte, s string) []byte {
	if len(s) < memoMinLen {
		return AppendQuote(b, s)
	}
	if m.end > 0 && len(s) == len(m.s) && s == m.s {
		return append(b, b[m.start:m.end]...)
	}
	start := len(b)
	b = AppendQuote(b, s)
	m.s, m.start, m.end = s, start, len(b)
	return b
}

func (m *quoteMemo) appendValue(b []byte, v any, indent, prefix string) []byte {
	switch t := v.(type) {
	case nil:
		b = append(b, "null"...)
	case bool:
		if t {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			b = append(b, "null"...)
			return b
		}
		b = append(b, FormatNumber(t)...)
	case string:
		b = m.appendQuote(b, t)
	case []any:
		if len(t) == 0 {
			b = append(b, "[]"...)
			return b
		}
		inner := prefix + indent
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			if indent != "" {
				b = append(b, '\n')
				b = append(b, inner...)
			}
			b = m.appendValue(b, e, indent, inner)
		}
		if indent != "" {
			b = append(b, '\n')
			b = append(b, prefix...)
		}
		b = append(b, ']')
	case *Object:
		if t.Len() == 0 {
			b = append(b, "{}"...)
			return b
		}
		inner := prefix + indent
		b = append(b, '{')
		for i, e := range t.entries {
			if i > 0 {
				b = append(b, ',')
			}
			if indent != "" {
				b = append(b, '\n')
				b = append(b, inner...)
			}
			b = AppendQuote(b, e.key)
			b = append(b, ':')
			if indent != "" {
				b = append(b, ' ')
			}
			b = m.appendValue(b, e.value, indent, inner)
		}
		if indent != "" {
			b = append(b, '\n')
			b = append(b, prefix...)
		}
		b = append(b, '}')
	default:
		b = append(b, "null"...)
	}
	return b
}

// Quote returns JSON.stringify(s): quotes, `\"` `\\` `\b` `\f` `\n` `\r`
// `\t` by name, other C0 controls as lowercase `\u00xx`, lone surrogates
// (WTF-8) as `\udxxx`, invalid bytes as U+FFFD, everything else literal.
func Quote(s string) string {
	return string(AppendQuote(make([]byte, 0, len(s)+2), s))
}

const hexDigits = "0123456789abcdef"

// needsEscape marks the ASCII bytes Quote must escape.
var needsEscape = func() (t [128]bool) {
	for i := 0; i < 0x20; i++ {
		t[i] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// AppendQuote appends Quote(s) to b and returns the result. Runs of bytes
// that need no escape (ASCII tested eight bytes at a time, well-formed
// UTF-8 decided inline) are copied with one append each.
func AppendQuote(b []byte, s string) []byte {
	if cap(b)-len(b) < len(s)+2 {
		b = slices.Grow(b, len(s)+len(s)/16+2)
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && LiteralWord(word(s[i:])) {
			i += 8
		}
		for i < len(s) && s[i] < utf8.RuneSelf && !needsEscape[s[i]] {
			i++
		}
		if i >= len(s) {
			break
		}
		if s[i] >= utf8.RuneSelf {
			if size := ValidRuneLen(s, i); size > 0 {
				i += size
				continue
			}
		}
		b = append(b, s[start:i]...)
		b = appendEscape(b, s, i)
		if _, ok := surrogateAt(s, i); ok {
			i += 3
		} else {
			i++
		}
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscape appends how Quote writes the byte at s[i], which is an
// ASCII byte that needs an escape, the first byte of a WTF-8 surrogate or
// an invalid byte.
func appendEscape(b []byte, s string, i int) []byte {
	c := s[i]
	if c < utf8.RuneSelf {
		switch c {
		case '"':
			return append(b, `\"`...)
		case '\\':
			return append(b, `\\`...)
		case '\b':
			return append(b, `\b`...)
		case '\f':
			return append(b, `\f`...)
		case '\n':
			return append(b, `\n`...)
		case '\r':
			return append(b, `\r`...)
		case '\t':
			return append(b, `\t`...)
		}
		return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
	}
	if u, ok := surrogateAt(s, i); ok {
		return append(b, '\\', 'u', hexDigits[u>>12], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
	}
	return append(b, "\uFFFD"...)
}

// Byte-wise word constants for LiteralRun.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// LiteralRun returns the length of the longest prefix of s that is ASCII
// and that Quote copies unchanged (no C0 control, '"' or '\\'). It tests
// eight bytes at a time.
func LiteralRun(s string) int {
	i := 0
	for i+8 <= len(s) && LiteralWord(word(s[i:])) {
		i += 8
	}
	for ; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || needsEscape[c] {
			break
		}
	}
	return i
}

// LiteralWord reports whether the eight bytes of w (little-endian, as
// Word loads them) are ASCII that Quote copies unchanged.
func LiteralWord(w uint64) bool {
	// A byte below 0x20, equal to '"' or '\\', or with its high bit set,
	// sets the high bit of its lane (the usual has-less and has-zero word
	// tests; exact about whether any byte matches).
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return ((w-ones*0x20)&^w|(q-ones)&^q|(bs-ones)&^bs|w)&highs == 0
}

// Word loads the first eight bytes of s (which has at least eight)
// little-endian, for LiteralWord.
func Word(s string) uint64 { return word(s) }

// IsLiteral reports whether Quote copies the byte c unchanged and it is
// one UTF-16 unit (printable ASCII other than '"' and '\\').
func IsLiteral(c byte) bool { return c < utf8.RuneSelf && !needsEscape[c] }

// ValidRuneLen returns the length of the well-formed UTF-8 sequence of two
// to four bytes starting at s[i], or 0 when the bytes there are not one
// (an ASCII byte, a stray continuation byte, an overlong or truncated form,
// a surrogate, a value past U+10FFFF). It accepts exactly what
// utf8.DecodeRuneInString decodes to a non-ASCII rune.
func ValidRuneLen(s string, i int) int {
	c := s[i]
	switch {
	case c < 0xC2:
		return 0
	case c < 0xE0:
		if i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			return 2
		}
	case c < 0xF0:
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
		if i+2 < len(s) && s[i+1] >= lo && s[i+1] <= hi && s[i+2]&0xC0 == 0x80 {
			return 3
		}
	case c < 0xF5:
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
		if i+3 < len(s) && s[i+1] >= lo && s[i+1] <= hi && s[i+2]&0xC0 == 0x80 && s[i+3]&0xC0 == 0x80 {
			return 4
		}
	}
	return 0
}

// surrogateAt decodes a WTF-8 encoded surrogate (ED A0..BF 80..BF) at s[i].
func surrogateAt(s string, i int) (uint32, bool) {
	if i+3 > len(s) || s[i] != 0xED || s[i+1] < 0xA0 || s[i+1] > 0xBF || s[i+2] < 0x80 || s[i+2] > 0xBF {
		return 0, false
	}
	return 0xD000 | uint32(s[i+1]&0x3F)<<6 | uint32(s[i+2]&0x3F), true
}

// FormatNumber returns ECMAScript Number::toString(f): shortest
// round-trip digits, plain notation for decimal exponents in [-7, 21),
// otherwise `1e+21` / `1.5e-7` form; -0 prints "0".
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	var scratch [32]byte
	e := strconv.AppendFloat(scratch[:0], f, 'e', -1, 64)
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	// e is "d[.ddd]e±XX"
	mark := 0
	for e[mark] != 'e' {
		mark++
	}
	digits := make([]byte, 0, 20)
	for _, c := range e[:mark] {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	exp, _ := strconv.Atoi(string(e[mark+1:]))
	k := len(digits)
	n := exp + 1
	out := make([]byte, 0, 32)
	if neg {
		out = append(out, '-')
	}
	switch {
	case k <= n && n <= 21:
		out = append(out, digits...)
		for i := 0; i < n-k; i++ {
			out = append(out, '0')
		}
	case 0 < n && n <= 21:
		out = append(out, digits[:n]...)
		out = append(out, '.')
		out = append(out, digits[n:]...)
	case -6 < n && n <= 0:
		out = append(out, '0', '.')
		for i := 0; i < -n; i++ {
			out = append(out, '0')
		}
		out = append(out, digits...)
	default:
		out = append(out, digits[0])
		if k > 1 {
			out = append(out, '.')
			out = append(out, digits[1:]...)
		}
		out = append(out, 'e')
		if n-1 >= 0 {
			out = append(out, '+')
		}
		out = strconv.AppendInt(out, int64(n-1), 10)
	}
	return string(out)
}
