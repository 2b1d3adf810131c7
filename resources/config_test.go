package resources

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestConfigWarnings(t *testing.T) {
	cases := []struct {
		name, content string // content "" = no file
		port          int
		locale        string
		warn          string // with <path> for the config path
	}{
		{"missing", "", 0, "", ""},
		{"port", `{"webEditor":{"port":8080,"locale":"zh-CN"}}`, 8080, "zh-CN", ""},
		{"legacy port", `{"webEditorPort":9000}`, 9000, "", ""},
		{"null falls through to legacy", `{"webEditor":{"port":null},"webEditorPort":9001}`, 9001, "", ""},
		{"null and absent legacy", `{"webEditor":{"port":null}}`, 0, "", ""},
		{"both null", `{"webEditor":{"port":null},"webEditorPort":null}`, 0, "", "pi-forge: <path> webEditor.port must be an integer from 1 to 65535; using an available editor port."},
		{"no port", `{"webEditor":{}}`, 0, "", ""},
		{"zero", `{"webEditor":{"port":0}}`, 0, "", "pi-forge: <path> webEditor.port must be an integer from 1 to 65535; using an available editor port."},
		{"too big", `{"webEditor":{"port":65536}}`, 0, "", "pi-forge: <path> webEditor.port must be an integer from 1 to 65535; using an available editor port."},
		{"fraction", `{"webEditor":{"port":80.5}}`, 0, "", "pi-forge: <path> webEditor.port must be an integer from 1 to 65535; using an available editor port."},
		{"string", `{"webEditor":{"port":"80"}}`, 0, "", "pi-forge: <path> webEditor.port must be an integer from 1 to 65535; using an available editor port."},
		{"max", `{"webEditor":{"port":65535.0}}`, 65535, "", ""},
		{"array root", `[1]`, 0, "", "pi-forge: <path> must be a JSON object; using an available editor port."},
		{"null root", `null`, 0, "", "pi-forge: <path> must be a JSON object; using an available editor port."},
		{"syntax", `{"webEditor":`, 0, "", "pi-forge: failed to read <path>; using an available editor port. "},
	}
	for _, c := range cases {
		files := map[string]string{}
		if c.content != "" {
			files["p/.pi/forge/config.json"] = c.content
		}
		ws := newWorkspace(t, files)
		cfg := mustLoad(t, ws).Config
		path := filepath.Join(ws.Cwd, ".pi", "forge", "config.json")
		var want []string
		if c.warn != "" {
			want = []string{strings.ReplaceAll(c.warn, "<path>", path)}
		}
		got := cfg.Warnings
		if c.name == "syntax" && len(got) == 1 && strings.HasPrefix(got[0], want[0]) && len(got[0]) > len(want[0]) {
			got = want // the parser's own message follows the prefix
		}
		if cfg.Port != c.port || cfg.Locale != c.locale || !reflect.DeepEqual(got, want) || cfg.Path != path {
			t.Errorf("%s: port %d locale %q warnings %q; want %d %q %q", c.name, cfg.Port, cfg.Locale, cfg.Warnings, c.port, c.locale, want)
		}
		wantEff := c.port
		if wantEff == 0 {
			wantEff = DefaultWebEditorPort
		}
		if cfg.EffectivePort() != wantEff {
			t.Errorf("%s: effective port %d", c.name, cfg.EffectivePort())
		}
	}
	// The global config path honours the override.
	ws := newWorkspace(t, nil)
	if lib, _ := LoadLibraryWith(ws, LoadOptions{GlobalConfigPath: "/x/config.json"}); lib.Config.GlobalPath != "/x/config.json" {
		t.Errorf("global config path %q", lib.Config.GlobalPath)
	}
	if lib, _ := LoadLibraryWith(ws, LoadOptions{}); lib.Config.GlobalPath != filepath.Join(ws.ForgeDir, "config.json") {
		t.Errorf("default global config path %q", lib.Config.GlobalPath)
	}
}

// FuzzConfig feeds arbitrary config.json bytes to the config reader: it must
// never panic, and every outcome is either a valid port or one warning of
// pi-forge's three forms.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{`{"webEditor":{"port":8080}}`, `{"webEditorPort":1}`, `[]`, `{`, `{"webEditor":{"port":1e400}}`, `{"webEditor":{"port":-0}}`} {
		f.Add([]byte(s))
	}
	ws := newWorkspace(f, nil)
	path := filepath.Join(ws.Cwd, ".pi", "forge", "config.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		writeFile(t, path, string(data))
		cfg := loadConfig(ws, "")
		if cfg.Port < 0 || cfg.Port > 65535 || len(cfg.Warnings) > 1 {
			t.Fatalf("config %+v", cfg)
		}
		if len(cfg.Warnings) == 1 {
			w := cfg.Warnings[0]
			if cfg.Port != 0 || !(strings.HasPrefix(w, "pi-forge: failed to read "+path+"; using an available editor port. ") ||
				w == "pi-forge: "+path+" must be a JSON object; using an available editor port." ||
				w == "pi-forge: "+path+" webEditor.port must be an integer from 1 to 65535; using an available editor port.") {
				t.Fatalf("unexpected warning %q (port %d)", w, cfg.Port)
			}
		}
	})
}
