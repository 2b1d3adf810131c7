package sessions

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

const testCwd = "/home/ada/projects/demo-app"

func TestMain(m *testing.M) {
	time.Local = time.UTC // goldens show clock times
	os.Exit(m.Run())
}

// testWorkspace copies the testdata sessions into a fresh agent dir laid
// out like Pi's (sessions/<encoded cwd>/<ts>_<id>.jsonl).
func testWorkspace(t testing.TB) (resources.Workspace, map[string]string) {
	t.Helper()
	agent := t.TempDir()
	dir := filepath.Join(agent, "sessions", session.EncodeCwd(testCwd))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"rounding": "2026-11-27T10-00-00-000Z_01a2f000-0000-7000-8000-000000000001.jsonl",
		"currency": "2026-11-26T08-00-00-000Z_01a2f000-0000-7000-8000-000000000002.jsonl",
	}
	paths := map[string]string{}
	for name, file := range files {
		data, err := os.ReadFile(filepath.Join("testdata", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, file)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	if tt, ok := t.(*testing.T); ok {
		tt.Setenv(session.EnvSessionDir, "")
	}
	return resources.Workspace{Cwd: testCwd, AgentDir: agent, Trust: resources.Trust{Trusted: true}}, paths
}

// harness drives the panel like the root does: it runs commands, feeds
// their messages back and broadcasts selection changes.
type harness struct {
	t          testing.TB
	com        *common.Common
	m          *Model
	selections []common.Selection
}

func newHarness(t testing.TB, w, h int) (*harness, map[string]string) {
	t.Helper()
	ws, paths := testWorkspace(t)
	keys := keymap.DefaultGlobal()
	com := &common.Common{Styles: hsStyles(), Keys: &keys, Workspace: ws, Width: w, Height: h}
	m := New(com)
	m.SetSize(w, h)
	hs := &harness{t: t, com: com, m: m}
	hs.run(m.Init())
	return hs, paths
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
		msg := c()
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case resultsMsg: // its selection is re-announced and recorded below
			_, next := hs.m.Update(msg)
			queue = append(queue, next)
		case common.SelectionChangedMsg:
			hs.selections = append(hs.selections, msg.Selection)
			hs.com.Selection = msg.Selection
			_, next := hs.m.Update(msg)
			queue = append(queue, next)
		default:
			_, next := hs.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

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
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeText types each rune of s.
func (hs *harness) typeText(s string) {
	for _, r := range s {
		hs.press(string(r))
	}
}

// view renders the panel (settling anything the render asked for first).
func (hs *harness) view() string {
	hs.t.Helper()
	return hs.m.View()
}

// focusOn moves focus to pane p with FocusNext like tab does.
func (hs *harness) focusOn(p pane) {
	for i := 0; i < int(paneCount) && hs.m.focus != p; i++ {
		hs.m.FocusNext()
	}
}

// entryIndex resolves an entry id of the open session.
func (hs *harness) entryIndex(id string) int {
	hs.t.Helper()
	idx, ok := hs.m.ls.sess.IndexOf(id)
	if !ok {
		hs.t.Fatalf("no entry %s", id)
	}
	return idx
}

func hsStyles() themes.Styles { return themes.For(themes.Dark, true, false) }
