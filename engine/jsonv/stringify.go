package jsonv

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// Stringify returns JSON.stringify(v) for a model value. Values outside
// the model (which JSON.stringify would drop as undefined) print as null.
func Stringify(v any) string {
	if s, ok := v.(string); ok {
		return Quote(s)
	}
	return string(appendValue(make([]byte, 0, 64), v, "", ""))
}

// StringifyIndent returns JSON.stringify(v, null, indent). As in
// JavaScript the indent is cut to 10 characters; an empty indent gives
// the compact form.
func StringifyIndent(v any, indent string) string {
	if UTF16Len(indent) > 10 {
		indent = truncateUTF16(indent, 10)
	}
	return string(appendValue(make([]byte, 0, 64), v, indent, ""))
}

// AppendStringify appends JSON.stringify(v) to dst and returns the result.
func AppendStringify(dst []byte, v any) []byte { return appendValue(dst, v, "", "") }

func appendValue(b []byte, v any, indent, prefix string) []byte {
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
		b = AppendQuote(b, t)
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
			b = appendValue(b, e, indent, inner)
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
			b = appendValue(b, e.value, indent, inner)
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

// AppendQuote appends Quote(s) to b and returns the result.
func AppendQuote(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !needsEscape[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, `\"`...)
			case '\\':
				b = append(b, `\\`...)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, `\u00`...)
				b = append(b, hexDigits[c>>4])
				b = append(b, hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || size != 1 {
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		if u, ok := surrogateAt(s, i); ok {
			b = append(b, `\u`...)
			b = append(b, hexDigits[u>>12])
			b = append(b, hexDigits[u>>8&0xF])
			b = append(b, hexDigits[u>>4&0xF])
			b = append(b, hexDigits[u&0xF])
			i += 3
		} else {
			b = append(b, "\uFFFD"...)
			i++
		}
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
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
