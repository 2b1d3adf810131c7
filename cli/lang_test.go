package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/i18n"
)

// languageEnv gives a run a settings file (content "" = none) and a locale.
func languageEnv(t *testing.T, settings, lang string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", lang)
	if settings != "" {
		if err := os.MkdirAll(filepath.Join(dir, "forgebench"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "forgebench", "config.json"), []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { i18n.SetLanguage(i18n.English) })
}

func TestLanguageResolutionOrder(t *testing.T) {
	cases := []struct {
		name, settings, lang string
		args                 []string
		want                 i18n.Lang
	}{
		{"locale", "", "zh_CN.UTF-8", nil, i18n.SimplifiedChinese},
		{"C locale", "", "C", nil, i18n.English},
		{"settings over locale", `{"language":"en"}`, "zh_CN.UTF-8", nil, i18n.English},
		{"settings", `{"language":"zh-CN"}`, "C", nil, i18n.SimplifiedChinese},
		{"flag over settings", `{"language":"zh-CN"}`, "zh_CN.UTF-8", []string{"--lang", "en"}, i18n.English},
		{"flag after the command", "", "C", []string{"--lang=zh-CN"}, i18n.SimplifiedChinese},
		{"a bad settings file falls back to the locale", `{"language":"fr"}`, "zh_CN.UTF-8", nil, i18n.SimplifiedChinese},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			languageEnv(t, c.settings, c.lang)
			args := append([]string{"version"}, c.args...)
			if code, _, errOut := runCLI(t, args...); code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := i18n.Current(); got != c.want {
				t.Fatalf("language %s, want %s", got, c.want)
			}
		})
	}
}

func TestBadLangIsAUsageError(t *testing.T) {
	languageEnv(t, "", "C")
	for _, bad := range []string{"fr", "zh_CN", "ZH-CN", ""} {
		code, _, errOut := runCLI(t, "--lang", bad, "version")
		if code != exitUsage || !strings.Contains(errOut, "--lang: unknown language") || !strings.Contains(errOut, "(languages: en, zh-CN)") {
			t.Errorf("--lang %q: exit %d, %q", bad, code, errOut)
		}
	}
	code, out, _ := runCLI(t, "--help")
	if code != exitOK || !strings.Contains(out, "--lang=en|zh-CN") {
		t.Errorf("--help does not show --lang: %d", code)
	}
}

// The TUI checks the whole settings file before it starts: an unknown
// language is the settings diagnostic and a usage error.
func TestTuiRefusesAnUnknownSettingsLanguage(t *testing.T) {
	languageEnv(t, `{"language":"zh"}`, "C")
	code, _, errOut := runCLI(t, "tui")
	if code != exitUsage || !strings.Contains(errOut, `language: unknown language "zh": did you mean "en", "zh-CN"? (languages: en, zh-CN)`) {
		t.Fatalf("exit %d, %q", code, errOut)
	}
}
