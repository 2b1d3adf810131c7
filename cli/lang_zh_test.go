package cli

import (
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
)

// --help in Chinese: kong's words, the command and flag help, every line
// within the width (Chinese has no spaces to wrap at).
func TestHelpInChinese(t *testing.T) {
	languageEnv(t, "", "C")
	t.Setenv("COLUMNS", "80")
	for _, args := range [][]string{{"--lang", "zh-CN", "--help"}, {"--lang=zh-CN", "preset", "--help"}, {"--lang", "zh-CN", "session", "context", "--help"}} {
		code, out, errOut := runCLI(t, args...)
		if code != exitOK || errOut != "" {
			t.Fatalf("%v: exit %d, %q", args, code, errOut)
		}
		for _, want := range []string{"用法：forgebench ", "[标志]", "标志：", "  -h, --help ", "显示与上下文相关的帮助。", "项目目录（默认：当前目录）。"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: no %q in\n%s", args, want, out)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("%v: line %d columns wide: %q", args, w, l)
			}
			if strings.HasPrefix(strings.TrimSpace(l), "，") || strings.HasPrefix(strings.TrimSpace(l), "。") {
				t.Errorf("%v: a line starts with closing punctuation: %q", args, l)
			}
		}
	}
	_, out, _ := runCLI(t, "--lang", "zh-CN", "preset", "--help")
	for _, want := range []string{"命令：", "preset list ", "列出项目与全局范围的预设。"} {
		if !strings.Contains(out, want) {
			t.Errorf("preset --help: no %q in\n%s", want, out)
		}
	}
	i18n.SetLanguage(i18n.SimplifiedChinese)
	tag := "Entry id to rebuild the context at (default: the last entry, as Pi does).${leaf_help}"
	if got := localHelp(tag, ""); got != "在哪个条目 id 处重建上下文（默认：最后一个条目，与 Pi 相同）。"+i18n.T(leafHelp) {
		t.Errorf("the leaf help is not interpolated after the translation: %q", got)
	}
}

// The locale decides before kong prints help: no --lang needed.
func TestHelpFollowsTheLocale(t *testing.T) {
	languageEnv(t, "", "zh_CN.UTF-8")
	if _, out, _ := runCLI(t, "preset", "--help"); !strings.HasPrefix(out, "用法：forgebench preset <命令> [标志]\n") {
		t.Errorf("LANG=zh_CN.UTF-8 preset --help:\n%s", out)
	}
	languageEnv(t, `{"language":"zh-CN"}`, "C")
	if _, out, _ := runCLI(t, "--help"); !strings.HasPrefix(out, "用法：") {
		t.Errorf("settings language zh-CN, --help:\n%s", out)
	}
	languageEnv(t, "", "zh_CN.UTF-8")
	if _, out, _ := runCLI(t, "--lang", "en", "preset", "--help"); !strings.HasPrefix(out, "Usage: forgebench preset <command> [flags]\n") {
		t.Errorf("--lang en over the locale:\n%s", out)
	}
}

// English help is kong's own printer, byte for byte.
func TestEnglishHelpIsKongs(t *testing.T) {
	languageEnv(t, "", "C")
	_, got, _ := runCLI(t, "preset", "--help")
	var cli CLI
	var want strings.Builder
	parser, err := kong.New(&cli, kong.Name("forgebench"), kong.Writers(&want, &want), kong.Exit(func(int) {}),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, Summary: true}), kong.Vars{"leaf_help": leafHelp})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = parser.Parse([]string{"preset", "--help"})
	if got != want.String() {
		t.Errorf("English help differs from kong's:\n%s\nwant\n%s", got, want.String())
	}
}

// Every help text kong holds — as kong parsed the tag — has a Chinese
// translation (the i18n tests read the tags from the source; this reads
// them from the model kong builds).
func TestEveryHelpTagIsTranslated(t *testing.T) {
	var cli CLI
	parser, err := kong.New(&cli, kong.Vars{"leaf_help": leafHelp})
	if err != nil {
		t.Fatal(err)
	}
	check := func(where, key string) {
		if key != "" && i18n.In(i18n.SimplifiedChinese, key) == key {
			t.Errorf("%s: no zh-CN translation of %q", where, key)
		}
	}
	_ = kong.Visit(parser.Model, func(n kong.Visitable, next kong.Next) error {
		switch n := n.(type) {
		case *kong.Node:
			if n.Tag != nil {
				check(n.Path(), n.Tag.Help)
			} else {
				check("forgebench", n.Help)
			}
		case *kong.Value:
			check(n.Name, n.OrigHelp)
		}
		return next(nil)
	})
}

// kong's usage errors and forgebench's own in Chinese, exit codes as in
// English.
func TestUsageErrorsInChinese(t *testing.T) {
	languageEnv(t, "", "C")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--lang", "zh-CN", "preset", "lst"}, exitUsage, `forgebench: 意外的参数 lst，您是指 "list", "use" 之一吗？`},
		{[]string{"--lang", "zh-CN", "--frob"}, exitUsage, "forgebench: 未知标志 --frob\n"},
		{[]string{"--lang", "zh-CN", "preset", "show"}, exitUsage, `forgebench: 缺少 "<selector>"`},
		{[]string{"--lang", "zh-CN", "--trust", "--no-trust", "version"}, exitUsage, "forgebench: --trust 和 --no-trust 不能同时使用"},
		{[]string{"--lang", "zh-CN", "preset", "validate", "--all", "x"}, exitUsage, "forgebench: --all 会校验每个预设；请指定预设或使用 --all，不能同时使用"},
		{[]string{"--lang", "zh-CN", "template", "render"}, exitUsage, "forgebench: 请给出模板 FILE 或 --request FILE|-"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	// The same in English, unchanged.
	if _, _, errOut := runCLI(t, "preset", "lst"); errOut != "forgebench: unexpected argument lst, did you mean one of \"list\", \"use\"?\n" {
		t.Errorf("English usage error changed: %q", errOut)
	}
}

// Human output in Chinese; JSON output the same bytes in both languages;
// pi-forge's own messages (contract) untranslated.
func TestPresetOutputInChinese(t *testing.T) {
	languageEnv(t, "", "C")
	args, _ := demoArgs(t)
	_, out, _ := runCLI(t, in(args, "--lang", "zh-CN", "preset", "list")...)
	for _, want := range []string{"1 个错误，0 个警告", "（经由配置档 project:tdd-worker 自动激活）"} {
		if !strings.Contains(out, want) {
			t.Errorf("preset list: no %q in\n%s", want, out)
		}
	}
	_, out, _ = runCLI(t, in(args, "--lang", "zh-CN", "preset", "show", "pi-mirror")...)
	for _, want := range []string{"路径      ", "修订      ", "模式      "} {
		if !strings.Contains(out, want) {
			t.Errorf("preset show: no %q in\n%s", want, out)
		}
	}
	for _, cmd := range [][]string{{"preset", "list", "--json"}, {"preset", "show", "pi-mirror", "--json"}, {"profile", "list", "--json"}, {"capability", "list", "--json"}, {"preset", "validate", "--all", "--json"}, {"preset", "preview", "pi-mirror", "--json"}} {
		codeEn, en, _ := runCLI(t, in(in(args, "--lang", "en"), cmd...)...)
		codeZh, zh, _ := runCLI(t, in(in(args, "--lang", "zh-CN"), cmd...)...)
		if en != zh || codeEn != codeZh || en == "" {
			t.Errorf("%v: JSON differs between languages (exit %d/%d):\n%s\n%s", cmd, codeEn, codeZh, en, zh)
		}
	}
	code, _, errOut := runCLI(t, in(args, "--lang", "zh-CN", "preset", "delete", "pi-mirror", "--revision", "x")...)
	if code != exitUsage || !strings.Contains(errOut, "A valid expectedSourceRevision is required.") {
		t.Errorf("pi-forge's message must stay as pi-forge writes it: exit %d, %q", code, errOut)
	}
}

func TestEarlyLang(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"--lang", "zh-CN", "--help"}, "zh-CN"},
		{[]string{"preset", "--lang=zh-CN"}, "zh-CN"},
		{[]string{"--lang=en", "--lang", "zh-CN"}, "zh-CN"},
		{[]string{"template", "render", "--", "--lang", "zh-CN"}, ""},
		{[]string{"--lang"}, ""},
	} {
		if got := earlyLang(c.args); got != c.want {
			t.Errorf("earlyLang(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

func TestWrapLines(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  []string
	}{
		{"a b c", 20, []string{"a b c"}},
		{"显示与上下文相关的帮助。显示与上下文相关的帮助。", 20, []string{"显示与上下文相关的帮", "助。显示与上下文相关", "的帮助。"}},
		{"颜色主题（遵循 NO_COLOR）；优先于设置文件", 20, []string{"颜色主题（遵循", "NO_COLOR）；优先于设", "置文件"}},
		{"", 20, nil},
	} {
		got := wrapLines(c.text, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapLines(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}

// The manual page is English whatever the language (a packaged file).
func TestManPageIsEnglishInEveryLanguage(t *testing.T) {
	languageEnv(t, "", "zh_CN.UTF-8")
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	_, zh, _ := runCLI(t, "man")
	_, en, _ := runCLI(t, "--lang", "en", "man")
	if zh != en || !strings.Contains(en, "SYNOPSIS") {
		t.Errorf("man differs between languages")
	}
}
