package sanitize

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func TestJSONTextEscapesWhatATerminalActsOn(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":"plain"}`, `{"a":"plain"}`},
		{"{\"c1\":\"x\u009b31my\u0085\"}", `{"c1":"x\u009b31my\u0085"}`},
		{"{\"bidi\":\"a\u202eb\u2066c\u061cd\u200fe\u2028\"}", `{"bidi":"a\u202eb\u2066c\u061cd\u200fe\u2028"}`},
		{"{\"del\":\"a\x7fb\"}", `{"del":"a\u007fb"}`},
		{"{\"bad\":\"a\xffb\x9bc\xe2\x80\"}", `{"bad":"a\ufffdb\ufffdc\ufffd"}`},
		{"{\"a\":1}\r", `{"a":1} `},
		{"{\n\t\"a\": \"naïve ✓ 🙂 “quoted” — …\"\n}", "{\n\t\"a\": \"naïve ✓ 🙂 “quoted” — …\"\n}"},
		{"malformed \x1b]52;c;aGk=\x07", `malformed \u001b]52;c;aGk=\u0007`},
		// Format characters (category Cf): zero-width, soft hyphen, BOM,
		// Arabic number sign, interlinear annotation, tags (astral: a
		// surrogate pair), and the rest of the bidi set.
		{"\"zw\u200b\u200c\u200d\u2060\u2064\"", `"zw\u200b\u200c\u200d\u2060\u2064"`},
		{"\"soft\u00adhyphen\ufeff\u0600\ufff9\"", `"soft\u00adhyphen\ufeff\u0600\ufff9"`},
		{"\"tag\U000e0001\U000e0041\U000e007f\"", `"tag\udb40\udc01\udb40\udc41\udb40\udc7f"`},
		{"\"\u200e\u200f\u202a\u202b\u202c\u202d\u2067\u2068\u2069\u2029\"", `"\u200e\u200f\u202a\u202b\u202c\u202d\u2067\u2068\u2069\u2029"`},
		// Kept: emoji with a variation selector (Mn), CJK, private use.
		{"\"❤\ufe0f 日本 \ue000\"", "\"❤\ufe0f 日本 \ue000\""},
	}
	for _, c := range cases {
		if got := JSONText(c.in); got != c.want {
			t.Errorf("JSONText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The escaped set is exactly C0 (but tab and newline), DEL, C1, Cf and
// U+2028/U+2029: checked over every code point, through the fast scan.
func TestJSONTextEscapesExactlyTheDocumentedSet(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		want := r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7f && r <= 0x9f ||
			r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
		s := "ab" + string(r) + "cdefghijk"
		got := JSONText(s)
		if escaped := got != s; escaped != (want || r == '\r') {
			t.Fatalf("%U: escaped %v, want %v (%q)", r, escaped, want, got)
		}
		if EscapesInJSON(r) != want {
			t.Fatalf("EscapesInJSON(%U) = %v", r, !want)
		}
	}
}

// assertJSONSafe fails when out holds a character JSON output escapes.
func assertJSONSafe(t *testing.T, in, out string) {
	t.Helper()
	for _, r := range out {
		if r == '\r' || r == utf8.RuneError || EscapesInJSON(r) {
			t.Fatalf("JSONText(%q) left %U raw: %q", in, r, out)
		}
	}
}

// FuzzJSONText: valid JSON stays valid and decodes to the same value (with
// invalid UTF-8 read as U+FFFD, as both Go and Pi read it), and nothing
// the rule escapes is left raw.
func FuzzJSONText(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, "[\"\u009b\",\"\u202e\"]", "\"\xff\"", "{\"k\u2066\":1}\r", "\"\x7f\"", "\x1b[2J",
		"\"\U000e0041\u00ad\ufeff\"", "\"\xf3\xa0\x81\"", "[\"😀\u200d😀\"]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := JSONText(s)
		assertJSONSafe(t, s, out)
		if JSONText(out) != out {
			t.Fatalf("not idempotent on %q", s)
		}
		// Values as Pi reads them (jsonv: JSON.parse over Node's UTF-8).
		before, err := jsonv.Parse([]byte(s))
		if err != nil {
			return
		}
		after, err := jsonv.Parse([]byte(out))
		if err != nil {
			t.Fatalf("JSONText(%q) = %q is not valid JSON: %v", s, out, err)
		}
		if jsonv.Stringify(before) != jsonv.Stringify(after) {
			t.Fatalf("JSONText(%q) changed the value: %s -> %s", s, jsonv.Stringify(before), jsonv.Stringify(after))
		}
		// And as Go reads them.
		var gb, ga any
		if json.Unmarshal([]byte(s), &gb) == nil {
			if err := json.Unmarshal([]byte(out), &ga); err != nil {
				t.Fatalf("Go rejects %q: %v", out, err)
			}
		}
	})
}

// FuzzJSONWriter: whatever the writes are cut into, the writer's output
// is JSONText of the whole.
func FuzzJSONWriter(f *testing.F) {
	f.Add("{\"a\":\"x\u009b\u202ey\"}\n", uint16(3), uint16(5))
	f.Add("\"\U000e0041\xe2\x80\"", uint16(1), uint16(1))
	f.Add(strings.Repeat("é\u200b", 400), uint16(700), uint16(7))
	f.Fuzz(func(t *testing.T, s string, a, b uint16) {
		var out bytes.Buffer
		jw := NewJSONWriter(&out)
		rest := s
		for i := 0; len(rest) > 0; i++ {
			n := int(a)
			if i%2 == 1 {
				n = int(b)
			}
			n = max(1, min(n, len(rest)))
			var err error
			if i%3 == 0 {
				_, err = jw.WriteString(rest[:n])
			} else {
				_, err = jw.Write([]byte(rest[:n]))
			}
			if err != nil {
				t.Fatal(err)
			}
			rest = rest[n:]
		}
		if err := jw.Flush(); err != nil {
			t.Fatal(err)
		}
		if want := JSONText(s); out.String() != want {
			t.Fatalf("writes of %d/%d bytes of %q gave %q, want %q", a, b, s, out.String(), want)
		}
	})
}

func TestJSONWriterPassesCleanWritesAsTheyAre(t *testing.T) {
	var out bytes.Buffer
	jw := NewJSONWriter(&out)
	doc := strings.Repeat(`{"a":"plain text, naïve ✓ 日本"}`+"\n", 10000)
	if _, err := jw.Write([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	if out.String() != doc {
		t.Fatal("clean JSON changed")
	}
	// A character cut by the end of a write waits for the next one.
	out.Reset()
	jw.Write([]byte("\"a\xe2\x80"))
	if out.String() != `"a` {
		t.Fatalf("%q", out.String())
	}
	jw.Write([]byte("\xae\""))
	if out.String() != `"a\u202e"` {
		t.Fatalf("%q", out.String())
	}
	// One never completed is written by Flush as U+FFFD.
	out.Reset()
	jw.Write([]byte("\"b\xf0\x9f"))
	jw.Flush()
	if out.String() != `"b\ufffd` {
		t.Fatalf("%q", out.String())
	}
}

func BenchmarkJSONTextClean(b *testing.B) {
	s := strings.Repeat(`{"role":"assistant","content":[{"type":"text","text":"Here is the “fix” — naïve ✓ 日本語 🙂\n  func main() {}"}]}`+"\n", 20000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if JSONText(s) != s {
			b.Fatal("changed")
		}
	}
}

func BenchmarkJSONTextASCII(b *testing.B) {
	s := strings.Repeat(`{"type":"message","id":"4ece346b","parentId":"34408151","message":{"role":"user","content":"list the files"}}`+"\n", 20000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if JSONText(s) != s {
			b.Fatal("changed")
		}
	}
}

func BenchmarkJSONTextDirty(b *testing.B) {
	s := strings.Repeat(`{"text":"a\u009b31m b`+"\u202e"+`c"}`+"\n", 20000)
	s = strings.ReplaceAll(s, `\u009b`, "\u009b")
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = JSONText(s)
	}
}
