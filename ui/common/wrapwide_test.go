package common

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

const (
	closing = "，。：；？！）」』、"
	opening = "（「『"
)

// checkWrapped fails when a line is wider than width, starts with closing
// or ends with opening punctuation, or when the lines are not the text's
// characters in order (a character cut or lost: only spaces may go).
func checkWrapped(t *testing.T, text string, width int, lines []string, punct bool) {
	t.Helper()
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width && hasWide(text) {
			t.Fatalf("%q at %d: line %d is %d wide: %q", text, width, i, w, lines)
		}
		if !utf8.ValidString(l) {
			t.Fatalf("%q at %d: line %d cuts a character: %q", text, width, i, l)
		}
		plain := strings.TrimSpace(ansi.Strip(l))
		if punct && plain != "" && i > 0 && strings.ContainsRune(closing, []rune(plain)[0]) && ansi.StringWidth(ansi.Strip(lines[i-1])) > 2 {
			t.Errorf("%q at %d: line %d starts with closing punctuation: %q", text, width, i, lines)
		}
		if r := []rune(plain); punct && len(r) > 1 && i < len(lines)-1 && strings.ContainsRune(opening, r[len(r)-1]) {
			t.Errorf("%q at %d: line %d ends with opening punctuation: %q", text, width, i, lines)
		}
	}
	squeeze := func(s string) string { return strings.NewReplacer(" ", "", "\n", "").Replace(ansi.Strip(s)) }
	if got, want := squeeze(strings.Join(lines, "")), squeeze(text); got != want {
		t.Fatalf("%q at %d: characters changed:\n got %q\nwant %q", text, width, got, want)
	}
}

// Chinese prose breaks between characters, and never puts closing
// punctuation at the start of a line nor opening at the end.
func TestWrapBreaksChineseAtItsPunctuation(t *testing.T) {
	text := "按键覆盖无效，请检查设置文件（位于配置目录）。「预设」已保存：共 3 个会话！退出 forgebench？"
	for width := 4; width <= 40; width++ {
		for _, wrap := range []func(string, int) []string{Wrap, WrapWhole} {
			lines := wrap(text, width)
			checkWrapped(t, text, width, lines, width >= 6) // narrower, "录）。" is a line of its own
			for i, l := range lines[:len(lines)-1] {        // filled: the next line's first unbreakable run would not fit
				last := []rune(l)[len([]rune(l))-1]
				if run := leadingRun(lines[i+1]); run > 0 && last >= utf8.RuneSelf && ansi.StringWidth(l)+run <= width {
					t.Errorf("width %d: line %d is short: %q", width, i, lines)
				}
			}
		}
	}
	if got := Wrap("好的，谢谢", 4); strings.Join(got, "|") != "好|的，|谢谢" {
		t.Errorf("a comma goes with the character before it: %q", got)
	}
	if got := WrapWhole("（注意）", 4); strings.Join(got, "|") != "（注|意）" {
		t.Errorf("an opening bracket goes with the character after it: %q", got)
	}
}

// Styling survives the breaks of wide text, and styled text wraps where
// its plain text would.
func TestWrapWideKeepsStyling(t *testing.T) {
	text := "\x1b[1m按键覆盖无效，\x1b[0m请检查设置文件。"
	lines := Wrap(text, 10)
	checkWrapped(t, text, 10, lines, true)
	if strings.Join(lines, "") != strings.ReplaceAll(text, "\n", "") || !strings.Contains(lines[0], "\x1b[1m") {
		t.Errorf("escapes lost or moved: %q", lines)
	}
	plain := Wrap(ansi.Strip(text), 10)
	for i := range plain {
		if ansi.Strip(lines[i]) != plain[i] {
			t.Errorf("line %d: %q, plain %q", i, lines, plain)
		}
	}
}

// FuzzWrap: no line of wide text wider than the width, no character cut
// or lost, and text without wide characters wrapped exactly as before
// (ansi.Wrap for Wrap; WrapWhole's own rule untouched). The width is
// checked for wide text only: ansi.Wrap itself lets " 000" at width 3
// make a line of 4, and English output stays what it was.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{"hello world, a line of prose", "按键覆盖无效，请检查设置文件（位于配置目录）。",
		"退出 forgebench？ 3 个会话", "\x1b[31m红色\x1b[0m text", "a-b-c ctrl+s 「引用」", "  缩进 的 行\n第二行"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, text string, width int) {
		if width < 2 || width > 200 || !utf8.ValidString(text) || strings.ContainsAny(text, "\t\r\x1b") || hasControl(text) {
			return
		}
		lines := Wrap(text, width)
		checkWrapped(t, text, width, lines, false)
		checkWrapped(t, text, width, WrapWhole(text, width), false)
	})
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return true
		}
	}
	return false
}

// leadingRun is the width of the characters a line starts with that no
// break may separate: a wide character with the opening punctuation before
// it and the closing punctuation after it; 0 when the line starts with a
// narrow character.
func leadingRun(line string) int {
	r := []rune(line)
	i, w := 0, 0
	for i < len(r) && strings.ContainsRune(opening, r[i]) {
		w, i = w+2, i+1
	}
	if i == len(r) || ansi.StringWidth(string(r[i])) != 2 {
		return 0
	}
	w, i = w+2, i+1
	for i < len(r) && strings.ContainsRune(closing, r[i]) {
		w, i = w+2, i+1
	}
	return w
}
