package resources

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/preset"
)

// Environment of the child process of TestKilledSaveLeavesOriginal.
const (
	killChildEnv    = "FORGEBENCH_RESOURCES_KILL_CHILD" // the project cwd
	killForgeEnv    = "FORGEBENCH_RESOURCES_KILL_FORGE"
	killRevisionEnv = "FORGEBENCH_RESOURCES_KILL_REVISION"
	killMarkerEnv   = "FORGEBENCH_RESOURCES_KILL_MARKER"
)

func TestMain(m *testing.M) {
	if cwd := os.Getenv(killChildEnv); cwd != "" {
		runKilledSaveChild(cwd)
		os.Exit(3) // unreachable unless the save returned
	}
	os.Exit(m.Run())
}

// runKilledSaveChild starts a real save whose rename blocks forever after
// announcing the temporary file, so the parent can SIGKILL it between the
// temp write and the rename.
func runKilledSaveChild(cwd string) {
	ws := Workspace{Cwd: cwd, ForgeDir: os.Getenv(killForgeEnv), Trust: Trust{Trusted: true}}
	renameHook = func(tmp, _ string) error {
		os.WriteFile(os.Getenv(killMarkerEnv), []byte(tmp), 0o644)
		select {} // wait for SIGKILL
	}
	stack, _ := preset.Parse([]byte(stackJSON("victim", `,"name":"`+strings.Repeat("new ", 5000)+`"`)), "victim.json")
	_, err := SavePreset(ws, ScopeProject, "victim", stack, os.Getenv(killRevisionEnv))
	os.Stderr.WriteString("save returned: " + errString(err) + "\n")
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestKilledSaveLeavesOriginal(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projStacks + "victim.json": stackJSON("victim", `,"name":"original"`)})
	target := TargetPath(ws, KindPreset, ScopeProject, "victim")
	original := readBytes(t, target)
	marker := filepath.Join(t.TempDir(), "tmp-name")

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(),
		killChildEnv+"="+ws.Cwd, killForgeEnv+"="+ws.ForgeDir,
		killRevisionEnv+"="+sourceRevision(original), killMarkerEnv+"="+marker)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var tmpName []byte
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(marker); err == nil && len(b) > 0 {
			tmpName = b
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child never reached the rename; stderr: %s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("child exited normally; want killed")
	}

	// The complete new content sits in the temporary file, the original is
	// byte-identical and still what the library loads.
	if got := readBytes(t, target); !bytes.Equal(got, original) {
		t.Fatalf("original replaced by an interrupted save:\n%s", got)
	}
	if tmp := readBytes(t, string(tmpName)); !bytes.Contains(tmp, []byte(`"name": "new new`)) {
		t.Errorf("temporary file does not hold the new content (%d bytes)", len(tmp))
	}
	if filepath.Dir(string(tmpName)) != filepath.Dir(target) {
		t.Errorf("temporary file %s is not in the target directory", tmpName)
	}
	lib := mustLoad(t, ws)
	if len(lib.Presets) != 1 || lib.Presets[0].SourceRevision != sourceRevision(original) {
		t.Errorf("library after the crash: %s", summary(lib))
	}
	// The next write in the directory removes the killed writer's
	// temporary file; the library never listed it.
	other, _ := preset.Parse([]byte(stackJSON("other", "")), "other.json")
	if _, err := CreatePreset(ws, ScopeProject, other); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(string(tmpName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the killed writer's temporary file %s survived the next write (%v)", filepath.Base(string(tmpName)), err)
	}
}
