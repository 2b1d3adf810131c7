package capabilities

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/resources/demo"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

func TestMain(m *testing.M) {
	time.Local = time.UTC
	os.Exit(m.Run())
}

// harness drives the panel over an unpacked demo workspace.
type harness struct {
	*uitest.Harness[common.Panel]
	com    *common.Common
	m      *Model
	layout demo.Layout
}

// newHarness unpacks the demo, opens the panel at w×h and follows the
// demo's main session ("Invoice rounding fix", which carries capability
// history) at its leaf.
func newHarness(t testing.TB, w, h int, trusted bool) *harness {
	t.Helper()
	layout, err := demo.Unpack(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if tt, ok := t.(*testing.T); ok {
		tt.Setenv(session.EnvSessionDir, "")
		tt.Setenv("PI_FORGE_GLOBAL_CONFIG_PATH", "")
	}
	ws := resources.Workspace{Cwd: layout.ProjectDir, AgentDir: layout.AgentDir, ForgeDir: layout.ForgeDir,
		Trust: resources.Trust{Trusted: trusted, Source: "test"}}
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys, Workspace: ws, Width: w, Height: h}
	m := New(com)
	// A fixed clock well after the demo's sessions: nothing looks live.
	m.now = func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }
	n := 0
	m.newID = func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }
	m.SetSize(w, h)
	hs := &harness{Harness: uitest.ForPanel(t, m, com), com: com, m: m, layout: layout}
	hs.Run(m.Init())
	hs.follow(hs.mainSession(), "")
	return hs
}

// mainSession is the path of the demo's session with capability history.
func (hs *harness) mainSession() string {
	hs.TB().Helper()
	m, err := filepath.Glob(filepath.Join(hs.layout.SessionDir, "2026-11-27T09-*.jsonl"))
	if err != nil || len(m) != 1 {
		hs.TB().Fatalf("main demo session: %v %v", m, err)
	}
	return m[0]
}

// follow announces a selection as the Session panel would.
func (hs *harness) follow(file, entry string) {
	hs.Send(common.SelectionChangedMsg{Selection: common.Selection{SessionFile: file, SessionName: "Invoice rounding fix", EntryID: entry}})
}

// focusOn moves focus to pane p.
func (hs *harness) focusOn(p pane) {
	for i := 0; i < int(paneCount) && hs.m.focus != p; i++ {
		hs.m.FocusNext()
	}
}

// selectCapability puts the library cursor on key.
func (hs *harness) selectCapability(key string) {
	hs.TB().Helper()
	if !hs.m.list.Select(func(r libRow) bool { return r.key == key }) {
		hs.TB().Fatalf("no %s in the library", key)
	}
	hs.Run(hs.m.requestDetail())
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// dialogOpen reports whether a dialog is open.
func (hs *harness) dialogOpen() bool { return hs.m.dialogs.Open() }

// preview is the action preview on top of the dialog stack (nil: none).
func (hs *harness) preview() *previewDialog {
	d, _ := hs.m.dialogs.Top().(*previewDialog)
	return d
}

// prompt is the one-line prompt on top of the dialog stack (nil: none).
func (hs *harness) prompt() *promptDialog {
	d, _ := hs.m.dialogs.Top().(*promptDialog)
	return d
}
