package jsonv

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// appendQuoteSlow is AppendQuote one character at a time, the reference
// the fast paths must equal.
func appendQuoteSlow(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				b = append(b, `\"`...)
			case c == '\\':
				b = append(b, `\\`...)
			case c == '\b':
				b = append(b, `\b`...)
			case c == '\f':
				b = append(b, `\f`...)
			case c == '\n':
				b = append(b, `\n`...)
			case c == '\r':
				b = append(b, `\r`...)
			case c == '\t':
				b = append(b, `\t`...)
			case c < 0x20:
				b = append(b, `\u00`...)
				b = append(b, hexDigits[c>>4], hexDigits[c&0xF])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || size != 1 {
			b = append(b, s[i:i+size]...)
			i += size
			continue
		}
		if u, ok := surrogateAt(s, i); ok {
			b = append(b, `\u`...)
			b = append(b, hexDigits[u>>12], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
			i += 3
			continue
		}
		b = append(b, "\uFFFD"...)
		i++
	}
	return append(b, '"')
}

// utf16LenSlow counts UTF-16 units one character at a time.
func utf16LenSlow(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if _, ok := surrogateAt(s, i); ok {
			n++
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n++
		if r >= 0x10000 {
			n++
		}
		i += size
	}
	return n
}

// literalRunSlow is LiteralRun byte by byte.
func literalRunSlow(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || needsEscape[s[i]] {
			return i
		}
	}
	return len(s)
}

// checkFastPaths compares the word-at-a-time helpers with their
// references on s and on every suffix of its first 24 bytes (so each
// special byte is seen at every position of an eight-byte word).
func checkFastPaths(t *testing.T, s string) {
	t.Helper()
	for k := 0; k <= min(len(s), 24); k++ {
		x := s[k:]
		if got, want := string(AppendQuote([]byte("p"), x)), string(appendQuoteSlow([]byte("p"), x)); got != want {
			t.Fatalf("AppendQuote(%q) = %q, want %q", x, got, want)
		}
		if got, want := UTF16Len(x), utf16LenSlow(x); got != want {
			t.Fatalf("UTF16Len(%q) = %d, want %d", x, got, want)
		}
		if got, want := LiteralRun(x), literalRunSlow(x); got != want {
			t.Fatalf("LiteralRun(%q) = %d, want %d", x, got, want)
		}
		for i := 0; i < len(x); i++ {
			r, size := utf8.DecodeRuneInString(x[i:])
			want := 0
			if r >= utf8.RuneSelf && (r != utf8.RuneError || size > 1) {
				want = size
			}
			if got := ValidRuneLen(x, i); got != want {
				t.Fatalf("ValidRuneLen(%q, %d) = %d, want %d", x, i, got, want)
			}
		}
	}
}

// specialBytes are the bytes each fast path must stop at or decode.
var specialBytes = []string{
	"\"", "\\", "\n", "\x00", "\x1f", "\x7f", " ", "~", "é", "😀", "\uFFFD", "\u2028",
	"\xed\xa0\x80", "\xed\xbf\xbf", "\xed\x9f\xbf", "\xff", "\x80", "\xc0\xaf", "\xc2", "\xe0\x80\x80",
	"\xe2\x82", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf0\x9f\x98",
}

func TestQuoteFastPathsEqualSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 17))
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := rng.IntN(12); k >= 0; k-- {
			b.WriteString("abcdefghijklmnopq"[:rng.IntN(17)])
			b.WriteString(specialBytes[rng.IntN(len(specialBytes))])
		}
		checkFastPaths(t, b.String())
	}
	checkFastPaths(t, strings.Repeat("plain ascii text ", 40))
	checkFastPaths(t, "")
}

func FuzzQuoteFastPaths(f *testing.F) {
	for _, s := range specialBytes {
		f.Add("0123456789" + s + "abcdefghij")
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFastPaths(t, s)
	})
}

func BenchmarkQuoteMixed(b *testing.B) {
	s := strings.Repeat("line of message 12 with naïve 😀 text and \"quotes\"\n", 4000)
	b.SetBytes(int64(len(s)))
	buf := make([]byte, 0, 2*len(s))
	for b.Loop() {
		buf = AppendQuote(buf[:0], s)
	}
}

func BenchmarkUTF16LenMixed(b *testing.B) {
	s := strings.Repeat("line of message 12 with naïve 😀 text and \"quotes\"\n", 4000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if UTF16Len(s) != len(s)-4000*3 {
			b.Fatal("wrong length")
		}
	}
}

// TestStringifyRepeatedLongStrings covers quoteMemo: a long string that
// repeats (also with another of the same length in between, and across
// buffer growth) prints exactly as quoting it again would.
func TestStringifyRepeatedLongStrings(t *testing.T) {
	long := strings.Repeat("a \"quoted\" naïve 😀 line\n", 40)
	other := strings.Repeat("b \"quoted\" naïve 😀 line\n", 40)
	o := NewObject()
	o.Set("before", long)
	o.Set("after", long)
	v := []any{long, long, other, long, o, other, other, strings.Repeat("x", 300)}
	var parts []string
	for _, e := range v[:4] {
		parts = append(parts, Quote(e.(string)))
	}
	parts = append(parts, `{"before":`+Quote(long)+`,"after":`+Quote(long)+`}`)
	parts = append(parts, Quote(other), Quote(other), Quote(strings.Repeat("x", 300)))
	want := "[" + strings.Join(parts, ",") + "]"
	if got := Stringify(v); got != want {
		t.Fatalf("Stringify with repeats differs:\n%s\nwant\n%s", got, want)
	}
	if got := string(AppendStringify([]byte("x"), v)); got != "x"+want {
		t.Fatal("AppendStringify with repeats differs")
	}
	indented := StringifyIndent(v, " ")
	if back, err := Parse([]byte(indented)); err != nil || Stringify(back) != want {
		t.Fatalf("StringifyIndent with repeats does not read back: %v", err)
	}
}
