package presets

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

func TestMain(m *testing.M) {
	time.Local = time.UTC
	previewDelay = 0
	os.Exit(m.Run())
}

// testWorkspace copies testdata into a temporary project, forge dir and
// agent dir, and returns the workspace and the session file.
func testWorkspace(t testing.TB) (resources.Workspace, string) {
	t.Helper()
	root := t.TempDir()
	copyTree(t, filepath.Join("testdata", "project"), filepath.Join(root, "project"))
	copyTree(t, filepath.Join("testdata", "forge"), filepath.Join(root, "forge"))
	agent := filepath.Join(root, "agent")
	if err := os.MkdirAll(agent, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sess := filepath.Join(root, "session.jsonl")
	if err := os.WriteFile(sess, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ws := resources.Workspace{Cwd: filepath.Join(root, "project"), AgentDir: agent,
		ForgeDir: filepath.Join(root, "forge"), Trust: resources.Trust{Trusted: true, Source: "flag"}}
	return ws, sess
}

func copyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// harness drives the panel through the shared uitest harness; m is the
// panel itself for tests that look inside.
type harness struct {
	*uitest.Harness[common.Panel]
	com      *common.Common
	m        *Model
	sessFile string
}

func newHarness(t testing.TB, w, h int, withSession bool) *harness {
	t.Helper()
	return newHarnessOpts(t, w, h, withSession, nil)
}

// newHarnessWith lets setup add files to the project before loading.
func newHarnessWith(t testing.TB, w, h int, setup func(testing.TB, string)) *harness {
	t.Helper()
	return newHarnessOpts(t, w, h, false, setup)
}

func newHarnessOpts(t testing.TB, w, h int, withSession bool, setup func(testing.TB, string)) *harness {
	t.Helper()
	ws, sess := testWorkspace(t)
	if setup != nil {
		setup(t, ws.Cwd)
	}
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys, Workspace: ws, Width: w, Height: h}
	if withSession {
		com.Selection = common.Selection{SessionFile: sess, SessionName: "review", EntryID: "e0000004"}
	}
	m := New(com)
	m.SetSize(w, h)
	hs := &harness{Harness: uitest.ForPanel(t, m, com), com: com, m: m, sessFile: sess}
	hs.Run(m.Init())
	return hs
}

// openByID opens the Preset with the given key from the list.
func (hs *harness) openByID(key string) {
	hs.TB().Helper()
	for i, p := range hs.m.lib.Presets {
		if p.Key() == key {
			hs.m.focus = paneList
			hs.m.presets.SetCursor(i)
			hs.Press("enter")
			return
		}
	}
	hs.TB().Fatalf("no preset %s", key)
}

// itemIndex finds an item of the draft by id.
func (hs *harness) itemIndex(id string) int {
	hs.TB().Helper()
	i := hs.m.d.IndexOf(id)
	if i < 0 {
		hs.TB().Fatalf("no item %s", id)
	}
	return i
}

// answerPrompt replaces the suggested text of the open id prompt with
// text and accepts it.
func (hs *harness) answerPrompt(text string) {
	hs.TB().Helper()
	if hs.m.topDialog() == nil || hs.m.topDialog().kind != dialogPrompt {
		hs.TB().Fatal("no prompt is open")
	}
	for range len([]rune(hs.m.topDialog().input.Value())) {
		hs.Press("backspace")
	}
	hs.Type(text)
	hs.Press("enter")
}
