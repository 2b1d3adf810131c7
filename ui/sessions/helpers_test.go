package sessions

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
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
		// As Pi left it: written at its last entry, long before testNow,
		// so no session looks live unless a test makes it so.
		written, _ := time.Parse("2006-01-02T15-04-05", file[:19])
		if err := os.Chtimes(p, written, written); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	if tt, ok := t.(*testing.T); ok {
		tt.Setenv(session.EnvSessionDir, "")
	}
	return resources.Workspace{Cwd: testCwd, AgentDir: agent, Trust: resources.Trust{Trusted: true}}, paths
}

// harness drives the panel through the shared uitest harness; m is the
// panel itself for tests that look inside.
type harness struct {
	*uitest.Harness[common.Panel]
	com *common.Common
	m   *Model
	// now is the panel's clock (Common.Now), testNow until a test moves it.
	now time.Time
}

// testNow is the harness's clock: after the test sessions (November
// 2026), in the same year.
var testNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func newHarness(t testing.TB, w, h int) (*harness, map[string]string) {
	t.Helper()
	return newHarnessWith(t, w, h, nil)
}

// newHarnessWith is newHarness with setup run on the panel and the test
// sessions before it starts (EnableWatch, an Intercept, a file's time).
func newHarnessWith(t testing.TB, w, h int, setup func(*harness, map[string]string)) (*harness, map[string]string) {
	t.Helper()
	ws, paths := testWorkspace(t)
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: hsStyles(), Keys: &keys, Workspace: ws, Width: w, Height: h}
	m := New(com)
	m.SetSize(w, h)
	hs := &harness{Harness: uitest.ForPanel(t, m, com), com: com, m: m, now: testNow}
	com.Now = func() time.Time { return hs.now }
	if setup != nil {
		setup(hs, paths)
	}
	hs.Run(m.Init())
	hs.Settle() // the leaf's detail renders once the panel rests
	return hs, paths
}

// view renders the panel.
func (hs *harness) view() string { return hs.m.View() }

// focusOn moves focus to pane p with FocusNext like tab does.
func (hs *harness) focusOn(p pane) {
	for i := 0; i < int(paneCount) && hs.m.focus != p; i++ {
		hs.m.FocusNext()
	}
}

// entryIndex resolves an entry id of the open session.
func (hs *harness) entryIndex(id string) int {
	hs.TB().Helper()
	idx, ok := hs.m.ls.sess.IndexOf(id)
	if !ok {
		hs.TB().Fatalf("no entry %s", id)
	}
	return idx
}

func hsStyles() themes.Styles { return themes.For(themes.Dark, true, false) }

// pressCopy presses a copy key and returns what reached the clipboard
// ("" when nothing did): the copy runs in a command whose result sets
// the clipboard through tea.SetClipboard.
func pressCopy(t testing.TB, hs *harness, k string) string {
	t.Helper()
	clip := ""
	want := tea.SetClipboard("x")()
	hs.Intercept = func(msg tea.Msg) bool {
		if reflect.TypeOf(msg) == reflect.TypeOf(want) {
			clip = reflect.ValueOf(msg).String()
			return true
		}
		return false
	}
	defer func() { hs.Intercept = nil }()
	hs.Press(k)
	return clip
}

// jump sends a jump to entry of file ("" = its leaf) in this panel, as
// the global search (with its query) or the Payloads panel does.
func (hs *harness) jump(file, entry, query string) {
	hs.TB().Helper()
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelSession,
		SessionFile: file, EntryID: entry, SearchQuery: query}})
}
