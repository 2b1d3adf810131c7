package payloads

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/internal/testenv"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

func TestMain(m *testing.M) {
	time.Local = time.UTC // labels show clock times
	// The cache view keeps the report's and the listing's caches under
	// the user's cache directory: a temporary one, not the user's.
	testenv.RunWithPrivateCache(m, "payloads")
}

// demoMain is the demo's main session (capabilities, a branch, a
// compaction, a model switch), by file name.
const demoMain = "2026-11-27T09-14-05-112Z_01a21c48-87b8-7bf2-bec6-d1b0faeb6b39.jsonl"

// Fixed paths the demo's placeholders are replaced with, so the text of
// every request (and so every token count on screen) is the same on every
// machine; the files themselves live in a temporary directory.
const (
	fakeProject = "/home/ada/projects/demo-app"
	fakeAgent   = "/home/ada/.pi/agent"
	sessionDir  = "--home-ada-projects-demo-app--"
)

// savedAt is the modification time given to the demo's saved payloads.
var savedAt = time.Date(2026, 11, 28, 8, 30, 0, 0, time.UTC)

// demoWorkspace copies the embedded demo workspace (from the repository)
// into a temporary directory with the placeholders replaced by the fixed
// paths above and returns a trusted workspace on it and the path of the
// main session.
func demoWorkspace(t testing.TB) (resources.Workspace, string) {
	t.Helper()
	src := filepath.Join("..", "..", "resources", "demo", "workspace")
	root := t.TempDir()
	repl := strings.NewReplacer("@@DEMO_PROJECT_DIR_SLASH@@", fakeProject, "@@DEMO_PROJECT_REALPATH@@", fakeProject,
		"@@DEMO_PROJECT_DIR@@", fakeProject, "@@DEMO_AGENT_DIR@@", fakeAgent, "@@DEMO_SESSION_DIR@@", sessionDir)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(root, repl.Replace(rel))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, []byte(repl.Replace(string(data))), 0o644); err != nil {
			return err
		}
		if strings.Contains(rel, filepath.Join(".pi", "forge", "payloads")) {
			return os.Chtimes(target, savedAt, savedAt)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := resources.OpenWorkspace(resources.Dirs{
		Cwd:      filepath.Join(root, "projects", "demo-app"),
		AgentDir: filepath.Join(root, "home", ".pi", "agent"),
		ForgeDir: filepath.Join(root, "home", ".pi", "forge"),
	}, resources.TrustForce, resources.OSEnv())
	if err != nil {
		t.Fatal(err)
	}
	return ws, filepath.Join(ws.AgentDir, "sessions", sessionDir, demoMain)
}

// harness drives the panel on the demo workspace.
type harness struct {
	*uitest.Harness[common.Panel]
	com  *common.Common
	m    *Model
	main string
}

// newHarness builds the panel with the main session selected at entry
// (no session at all when entry is "-", the leaf when it is "").
func newHarness(t testing.TB, w, h int, dark bool, entry string) *harness {
	t.Helper()
	ws, main := demoWorkspace(t)
	keys := keymap.DefaultSet()
	mode := themes.Light
	if dark {
		mode = themes.Dark
	}
	com := &common.Common{Styles: themes.For(mode, dark, false), Keys: &keys, Workspace: ws, Width: w, Height: h}
	if entry != "-" {
		com.Selection = common.Selection{SessionFile: main, EntryID: entry}
	}
	m := New(com)
	m.SetSize(w, h)
	hs := &harness{Harness: uitest.ForPanel(t, m, com), com: com, m: m, main: main}
	hs.Run(m.Init())
	return hs
}

// view is the panel's screen without styling.
func (hs *harness) view() string { return ansi.Strip(hs.m.View()) }

// sessionRef is the reference of entry id of the main session.
func (hs *harness) sessionRef(id string) string { return "session:" + hs.main + "#" + id }
