package jsonv

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Stringify returns JSON.stringify(v) for a model value. Values outside
// the model (which JSON.stringify would drop as undefined) print as null.
func Stringify(v any) string {
	var b strings.Builder
	appendValue(&b, v, "", "")
	return b.String()
}

// StringifyIndent returns JSON.stringify(v, null, indent). As in
// JavaScript the indent is cut to 10 characters; an empty indent gives
// the compact form.
func StringifyIndent(v any, indent string) string {
	if UTF16Len(indent) > 10 {
		indent = truncateUTF16(indent, 10)
	}
	var b strings.Builder
	appendValue(&b, v, indent, "")
	return b.String()
}

// AppendStringify appends JSON.stringify(v) to b.
func AppendStringify(b *strings.Builder, v any) { appendValue(b, v, "", "") }

func appendValue(b *strings.Builder, v any, indent, prefix string) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			b.WriteString("null")
			return
		}
		b.WriteString(FormatNumber(t))
	case string:
		AppendQuote(b, t)
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		inner := prefix + indent
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent != "" {
				b.WriteByte('\n')
				b.WriteString(inner)
			}
			appendValue(b, e, indent, inner)
		}
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(prefix)
		}
		b.WriteByte(']')
	case *Object:
		if t.Len() == 0 {
			b.WriteString("{}")
			return
		}
		inner := prefix + indent
		b.WriteByte('{')
		for i, e := range t.entries {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent != "" {
				b.WriteByte('\n')
				b.WriteString(inner)
			}
			AppendQuote(b, e.key)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			appendValue(b, e.value, indent, inner)
		}
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(prefix)
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

// Quote returns JSON.stringify(s): quotes, `\"` `\\` `\b` `\f` `\n` `\r`
// `\t` by name, other C0 controls as lowercase `\u00xx`, lone surrogates
// (WTF-8) as `\udxxx`, invalid bytes as U+FFFD, everything else literal.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	AppendQuote(&b, s)
	return b.String()
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

// AppendQuote appends Quote(s) to b.
func AppendQuote(b *strings.Builder, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !needsEscape[c] {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xF])
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
		b.WriteString(s[start:i])
		if u, ok := surrogateAt(s, i); ok {
			b.WriteString(`\u`)
			b.WriteByte(hexDigits[u>>12])
			b.WriteByte(hexDigits[u>>8&0xF])
			b.WriteByte(hexDigits[u>>4&0xF])
			b.WriteByte(hexDigits[u&0xF])
			i += 3
		} else {
			b.WriteString("\uFFFD")
			i++
		}
		start = i
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
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
