package transcript

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitizeStripsHostileSequences(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"osc52 clipboard write (BEL)", "before\x1b]52;c;cm0gLXJmIC8K\x07after", "beforeafter"},
		{"osc52 clipboard write (ST)", "a\x1b]52;c;Zm9v\x1b\\b", "ab"},
		{"clear screen", "x\x1b[2Jy", "xy"},
		{"cursor home and colour", "\x1b[H\x1b[31mred\x1b[0m", "red"},
		{"carriage return overwrite", "safe\rEVIL", "safeEVIL"},
		{"tab becomes spaces", "a\tb", "a    b"},
		{"newlines kept", "one\ntwo", "one\ntwo"},
		{"bell and backspace", "a\x07b\x08c", "abc"},
		{"c1 csi", "a\u009b31mb", "a31mb"},
		{"osc title", "\x1b]0;pwned\x07ok", "ok"},
		{"dcs", "\x1bP1$r0m\x1b\\ok", "ok"},
		{"bidi override", "abc\u202edef", "abcdef"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"plain ascii untouched", "hello world", "hello world"},
		{"unicode kept", "naïve — ✓ 日本", "naïve — ✓ 日本"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Sanitize(c.in)
			if got != c.want {
				t.Fatalf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
			}
			for _, r := range got {
				if r == 0x1b || r == '\r' || (r < 0x20 && r != '\n') || (r >= 0x80 && r < 0xa0) {
					t.Fatalf("control %U survived in %q", r, got)
				}
			}
		})
	}
}

func TestSanitizeLineCollapsesWhitespace(t *testing.T) {
	if got := SanitizeLine("  a\n\n b\x1b[2J\tc  "); got != "a b c" {
		t.Fatalf("SanitizeLine = %q", got)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"\x1b]52;c;abc\x07", "\x1b[2J", "\r\n", "\x9b1m", "a\tb", "\xff\xfe", "\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Sanitize(s)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		if strings.ContainsAny(got, "\x1b\r\x07\x08") {
			t.Fatalf("control survived: %q -> %q", s, got)
		}
		for _, r := range got {
			if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 {
				t.Fatalf("control %U survived: %q -> %q", r, s, got)
			}
		}
		if strings.Contains(SanitizeLine(s), "\n") {
			t.Fatalf("SanitizeLine kept a newline for %q", s)
		}
	})
}
