package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestTextStripsHostileSequences(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"osc52 clipboard write (BEL)", "before\x1b]52;c;cm0gLXJmIC8K\x07after", "beforeafter"},
		{"osc52 clipboard write (ST)", "a\x1b]52;c;Zm9v\x1b\\b", "ab"},
		{"clear screen", "x\x1b[2Jy", "xy"},
		{"cursor home and colour", "\x1b[H\x1b[31mred\x1b[0m", "red"},
		{"carriage return overwrite", "safe\rEVIL", "safeEVIL"},
		{"tab becomes spaces", "a\tb", "a    b"},
		{"newlines kept", "one\ntwo", "one\ntwo"},
		{"bell, backspace, nul, del", "a\x07b\x08c\x00d\x7fe", "abcde"},
		{"c1 csi", "a\u009b31mb", "a31mb"},
		{"osc title", "\x1b]0;pwned\x07ok", "ok"},
		{"dcs", "\x1bP1$r0m\x1b\\ok", "ok"},
		{"bidi override", "abc\u202edef\u202c", "abcdef"},
		{"bidi isolate and marks", "a\u2066b\u2069c\u200ed\u200f", "abcd"},
		{"arabic letter mark (bidi control)", "a\u061cb", "ab"},
		{"line separator", "line\u2028sep\u2029", "linesep"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"plain ascii untouched", "hello world", "hello world"},
		{"unicode kept", "naïve — ✓ 日本 🙂", "naïve — ✓ 日本 🙂"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.in); got != c.want {
				t.Fatalf("Text(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestOneRowForms(t *testing.T) {
	in := "  a\n\n b\x1b[2J\tc  "
	if got := Line(in); got != "  a   b    c  " {
		t.Errorf("Line keeps spacing, newlines become spaces: got %q", got)
	}
	if got := Fold(in); got != "a b c" {
		t.Errorf("Fold folds runs of white space: got %q", got)
	}
	if got := Fold("tidy line"); got != "tidy line" {
		t.Errorf("Fold(tidy) = %q", got)
	}
	if got := Fold("a\u00a0\u00a0b"); got != "a b" {
		t.Errorf("Fold folds Unicode spaces too: got %q", got)
	}
	if got := Clip("a\n\n  b\tc", 10); got != "a b c" {
		t.Errorf("Clip short = %q", got)
	}
	if got := Clip(strings.Repeat("x", 20), 5); got != "xxxx…" {
		t.Errorf("Clip long = %q", got)
	}
	if got := Clip("日本語テキスト", 3); got != "日本…" {
		t.Errorf("Clip counts runes: %q", got)
	}
	if got := Clip("abc", 0); got != "…" {
		t.Errorf("Clip(…, 0) = %q", got)
	}
}

func TestHasControl(t *testing.T) {
	for in, want := range map[string]bool{
		"plain\ttext\nmore": false,
		"naïve 日本":          false,
		"esc \x1b[31m":      true,
		"cr\r":              true,
		"c1 \u0085":         true,
		"bidi \u202e":       true,
		"sep \u2028":        true,
		"bad \xff utf8":     false,
	} {
		if got := HasControl(in); got != want {
			t.Errorf("HasControl(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestScreenKeepsStylingAndDropsEverythingElse(t *testing.T) {
	in := "\x1b[1;38;5;111mok\x1b[0m a\rb\x1b[2Jc\x1b]52;c;aGk=\x07d\x1b]0;t\x1b\\e\u0085f\n\x1b[31mg\x1b[m\x07"
	want := "\x1b[1;38;5;111mok\x1b[0m abcdef\n\x1b[31mg\x1b[m"
	if got := Screen(in); got != want {
		t.Fatalf("Screen(%q)\n got %q\nwant %q", in, got, want)
	}
	// An unterminated SOS string before a multi-byte character left the
	// character's last byte, 0x9b (8-bit CSI), raw (found by FuzzScreen).
	if got := Screen("\x1bX0眛"); !utf8.ValidString(got) || strings.ContainsRune(got, 0x9b) || Screen(got) != got {
		t.Errorf("Screen(unterminated SOS) = %q", got)
	}
	// A raw 0x9b is an 8-bit CSI: it must not survive with its parameters.
	if got := Screen("a\x9b2J\rb"); got != "a\uFFFD2Jb" {
		t.Errorf("Screen(8-bit CSI) = %q", got)
	}
	// Bidi controls and line separators reorder or break what a view drew.
	if got := Screen("\x1b[1mid\x1b[0m a\u202eb\u2066c\u2069d\u061ce\u200ff\u2028g"); got != "\x1b[1mid\x1b[0m abcdefg" {
		t.Errorf("Screen(bidi) = %q", got)
	}
	plain := "\x1b[1mplain\x1b[0m │ text\n"
	if Screen(plain) != plain {
		t.Fatal("styled text without hazards must pass unchanged")
	}
}

// isControlRune reports what may never reach the screen from file text.
func isControlRune(r rune) bool {
	return r != '\n' && (r < 0x20 || r >= 0x7f && r < 0xa0 || isHazard(r))
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"\x1b]52;c;abc\x07", "\x1b[2J", "a\rb\r\n", "\x9b1m", "\u009b31m", "a\tb", "\xff\xfe", "\x1b", "a\u202eb", "  x  y "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if isControlRune(r) {
				t.Fatalf("control %U survived: %q -> %q", r, s, out)
			}
		}
		if HasControl(out) {
			t.Fatalf("HasControl sees a hazard Text left: %q", out)
		}
		if Text(out) != out {
			t.Fatalf("Text is not idempotent on %q", s)
		}
		for name, one := range map[string]string{"Line": Line(s), "Fold": Fold(s), "Clip": Clip(s, 20)} {
			if strings.ContainsRune(one, '\n') {
				t.Fatalf("%s kept a newline for %q: %q", name, s, one)
			}
		}
		if got := Fold(s); got != strings.Join(strings.Fields(out), " ") {
			t.Fatalf("Fold(%q) = %q: the fast path disagrees with folding", s, got)
		}
		if n := utf8.RuneCountInString(Clip(s, 20)); n > 20 {
			t.Fatalf("Clip(%q, 20) has %d runes", s, n)
		}
	})
}

func FuzzScreen(f *testing.F) {
	for _, s := range []string{"\x1b[1mok\x1b[0m", "\x1b]0;t\x07", "a\rb", "\u0085", "\x1b[31", "\x1b[?25l", "\x1bP1$r\x1b\\", "a\u202eb\u061c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Screen(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Screen(%q) = %q is not valid UTF-8 (a raw 0x80–0x9f byte is a C1 control)", s, out)
		}
		// What is left is text, newlines and SGR sequences only.
		rest := out
		for len(rest) > 0 {
			seq, _, n, _ := ansi.DecodeSequence(rest, 0, nil)
			if n <= 0 {
				break
			}
			switch {
			case seq == "\n", isSGR(seq):
			case seq[0] == '\x1b' || seq[0] < 0x20 || seq[0] == 0x7f || isC1(seq) || isBidiOrSeparator(seq):
				t.Fatalf("Screen(%q) kept %q", s, seq)
			}
			rest = rest[n:]
		}
		if Screen(out) != out {
			t.Fatalf("Screen is not idempotent on %q", s)
		}
	})
}

func BenchmarkScreenClean(b *testing.B) {
	view := strings.Repeat("\x1b[1;38;5;111m│ preset\x1b[0m  name of the thing  ok\n", 48)
	for b.Loop() {
		_ = Screen(view)
	}
}
