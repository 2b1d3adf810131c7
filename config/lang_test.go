package config

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/i18n"
)

// The settings' diagnostics are forgebench's own: they print in the
// process's language, while setting names, binding names and keys stay as
// written. English stays exactly what it was.
func TestDiagnosticsFollowTheLanguage(t *testing.T) {
	for _, c := range []struct {
		settings, en, zh string
	}{
		{`{"keys": {"agents.open": ["T"]}}`,
			`keys: conflicting bindings (a key does one thing per view):` + "\n" + `  "agents.open" and "agents.timeline" both use "T" in the Agents list (and 2 other view(s))`,
			`keys：绑定冲突（一个按键在每个视图中只做一件事）：` + "\n" + `  "agents.open" 和 "agents.timeline" 都使用 "T"（代理列表，另有 2 个视图）`},
		{`{"them": "dark"}`, `unknown setting "them": did you mean "theme"? (settings: keys, language, theme)`,
			`未知设置项 "them"：您是指 "theme" 吗？（设置项：keys, language, theme）`},
		{`{"theme": "drak"}`, `theme: unknown theme "drak": did you mean "dark"? (themes: auto, dark, light)`,
			`theme: 未知主题 "drak"：您是指 "dark" 吗？（可用主题：auto, dark, light）`},
		{`{"keys": {"zzzz": ["x"]}}`, `keys: unknown binding name "zzzz": it did not match any binding name (names are global, as "quit" and "help", or group.name with the groups`,
			`keys: 未知绑定名称 "zzzz"：没有匹配的绑定名称（名称是全局名称，如 "quit" 和 "help"，或 group.name 形式，分组有`},
		{`{"a": 1, "a": 2}`, `duplicate key "a" in the top-level object: a name may appear once per object`, `顶层对象中的键 "a" 重复：一个名称在每个对象中只能出现一次`},
	} {
		for lang, want := range map[i18n.Lang]string{i18n.English: c.en, i18n.SimplifiedChinese: c.zh} {
			i18n.SetLanguage(lang)
			_, err := Parse([]byte(c.settings))
			i18n.SetLanguage(i18n.English)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s in %s:\n got %v\nwant %s…", c.settings, lang, err, want)
			}
		}
	}
}
