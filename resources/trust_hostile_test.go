package resources

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/engine/capability"
)

// A project reached through a symlinked directory is judged by where it
// really lives: Pi canonicalizes the cwd before it walks the ancestors for
// .agents/skills, so skills above the real directory still require trust.
func TestTrustWalksTheRealPathOfASymlinkedCwd(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(root, "srv", "proj")
	write(t, filepath.Join(root, "srv", ".agents", "skills", "s.md"), "")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "home", "link")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	got := ResolveTrust(link, filepath.Join(root, "agent"), filepath.Join(root, "home"), TrustFromPi)
	if got.Trusted || got.Source != "ask (no saved decision)" {
		t.Fatalf("skills above the real project directory were missed: %+v", got)
	}
}

// The user's own ~/.agents/skills never requires trust, also when the home
// directory is reached through a symlink.
func TestTrustIgnoresUserSkillsBehindASymlinkedHome(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	realHome := filepath.Join(root, "real-home")
	write(t, filepath.Join(realHome, ".agents", "skills", "s.md"), "")
	cwd := filepath.Join(realHome, "proj")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	if err := os.Symlink(realHome, home); err != nil {
		t.Fatal(err)
	}
	got := ResolveTrust(filepath.Join(home, "proj"), filepath.Join(root, "agent"), home, TrustFromPi)
	if !got.Trusted || got.Source != "no-trust-resources" {
		t.Fatalf("the user's own skills made the project untrusted: %+v", got)
	}
}

// Pi tests .agents/skills with existsSync: a file of that name counts too.
func TestTrustCountsAnAgentsSkillsFile(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cwd := filepath.Join(root, "project")
	write(t, filepath.Join(cwd, ".agents", "skills"), "not a directory")
	got := ResolveTrust(cwd, filepath.Join(root, "agent"), filepath.Join(root, "home"), TrustFromPi)
	if got.Trusted {
		t.Fatalf("a .agents/skills file must require trust: %+v", got)
	}
}

// Pi refuses to use a trust.json it cannot read as {dir: true|false|null};
// forgebench must not then fall through to defaultProjectTrust "always"
// and trust a project the damaged file may have denied.
func TestTrustFailsClosedOnAnInvalidTrustFile(t *testing.T) {
	for name, content := range map[string]string{
		"bad value":  `{"%ROOT%/project": false, "%ROOT%/other": "yes"}`,
		"not object": `[true]`,
		"bad json":   `{"%ROOT%/project": fal`,
	} {
		t.Run(name, func(t *testing.T) {
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			cwd := filepath.Join(root, "project")
			write(t, filepath.Join(cwd, ".pi", "settings.json"), "{}")
			write(t, filepath.Join(root, "agent", "settings.json"), `{"defaultProjectTrust":"always"}`)
			write(t, filepath.Join(root, "agent", "trust.json"), replaceRoot(content, root))
			got := ResolveTrust(cwd, filepath.Join(root, "agent"), filepath.Join(root, "home"), TrustFromPi)
			if got.Trusted {
				t.Fatalf("an unreadable trust.json trusted the project: %+v", got)
			}
			if got.Source != "trust.json invalid" {
				t.Fatalf("source %q", got.Source)
			}
		})
	}
}

// pi-forge refuses every capability mutation while the project is untrusted
// (§14.3), global ones included, with its own message.
func TestUntrustedProjectRefusesGlobalCapabilityWrites(t *testing.T) {
	ws := newWorkspace(t, map[string]string{globCaps + "g.json": capJSON("g")})
	ws.Trust = Trust{Trusted: false, Source: "test"}
	const msg = "Project is not trusted; capability writes are disabled."
	c, _ := capability.Parse([]byte(capJSON("n")), "n.json", ScopeGlobal)
	_, err := CreateCapability(ws, ScopeGlobal, c)
	if !errors.Is(err, ErrUntrusted) || err.Error() != msg {
		t.Fatalf("global create: %v", err)
	}
	if _, err := os.Stat(wsPath(ws, globCaps+"n.json")); err == nil {
		t.Fatal("a refused create wrote the file")
	}
	rev := sourceRevision(readBytes(t, wsPath(ws, globCaps+"g.json")))
	if _, err := DeleteCapability(ws, ScopeGlobal, "g", rev); !errors.Is(err, ErrUntrusted) || err.Error() != msg {
		t.Fatalf("global delete: %v", err)
	}
	if _, err := DeleteCapability(ws, ScopeProject, "p", rev); !errors.Is(err, ErrUntrusted) || err.Error() != msg {
		t.Fatalf("project delete: %v", err)
	}
}

// FuzzTrustFile: any trust.json bytes resolve without a panic, and a file
// that is not a JSON object of true/false/null never yields trust through
// defaultProjectTrust "always".
func FuzzTrustFile(f *testing.F) {
	for _, seed := range []string{`{}`, `{"/x": true}`, `{"/x": null, "/": false}`, `[1]`, `null`, `{"a":"b"}`, "\ufeff{}", `{"/":tru`} {
		f.Add(seed)
	}
	root, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	cwd := filepath.Join(root, "project")
	agent := filepath.Join(root, "agent")
	if err := os.MkdirAll(filepath.Join(cwd, ".pi", "skills"), 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.MkdirAll(agent, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agent, "settings.json"), []byte(`{"defaultProjectTrust":"always"}`), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, content string) {
		if err := os.WriteFile(filepath.Join(agent, "trust.json"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		got := ResolveTrust(cwd, agent, filepath.Join(root, "home"), TrustFromPi)
		var m map[string]*bool
		valid := json.Unmarshal([]byte(content), &m) == nil && m != nil
		if !valid && got.Trusted {
			t.Fatalf("invalid trust.json %q trusted the project: %+v", content, got)
		}
		if valid && got.Source == "trust.json invalid" {
			t.Fatalf("valid trust.json %q reported invalid", content)
		}
	})
}
