package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpListsEveryCommandGroup(t *testing.T) {
	code, out, _ := runCLI(t, "--help")
	if code != exitOK {
		t.Fatalf("--help exit %d", code)
	}
	for _, group := range []string{
		"preset list", "preset migrate-stacks", "capability enable-bound", "profile preview",
		"session context", "session tail", "agents transcript", "payload diff", "template render",
		"fingerprint", "version", "completion", "man", "--cwd", "--agent-dir", "--forge-dir", "--theme", "--demo",
	} {
		if !strings.Contains(out, group) {
			t.Errorf("--help does not mention %q", group)
		}
	}
}

func TestExitCodes(t *testing.T) {
	if code, _, errOut := runCLI(t, "no-such-command"); code != exitUsage || errOut == "" {
		t.Fatalf("unknown command: exit %d, stderr %q; want %d and a message", code, errOut, exitUsage)
	}
	if code, _, _ := runCLI(t, "--theme", "purple", "version"); code != exitUsage {
		t.Fatalf("bad --theme: exit %d, want %d", code, exitUsage)
	}
	code, out, _ := runCLI(t, "version")
	if code != exitOK || !strings.HasPrefix(out, "forgebench dev (commit none, built unknown)") {
		t.Fatalf("version: exit %d, %q", code, out)
	}
}

// TestReleaseLdflagsPointAtRealSymbols guards the classic release bug: an
// -X path that names a variable that does not exist makes `version`
// silently print "dev". It reads the -X flags from .goreleaser.yaml, builds
// the main package (the module root) with them and checks the values come
// out.
func TestReleaseLdflagsPointAtRealSymbols(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	cfg, err := os.ReadFile(filepath.Join("..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`-X ([\w./-]+)=\{\{\s*\.(\w+)\s*\}\}`)
	// The builds set all three; the before hook's host build, which writes
	// the man page (its title line shows version and date), sets two of
	// them again: each distinct flag is checked once.
	flags := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(string(cfg), -1) {
		flags[m[1]] = m[2]
	}
	if len(flags) != 3 {
		t.Fatalf("want -X flags for version, commit and date in .goreleaser.yaml, found %v", flags)
	}
	values := map[string]string{"Version": "9.8.7", "Commit": "abc1234", "Date": "2026-11-29T00:00:00Z"}
	var ldflags []string
	for name, field := range flags {
		ldflags = append(ldflags, "-X "+name+"="+values[field])
	}
	bin := filepath.Join(t.TempDir(), "forgebench")
	build := exec.Command("go", "build", "-ldflags", strings.Join(ldflags, " "), "-o", bin, "..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "forgebench 9.8.7 (commit abc1234, built 2026-11-29T00:00:00Z)\n"
	if string(out) != want {
		t.Fatalf("version printed %q, want %q: an -X path in .goreleaser.yaml does not exist", out, want)
	}
}
