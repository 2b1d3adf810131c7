package demo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// unpackForTest unpacks the demo into a fresh test directory.
func unpackForTest(t *testing.T) Layout {
	t.Helper()
	layout, err := Unpack(t.TempDir())
	if err != nil {
		t.Fatalf("Unpack: %v", err)
	}
	return layout
}

func TestUnpackLayout(t *testing.T) {
	parent := t.TempDir()
	layout, err := Unpack(parent)
	if err != nil {
		t.Fatalf("Unpack: %v", err)
	}
	if filepath.Dir(layout.Root) != parent || !strings.HasPrefix(filepath.Base(layout.Root), "forgebench-demo-") {
		t.Errorf("Root = %q, want a forgebench-demo-* directory in %q", layout.Root, parent)
	}
	for _, want := range []struct{ got, rel string }{
		{layout.ProjectDir, "projects/demo-app"},
		{layout.AgentDir, "home/.pi/agent"},
		{layout.ForgeDir, "home/.pi/forge"},
	} {
		if want.got != filepath.Join(layout.Root, filepath.FromSlash(want.rel)) {
			t.Errorf("layout path %q, want <root>/%s", want.got, want.rel)
		}
		if !filepath.IsAbs(want.got) {
			t.Errorf("layout path %q is not absolute", want.got)
		}
	}
	mustExist := []string{
		filepath.Join(layout.ProjectDir, "AGENTS.md"),
		filepath.Join(layout.ProjectDir, "src", "invoice.ts"),
		filepath.Join(layout.ProjectDir, ".pi", "forge", "prompt-stacks", "pi-mirror.json"),
		filepath.Join(layout.ProjectDir, ".pi", "forge", "capabilities", "test-runner.json"),
		filepath.Join(layout.ProjectDir, ".pi", "forge", "agent-profiles", "tdd-worker.json"),
		filepath.Join(layout.AgentDir, "settings.json"),
		filepath.Join(layout.AgentDir, "trust.json"),
		filepath.Join(layout.ForgeDir, "prompt-stacks", "quick-review.json"),
		filepath.Join(layout.ForgeDir, "capabilities", "plain-english.json"),
	}
	for _, p := range mustExist {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("expected file: %v", err)
		}
	}
	sessionDir := layout.SessionDir
	entries, err := os.ReadDir(sessionDir)
	if err != nil {
		t.Fatalf("session directory named after the project: %v", err)
	}
	var sessions, trees int
	for _, e := range entries {
		switch {
		case strings.HasSuffix(e.Name(), ".jsonl"):
			sessions++
		case e.IsDir() && strings.HasSuffix(e.Name(), ".subagents"):
			trees++
		}
	}
	if sessions != 3 || trees != 1 {
		t.Errorf("session directory has %d sessions and %d subagent trees, want 3 and 1", sessions, trees)
	}
	if runtime.GOOS != "windows" {
		err := filepath.WalkDir(layout.Root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			want := fs.FileMode(0o644)
			if d.IsDir() {
				want = 0o755
			}
			if p != layout.Root && info.Mode().Perm() != want {
				t.Errorf("%s has mode %v, want %v", p, info.Mode().Perm(), want)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("walk: %v", err)
		}
	}
}

func TestUnpackTwiceGivesSeparateRoots(t *testing.T) {
	parent := t.TempDir()
	a, errA := Unpack(parent)
	b, errB := Unpack(parent)
	if err := errors.Join(errA, errB); err != nil {
		t.Fatalf("Unpack: %v", err)
	}
	if a.Root == b.Root {
		t.Fatalf("two unpacks share the root %q", a.Root)
	}
}

func TestUnpackReplacesEveryPlaceholder(t *testing.T) {
	layout := unpackForTest(t)
	var checked int
	err := filepath.WalkDir(layout.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(p, tokenPrefix) {
			t.Errorf("path still contains a placeholder: %s", p)
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		checked++
		if strings.Contains(string(data), tokenPrefix) {
			t.Errorf("%s still contains a placeholder", p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk: %v", err)
	}
	if checked < 25 {
		t.Errorf("only %d files unpacked", checked)
	}
	trust, err := os.ReadFile(filepath.Join(layout.AgentDir, "trust.json"))
	if err != nil {
		t.Fatalf("read trust.json: %v", err)
	}
	real, err := filepath.EvalSymlinks(layout.ProjectDir)
	if err != nil {
		t.Fatalf("EvalSymlinks: %v", err)
	}
	if want := "{\n  " + jsQuote(real) + ": true\n}\n"; string(trust) != want {
		t.Errorf("trust.json = %q, want %q", trust, want)
	}
}

func TestUnpackFailureRemovesTheNewRoot(t *testing.T) {
	parent := t.TempDir()
	failing := errors.New("disk full")
	written := 0
	writeFile = func(target string, data []byte) error {
		written++
		if written == 5 {
			return failing
		}
		return writeFileFully(target, data)
	}
	t.Cleanup(func() { writeFile = writeFileFully })
	if _, err := Unpack(parent); !errors.Is(err, failing) {
		t.Fatalf("Unpack error = %v, want the injected failure", err)
	}
	left, err := os.ReadDir(parent)
	if err != nil {
		t.Fatalf("read parent: %v", err)
	}
	if len(left) != 0 {
		t.Errorf("failed Unpack left %d entries behind", len(left))
	}
}

func TestUnpackIntoMissingParentFails(t *testing.T) {
	if _, err := Unpack(filepath.Join(t.TempDir(), "does", "not", "exist")); err == nil {
		t.Fatal("Unpack into a missing parent succeeded")
	}
}

func TestWriteFileFullyLeavesNoTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "a", "b.json")
	if err := writeFileFully(target, []byte("{}\n")); err != nil {
		t.Fatalf("writeFileFully: %v", err)
	}
	if err := writeFileFully(filepath.Join(dir, "a"), []byte("x")); err == nil {
		t.Error("writing over a directory succeeded")
	}
	entries, err := os.ReadDir(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatalf("read dir: %v", err)
	}
	if len(entries) != 1 || entries[0].Name() != "b.json" {
		t.Errorf("directory holds %v, want only b.json", entries)
	}
}

func BenchmarkUnpack(b *testing.B) {
	parent := b.TempDir()
	for b.Loop() {
		layout, err := Unpack(parent)
		if err != nil {
			b.Fatalf("Unpack: %v", err)
		}
		if err := os.RemoveAll(layout.Root); err != nil {
			b.Fatalf("RemoveAll: %v", err)
		}
	}
}
