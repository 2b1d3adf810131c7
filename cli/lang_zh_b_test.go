package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
)

// The session, agents, payload, cache and search commands in Chinese: the
// chrome translated, the data as it is, and every --json output the same
// bytes (and exit code) in both languages.
func TestSessionCommandsInChinese(t *testing.T) {
	languageEnv(t, "", "C")
	args, _ := demoArgs(t)
	zh := in(args, "--lang", "zh-CN")
	for _, c := range []struct {
		cmd  []string
		want []string
	}{
		{[]string{"session", "list"}, []string{" 条消息  ", "Pre-release review"}},
		{[]string{"session", "show", "01a2219b"}, []string{"文件           ", "工作目录       ", "叶节点         ", "条目           56（跳过的行：0）"}},
		{[]string{"session", "stats", "01a2219b"}, []string{"整个会话 · 56 个条目", "消息         28（用户 4，助手 12，工具结果 9）", "\n提示词缓存\n", "  分支     读取 ", "按 Pi 的计数有 2 次中断"}},
		{[]string{"agents", "list", "01a2219b"}, []string{"4 个代理", "合计  4 个代理 · ", "10 个请求 · 6 次工具调用"}},
		{[]string{"agents", "show", "invoice_review", "-s", "01a2219b"}, []string{"父级           /root\n", "运行插槽       树中 0/4 个活跃运行\n", "\n最近活动（"}},
		{[]string{"payload", "show", "session:01a2219b"}, []string{"助手条目 33a03556 的请求 · 35 个块 · ~", "模型 anthropic/claude-sonnet-4-5 · 7 个工具"}},
		{[]string{"cache", "report"}, []string{"3 个会话 · 29 个请求 · 缓存命中率 74.1%", "\n花费最多的 3 次中断\n"}},
		{[]string{"search", "invoice"}, []string{"活动分支\n", "个命中，分布在 "}},
	} {
		code, out, errOut := runCLI(t, in(zh, c.cmd...)...)
		if code != exitOK {
			t.Errorf("%v: exit %d, %s", c.cmd, code, errOut)
		}
		for _, want := range c.want {
			if !strings.Contains(out, want) {
				t.Errorf("%v: no %q in\n%s", c.cmd, want, out)
			}
		}
	}
	for _, cmd := range [][]string{
		{"session", "list", "--json"}, {"session", "list", "--stats", "--json"}, {"session", "show", "01a2219b", "--json"},
		{"session", "stats", "01a2219b", "--json"}, {"session", "tree", "01a2219b", "--json"}, {"agents", "list", "01a2219b", "--json"},
		{"agents", "show", "invoice_review", "-s", "01a2219b", "--json"}, {"agents", "roles", "--json"}, {"agents", "config", "--json"},
		{"payload", "show", "session:01a2219b", "--json"}, {"cache", "report", "--json"}, {"search", "invoice", "--json"},
	} {
		codeEn, en, _ := runCLI(t, in(in(args, "--lang", "en"), cmd...)...)
		codeZh, zhOut, _ := runCLI(t, in(zh, cmd...)...)
		if en != zhOut || codeEn != codeZh || en == "" {
			t.Errorf("%v: JSON differs between languages (exit %d/%d):\n%s\n%s", cmd, codeEn, codeZh, en, zhOut)
		}
	}
}

// A command's error in Chinese keeps its exit code; a count with a noun
// is a plural in English ("1 file", "3 files").
func TestSessionErrorsInChinese(t *testing.T) {
	languageEnv(t, "", "C")
	args, _ := demoArgs(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{in(args, "--lang", "zh-CN", "search", "zzzqqq"), exitFailed, "forgebench: 在 3 个会话文件中没有命中\n"},
		{in(args, "--lang", "en", "search", "zzzqqq"), exitFailed, "forgebench: no hits in 3 session files\n"},
		{in(args, "--lang", "zh-CN", "session", "tail", "--lines=-1", "01a2219b"), exitUsage, "forgebench: --lines 必须为 0 或更大\n"},
		{in(args, "--lang", "zh-CN", "payload", "diff", "--max-token-growth=-1", "a", "b"), exitUsage, "forgebench: --max-token-growth 必须为 0 或更大\n"},
		{in(args, "--lang", "zh-CN", "agents", "show", "nobody", "-s", "01a2219b"), exitUsage, "中没有代理 /root/nobody"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// Tables with Chinese headers stay aligned: every column starts at the
// same display column in the header as in the rows.
func TestChineseTablesAlignByDisplayWidth(t *testing.T) {
	languageEnv(t, "", "C")
	args, _ := demoArgs(t)
	_, out, _ := runCLI(t, in(args, "--lang", "zh-CN", "agents", "list", "01a2219b")...)
	lines := strings.Split(out, "\n")
	header, row := "", ""
	for i, l := range lines {
		if strings.HasPrefix(l, "路径  ") && i+1 < len(lines) {
			header, row = l, lines[i+1]
		}
	}
	if header == "" {
		t.Fatalf("no table header in\n%s", out)
	}
	for _, col := range []string{"角色", "状态", "花费", "任务"} {
		k := strings.Index(header, col)
		at := ansi.StringWidth(header[:k])
		if c := ansi.Strip(row); at >= ansi.StringWidth(c) || c[len(ansi.Truncate(c, at, "")):][0] == ' ' || ansi.Truncate(c, at, "")[len(ansi.Truncate(c, at, ""))-1] != ' ' {
			t.Errorf("column %s starts at display column %d in the header but not in the row:\n%s\n%s", col, at, header, row)
		}
	}
	_, out, _ = runCLI(t, in(args, "--lang", "zh-CN", "cache", "report")...)
	var widths []int
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "按 ") || strings.HasPrefix(l, "合计 ") || strings.HasPrefix(l, "preset ") {
			widths = append(widths, ansi.StringWidth(l))
		}
	}
	if len(widths) != 3 || widths[0] != widths[1] || widths[1] != widths[2] {
		t.Errorf("cache report: the header, a row and the total differ in width %v:\n%s", widths, out)
	}
}

// leafHelp is translated where Chinese help prints it.
func TestLeafHelpIsTranslated(t *testing.T) {
	if got := i18n.In(i18n.SimplifiedChinese, leafHelp); got == leafHelp || !strings.Contains(got, "v1 会话文件") {
		t.Errorf("leafHelp in zh-CN: %q", got)
	}
	languageEnv(t, "", "C")
	t.Setenv("COLUMNS", "200")
	_, out, _ := runCLI(t, "--lang", "zh-CN", "session", "context", "--help")
	if !strings.Contains(out, "v1 会话文件中的条目") || strings.Contains(out, "Entries of v1") {
		t.Errorf("session context --help in Chinese:\n%s", out)
	}
}
