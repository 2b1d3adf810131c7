package presets

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
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

// harness drives the panel like the root does: it runs commands, feeds
// their messages back and records selection changes.
type harness struct {
	t          testing.TB
	com        *common.Common
	m          *Model
	sessFile   string
	selections []common.Selection
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
	keys := keymap.DefaultGlobal()
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys, Workspace: ws, Width: w, Height: h}
	if withSession {
		com.Selection = common.Selection{SessionFile: sess, SessionName: "review", EntryID: "e0000004"}
	}
	m := New(com)
	m.SetSize(w, h)
	hs := &harness{t: t, com: com, m: m, sessFile: sess}
	hs.run(m.Init())
	return hs
}

// run executes cmd and everything it leads to, synchronously.
func (hs *harness) run(cmd tea.Cmd) {
	hs.t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 1000 {
			hs.t.Fatal("commands do not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case common.SelectionChangedMsg:
			hs.selections = append(hs.selections, msg.Selection)
			hs.com.Selection = msg.Selection
			_, next := hs.m.Update(msg)
			queue = append(queue, next)
		default:
			if isExec(msg) {
				continue // the harness never hands the terminal away
			}
			_, next := hs.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// isExec reports bubbletea's internal exec message (tea.ExecProcess).
func isExec(msg tea.Msg) bool { return fmt.Sprintf("%T", msg) == "tea.execMsg" }

// press sends keys by name and settles the commands they start.
func (hs *harness) press(keys ...string) {
	hs.t.Helper()
	for _, k := range keys {
		_, cmd := hs.m.Update(keyMsg(k))
		hs.run(cmd)
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeText types each rune of s.
func (hs *harness) typeText(s string) {
	hs.t.Helper()
	for _, r := range s {
		hs.press(string(r))
	}
}

// openByID opens the Preset with the given key from the list.
func (hs *harness) openByID(key string) {
	hs.t.Helper()
	for i, p := range hs.m.lib.Presets {
		if p.Key() == key {
			hs.m.focus = paneList
			hs.m.listCursor = i
			hs.press("enter")
			return
		}
	}
	hs.t.Fatalf("no preset %s", key)
}

// itemIndex finds an item of the draft by id.
func (hs *harness) itemIndex(id string) int {
	hs.t.Helper()
	for i := range hs.m.d.items() {
		if itemID(hs.m.d.item(i)) == id {
			return i
		}
	}
	hs.t.Fatalf("no item %s", id)
	return -1
}
