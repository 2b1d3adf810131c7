package jsonv

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	cases := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1, "-1"}, {2.5, "2.5"},
		{0.1, "0.1"}, {0.30000000000000004, "0.30000000000000004"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
		{123456789012345680000, "123456789012345680000"}, {1e-7, "1e-7"}, {1e-6, "0.000001"},
		{1.5e-7, "1.5e-7"}, {5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"},
		{-1.5e300, "-1.5e+300"}, {9007199254740993, "9007199254740992"}, {1e15, "1000000000000000"},
		{123.456, "123.456"}, {-0.000001234, "-0.000001234"}, {math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"}, {4.35, "4.35"}, {1e16, "10000000000000000"},
		{2e-7, "2e-7"}, {12345678901234567890123.0, "1.2345678901234568e+22"},
	}
	for _, c := range cases {
		if got := FormatNumber(c.in); got != c.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestQuote(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{"a\"b\\c", `"a\"b\\c"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f\""},
		{"<>&\u2028\u2029", "\"<>&\u2028\u2029\""},
		{"é😀", "\"é😀\""},
		{"\xed\xa0\x80", `"\ud800"`},
		{"x\xed\xbf\xbfy", `"x\udfffy"`},
		{"bad\xffbyte", "\"bad\uFFFDbyte\""},
		{"/", `"/"`},
	}
	for _, c := range cases {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseAndStringify(t *testing.T) {
	cases := []struct{ in, want string }{
		{`null`, `null`},
		{` true `, `true`},
		{"\t\r\n false", `false`},
		{`-0`, `0`},
		{`1E2`, `100`},
		{`1e400`, `null`},
		{`0.5e-10`, `5e-11`},
		{`12345678901234567890`, `12345678901234567000`},
		{`"\u0041\/\b"`, `"A/\b"`},
		{`"\ud83d\ude00"`, "\"😀\""},
		{`"\ud800"`, `"\ud800"`},
		{`"\udc00\ud800x"`, `"\udc00\ud800x"`},
		{`"\ud800\u0041"`, `"\ud800A"`},
		{`"\u2028<&>"`, "\"\u2028<&>\""},
		{"\"raw\xff\"", "\"raw\uFFFD\""},
		{`[1, [2, []], {}]`, `[1,[2,[]],{}]`},
		{`{"b":1,"a":2,"10":3,"2":4,"-1":5,"01":6}`, `{"2":4,"10":3,"b":1,"a":2,"-1":5,"01":6}`},
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"4294967295":1,"4294967294":2}`, `{"4294967294":2,"4294967295":1}`},
		{`{"__proto__":1}`, `{"__proto__":1}`},
	}
	for _, c := range cases {
		v, err := Parse([]byte(c.in))
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := Stringify(v); got != c.want {
			t.Errorf("Stringify(Parse(%q)) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	bad := []string{
		``, ` `, `nul`, `tru`, `[1,]`, `{"a":1,}`, `{a:1}`, `'x'`, `01`, `1.`, `.5`, `-`, `+1`, `1e`,
		`"unterminated`, "\"ctl\x01\"", `"\x"`, `"\u12"`, `[1 2]`, `{"a" 1}`, `1 2`, `NaN`, `Infinity`,
		strings.Repeat("[", maxParseDepth+1),
	}
	for _, in := range bad {
		if v, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) = %v, want error", in, v)
		}
	}
}

func TestObjectOrder(t *testing.T) {
	o := NewObject()
	for _, k := range []string{"z", "5", "a", "1", "x", "0", "100", "c", "d", "e", "f", "g", "h"} {
		o.Set(k, k)
	}
	want := "0,1,5,100,z,a,x,c,d,e,f,g,h"
	if got := strings.Join(o.Keys(), ","); got != want {
		t.Fatalf("Keys = %s, want %s", got, want)
	}
	o.Set("a", "again")
	o.Delete("5")
	o.Delete("x")
	o.Delete("missing")
	if got := strings.Join(o.Keys(), ","); got != "0,1,100,z,a,c,d,e,f,g,h" {
		t.Fatalf("after delete Keys = %s", got)
	}
	if v, ok := o.Get("a"); !ok || v != "again" {
		t.Fatalf("Get(a) = %v %v", v, ok)
	}
	if _, ok := o.Get("x"); ok {
		t.Fatal("deleted key still present")
	}
	if v, _ := o.Get("h"); v != "h" {
		t.Fatalf("Get(h) after index rebuild = %v", v)
	}
	if o.Len() != 11 {
		t.Fatalf("Len = %d", o.Len())
	}
}

func TestStringifyIndent(t *testing.T) {
	v, err := Parse([]byte(`{"a":[1,{"b":null}],"e":{},"f":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"e\": {},\n  \"f\": []\n}"
	if got := StringifyIndent(v, "  "); got != want {
		t.Errorf("indent:\n%s\nwant:\n%s", got, want)
	}
	if got := StringifyIndent([]any{1.0}, "abcdefghijklmnop"); got != "[\nabcdefghij1\n]" {
		t.Errorf("long indent = %q", got)
	}
	if got := StringifyIndent([]any{1.0}, ""); got != "[1]" {
		t.Errorf("empty indent = %q", got)
	}
}

func TestToString(t *testing.T) {
	obj := NewObject()
	obj.Set("a", 1.0)
	cases := []struct {
		in   any
		want string
	}{
		{nil, "null"}, {true, "true"}, {false, "false"}, {3.0, "3"}, {"s", "s"},
		{[]any{1.0, nil, "x", []any{2.0, []any{3.0}}}, "1,,x,2,3"}, {[]any{}, ""}, {obj, "[object Object]"},
		{[]any{obj}, "[object Object]"},
	}
	for _, c := range cases {
		if got := ToString(c.in); got != c.want {
			t.Errorf("ToString(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTrimAndLength(t *testing.T) {
	trims := []struct{ in, want string }{
		{"  a b  ", "a b"},
		{"\uFEFF\u00A0\u2003x\u3000\u2028\u2029\u205F\u202F\u1680\v\f", "x"},
		{"\u200Bx", "\u200Bx"},
		{"", ""},
		{"\t\n", ""},
	}
	for _, c := range trims {
		if got := TrimJS(c.in); got != c.want {
			t.Errorf("TrimJS(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	lens := []struct {
		in   string
		want int
	}{{"", 0}, {"abc", 3}, {"é", 1}, {"€", 1}, {"😀", 2}, {"\xed\xa0\x80", 1}, {"\xff\xfe", 2}, {"a😀b", 4},
		{"abcdefghijklmnop😀é", 19}, {"abcdefgh\xed\xbf\xbfabcdefgh", 17}, {strings.Repeat("x", 17), 17}}
	for _, c := range lens {
		if got := UTF16Len(c.in); got != c.want {
			t.Errorf("UTF16Len(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestFromGo(t *testing.T) {
	got := Stringify(FromGo(map[string]any{
		"b": []int{1, 2}, "a": map[string]string{"y": "1", "x": "2"}, "n": nil, "f": float32(0.5), "u": uint8(7), "t": true,
	}))
	want := `{"a":{"x":"2","y":"1"},"b":[1,2],"f":0.5,"n":null,"t":true,"u":7}`
	if got != want {
		t.Errorf("FromGo = %s, want %s", got, want)
	}
}

func TestCloneIsDeep(t *testing.T) {
	v, _ := Parse([]byte(`{"a":{"b":[1]}}`))
	c := Clone(v).(*Object)
	inner, _ := c.Get("a")
	inner.(*Object).Set("b", "changed")
	if Stringify(v) != `{"a":{"b":[1]}}` {
		t.Fatalf("clone shared state: %s", Stringify(v))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x\u00e9"],"0":null}`, `"\ud800"`, `[true,false,null]`, `-1.5e-7`, "\"\xff\"", `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		once := Stringify(v)
		v2, err := Parse([]byte(once))
		if err != nil {
			t.Fatalf("re-parse of %q failed: %v", once, err)
		}
		if twice := Stringify(v2); twice != once {
			t.Fatalf("round trip unstable: %q vs %q", once, twice)
		}
		_ = StringifyIndent(v, "\t")
		_ = ToString(v)
	})
}

func BenchmarkParse(b *testing.B) {
	line := []byte(`{"type":"message","id":"abc123","parentId":null,"timestamp":"2026-06-13T12:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"` +
		strings.Repeat(`hello \"world\" \n`, 2000) + `"},{"type":"toolCall","id":"t1","name":"read","arguments":{"path":"/x/y.go","offset":10}}],"usage":{"input":1200,"output":340.5}}}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, err := Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUTF16LenASCII(b *testing.B) {
	s := strings.Repeat("x", 100000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if UTF16Len(s) != len(s) {
			b.Fatal("wrong length")
		}
	}
}

// TestFormatNumberTable checks testdata/numbers.json: [float64 bits as a
// decimal string, String(value) as a JavaScript engine printed it].
func TestFormatNumberTable(t *testing.T) {
	data, err := os.ReadFile("testdata/numbers.json")
	if err != nil {
		t.Fatalf("read table: %v", err)
	}
	v, err := Parse(data)
	if err != nil {
		t.Fatalf("parse table: %v", err)
	}
	rows := v.([]any)
	if len(rows) < 300 {
		t.Fatalf("table has %d rows", len(rows))
	}
	for _, r := range rows {
		row := r.([]any)
		bits, err := strconv.ParseUint(row[0].(string), 10, 64)
		if err != nil {
			t.Fatalf("bad bits %v", row[0])
		}
		f := math.Float64frombits(bits)
		if got := FormatNumber(f); got != row[1].(string) {
			t.Errorf("FormatNumber(%v) = %s, want %s", f, got, row[1])
		}
	}
}

func BenchmarkParseText(b *testing.B) {
	text := strings.Repeat("Ünïcode text with some words, numbers 12345 and punctuation; ", 2000)
	line := []byte(`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"` + text + `\n"}]}}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, err := Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}

func TestParseLongStrings(t *testing.T) {
	cases := []struct{ in, want string }{
		{`"` + strings.Repeat("abcdefgh", 5) + `\n` + strings.Repeat("é", 9) + `"`, strings.Repeat("abcdefgh", 5) + "\n" + strings.Repeat("é", 9)},
		{"\"0123456789abcdef\xff0123456789\"", "0123456789abcdef\uFFFD0123456789"},
		{"\"0123456789\\\"abcdef\xed\xa0\x80xyz\"", "0123456789\"abcdef\uFFFD\uFFFD\uFFFDxyz"},
		{`"0123456789abcdef\u00e9\ud800tail-of-string"`, "0123456789abcdefé\xed\xa0\x80tail-of-string"},
	}
	for _, c := range cases {
		v, err := Parse([]byte(c.in))
		if err != nil || v != c.want {
			t.Errorf("Parse(%q) = %q, %v; want %q", c.in, v, err, c.want)
		}
	}
	if _, err := Parse([]byte("\"0123456789abcdef\x1f\"")); err == nil {
		t.Error("control byte after a long run accepted")
	}
}

// TestParseInvalidUTF8MaximalSubparts checks that Parse decodes invalid
// UTF-8 the way Node's UTF-8 decoder (WHATWG) does before JSON.parse sees
// the text: one U+FFFD per maximal subpart of an ill-formed sequence, so a
// truncated multi-byte character is one replacement, not one per byte.
func TestParseInvalidUTF8MaximalSubparts(t *testing.T) {
	const r = "\uFFFD"
	cases := []struct{ in, want string }{
		{"\"a\xe2\x82b\"", "a" + r + "b"},               // truncated 3-byte sequence
		{"\"\xf0\x9f\x98\"", r},                         // truncated 4-byte sequence at the end
		{"\"\xf0\x9f\x98\\n\"", r + "\n"},               // … before an escape
		{"\"\xe2\x82\xe2\x82\xac\"", r + "€"},           // truncated, then a valid character
		{"\"\xed\xa0\x80\"", r + r + r},                 // encoded surrogate: ED only takes 80..9F
		{"\"\xe0\x80\x80\"", r + r + r},                 // overlong: E0 only takes A0..BF
		{"\"\xf4\x90\x80\x80\"", r + r + r + r},         // above U+10FFFF: F4 only takes 80..8F
		{"\"\xc0\xaf\xf5\xff\x80\"", r + r + r + r + r}, // never-valid bytes: one each
		{"\"\xf1\x80\x80x\"", r + "x"},                  // three of four bytes
		{"\"ok\xc3\"", "ok" + r},                        // lone lead byte at the end of the string
		{"\"0123456789abcdef\xe2\x82 tail\"", "0123456789abcdef" + r + " tail"},
	}
	for _, c := range cases {
		v, err := Parse([]byte(c.in))
		if err != nil || v != c.want {
			t.Errorf("Parse(%q) = %q, %v; want %q", c.in, v, err, c.want)
		}
	}
}

func TestDecodeUTF8(t *testing.T) {
	for in, want := range map[string]string{
		"plain é":          "plain é",
		"a\xffb":           "a\uFFFDb",
		"cut \xe6\x97":     "cut \uFFFD",
		"\xed\xa0\x80 sur": "\uFFFD\uFFFD\uFFFD sur",
	} {
		if got := DecodeUTF8([]byte(in)); got != want {
			t.Errorf("DecodeUTF8(%q) = %q, want %q", in, got, want)
		}
	}
}
