package resources

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResolveDirsDefaults(t *testing.T) {
	env := Env{
		Getenv:  func(k string) string { return map[string]string{"PI_FORGE_GLOBAL_DIR": "/srv/forge"}[k] },
		HomeDir: func() (string, error) { return "/home/ada", nil },
		Getwd:   func() (string, error) { return "/work/app", nil },
	}
	d, err := ResolveDirs(Dirs{}, env)
	if err != nil {
		t.Fatal(err)
	}
	want := Dirs{Cwd: "/work/app", AgentDir: "/home/ada/.pi/agent", ForgeDir: "/srv/forge"}
	if d != want {
		t.Fatalf("got %+v, want %+v", d, want)
	}
	env.HomeDir = func() (string, error) { return "", errors.New("no home") }
	if _, err := ResolveDirs(Dirs{Cwd: "/x"}, env); err == nil {
		t.Fatal("a missing home directory must be reported when a default needs it")
	}
}

func TestResolveTrust(t *testing.T) {
	cases := []struct {
		name     string
		files    map[string]string // relative to root; "project/" is the cwd
		override TrustOverride
		want     bool
		wantSrc  string
	}{
		{"no trust-requiring resources", nil, TrustFromPi, true, "no-trust-resources"},
		{"saved false without resources", map[string]string{"agent/trust.json": `{"%ROOT%/project": false}`}, TrustFromPi, false, "trust.json %ROOT%/project"},
		{"resources and nothing saved is ask", map[string]string{"project/.pi/settings.json": "{}"}, TrustFromPi, false, "ask (no saved decision)"},
		{"nearest saved key wins", map[string]string{
			"project/.pi/extensions/x.ts": "",
			"agent/trust.json":            `{"%ROOT%": false, "%ROOT%/project": true}`,
		}, TrustFromPi, true, "trust.json %ROOT%/project"},
		{"null is no decision", map[string]string{
			"project/.pi/skills/s.md": "",
			"agent/trust.json":        `{"%ROOT%": true, "%ROOT%/project": null}`,
		}, TrustFromPi, true, "trust.json %ROOT%"},
		{"defaultProjectTrust always", map[string]string{
			"project/.pi/SYSTEM.md": "", "agent/settings.json": "\ufeff{\"defaultProjectTrust\":\"always\"}",
		}, TrustFromPi, true, "defaultProjectTrust always"},
		{"agents skills in an ancestor", map[string]string{"project/.agents/skills/a.md": ""}, TrustFromPi, false, "ask (no saved decision)"},
		{"flag forces", map[string]string{"project/.pi/settings.json": "{}"}, TrustForce, true, "flag"},
		{"flag denies", nil, TrustDeny, false, "flag"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			cwd := filepath.Join(root, "project")
			if err := os.MkdirAll(cwd, 0o755); err != nil {
				t.Fatal(err)
			}
			for rel, content := range tc.files {
				write(t, filepath.Join(root, rel), replaceRoot(content, root))
			}
			got := ResolveTrust(cwd, filepath.Join(root, "agent"), filepath.Join(root, "home"), tc.override)
			if got.Trusted != tc.want || got.Source != replaceRoot(tc.wantSrc, root) {
				t.Fatalf("got %+v, want trusted=%v source=%q", got, tc.want, replaceRoot(tc.wantSrc, root))
			}
		})
	}
}

func replaceRoot(s, root string) string { return strings.ReplaceAll(s, "%ROOT%", root) }
