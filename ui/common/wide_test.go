package common

import (
	"strings"
	"testing"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/themes"
)

// wideSamples are texts of double-width characters, alone and mixed with
// ASCII, so a cut lands in the middle of a character at every odd width.
var wideSamples = []string{
	"会话 修复缓存命中率",
	"中文中文中文中文中文中文中文中文",
	"a中b文c混合 mixed 文本 text",
	"/home/用户/项目/演示-应用/会话.jsonl",
	"预设 project:guarded-worker（分支：▶ global:reviewer）",
}

// intact fails when s is not whole characters: invalid UTF-8 or the
// replacement character a split double-width character leaves.
func intact(t *testing.T, what, s string) {
	t.Helper()
	plain := ansi.Strip(s)
	if !utf8.ValidString(plain) || strings.ContainsRune(plain, utf8.RuneError) {
		t.Fatalf("%s cut a character: %q", what, plain)
	}
}

// Truncation never cuts a double-width character in half, and the result
// is never wider than asked: MiddleEllipsis, ShortenPath, FitLine, Fit,
// Frame (titles, info, lines), WrapWhole and Wrap, at every width.
func TestTruncationKeepsWideCharactersWhole(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	for _, s := range wideSamples {
		for w := 0; w <= ansi.StringWidth(s)+2; w++ {
			for what, got := range map[string]string{
				"MiddleEllipsis": MiddleEllipsis(s, w),
				"ShortenPath":    ShortenPath(s, w),
				"FitLine":        FitLine(s, w),
			} {
				intact(t, what, got)
				if gw := ansi.StringWidth(got); gw > w {
					t.Fatalf("%s(%q, %d) is %d cells: %q", what, s, w, gw, got)
				}
			}
			if gw := ansi.StringWidth(FitLine(s, w)); gw != w {
				t.Fatalf("FitLine(%q, %d) is %d cells", s, w, gw)
			}
			for _, line := range WrapWhole(s, w) {
				intact(t, "WrapWhole", line)
				if ansi.StringWidth(line) > max(w, 2) { // a lone wide character on a line of one cell
					t.Fatalf("WrapWhole(%q, %d): %q", s, w, line)
				}
			}
			for _, line := range Wrap(s, w) {
				intact(t, "Wrap", line)
			}
			if w >= 6 {
				frame := Frame(st, w, 4, s, s, w%2 == 0, []string{s, "x" + s})
				for i, line := range strings.Split(frame, "\n") {
					intact(t, "Frame", line)
					if lw := ansi.StringWidth(line); lw != w {
						t.Fatalf("Frame at width %d: line %d is %d cells: %q", w, i, lw, ansi.Strip(line))
					}
				}
			}
		}
	}
}

// FitFields and FitHints fit Chinese labels and help texts to one line at
// every width, whole or left out, never cut in half.
func TestOneLineBarsFitChinese(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	fields := []Field{
		{Value: "forgebench", Drop: 80},
		{Label: "目录", Value: "/home/用户/项目/演示", Path: true, Min: 8, Cut: 90, Drop: 30},
		{Label: "会话", Value: "修复缓存命中率的问题", Min: 6, Cut: 50},
		{Label: "条目", Value: "e1f2a3b4（叶节点）", Short: "e1f2a3b4 ●", Shorten: 85},
	}
	hints := Ranked(0,
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "打开")),
		key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "新建预设")),
		key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "帮助")))
	for w := 0; w <= 120; w++ {
		line := FitFields(fields, st.App.HeaderKey, " │ ", w)
		intact(t, "FitFields", line)
		if lw := ansi.StringWidth(line); lw > w || strings.Contains(line, "\n") {
			t.Fatalf("FitFields at %d: %d cells: %q", w, lw, ansi.Strip(line))
		}
		hl, _ := FitHints(&st, hints, w)
		intact(t, "FitHints", hl)
		if lw := ansi.StringWidth(hl); lw > w {
			t.Fatalf("FitHints at %d: %d cells: %q", w, lw, ansi.Strip(hl))
		}
	}
}

// A list's row cache is keyed by the language (ThemeKey carries it): after
// a switch the rows are drawn again, and switching back draws the first
// language's rows, not the other's.
func TestListRowsFollowTheLanguage(t *testing.T) {
	defer i18n.SetLanguage(i18n.Current())
	i18n.SetLanguage(i18n.English)
	st := themes.For(themes.Dark, true, false)
	l := NewList(func(n int, rs RowState) string { return i18n.T("%d matches", n) })
	l.SetItems([]int{1, 2})
	en := strings.Join(l.View(&st, 30, 3, true), "\n")
	i18n.SetLanguage(i18n.SimplifiedChinese)
	zh := strings.Join(l.View(&st, 30, 3, true), "\n")
	if !strings.Contains(zh, "2 个匹配") || strings.Contains(zh, "matches") {
		t.Fatalf("the rows kept the English text after the switch:\n%s", zh)
	}
	i18n.SetLanguage(i18n.English)
	if again := strings.Join(l.View(&st, 30, 3, true), "\n"); again != en || !strings.Contains(en, "1 match") {
		t.Fatalf("back in English:\n%s\n--- was\n%s", again, en)
	}
}

// Key help is translated where it is drawn; the key name never is.
func TestHelpTextIsTranslatedWhereDrawn(t *testing.T) {
	defer i18n.SetLanguage(i18n.Current())
	i18n.SetLanguage(i18n.SimplifiedChinese)
	b := key.NewBinding(key.WithKeys("q"), key.WithHelp("q", i18n.Mark("quit")))
	if got := HelpDesc(b); got != "退出" {
		t.Fatalf("HelpDesc %q", got)
	}
	if got := KeyHint([]key.Binding{b}); got != "q 退出" {
		t.Fatalf("KeyHint %q", got)
	}
	loc := Localized([]key.Binding{b})
	if loc[0].Help().Desc != "退出" || loc[0].Help().Key != "q" || b.Help().Desc != "quit" {
		t.Fatalf("Localized %+v, the original %+v", loc[0].Help(), b.Help())
	}
}

func FuzzTruncateWide(f *testing.F) {
	for _, s := range wideSamples {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, s string, w int) {
		if !utf8.ValidString(s) || w < 0 || w > 200 {
			return
		}
		for what, got := range map[string]string{"MiddleEllipsis": MiddleEllipsis(s, w), "ShortenPath": ShortenPath(s, w), "FitLine": FitLine(s, w)} {
			if ansi.StringWidth(got) > w {
				t.Fatalf("%s(%q, %d) = %q is wider", what, s, w, got)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("%s(%q, %d) = %q is not UTF-8", what, s, w, got)
			}
		}
	})
}
