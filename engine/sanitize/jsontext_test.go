package sanitize

import (
	"testing"

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
		{"{\n\t\"a\": \"naïve ✓ 🙂\"\n}", "{\n\t\"a\": \"naïve ✓ 🙂\"\n}"},
		{"malformed \x1b]52;c;aGk=\x07", `malformed \u001b]52;c;aGk=\u0007`},
	}
	for _, c := range cases {
		if got := JSONText(c.in); got != c.want {
			t.Errorf("JSONText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzJSONText: valid JSON stays valid and decodes to the same value (with
// invalid UTF-8 read as U+FFFD, as both Go and Pi read it), and nothing a
// terminal acts on is left raw.
func FuzzJSONText(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, "[\"\u009b\",\"\u202e\"]", "\"\xff\"", "{\"k\u2066\":1}\r", "\"\x7f\"", "\x1b[2J"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := JSONText(s)
		for _, r := range out {
			if r == 0x1b || r == 0x07 || r == '\r' || r == 0x7f || r >= 0x80 && r <= 0x9f || isBidiOrSeparatorRune(r) {
				t.Fatalf("JSONText(%q) left %U raw: %q", s, r, out)
			}
		}
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
	})
}
