package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/resources/demo"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

func TestMain(m *testing.M) {
	time.Local = time.UTC // goldens show clock times
	os.Exit(m.Run())
}

// demoRootID is the pi-subagent root session of the demo workspace.
const demoRootID = "01a2219b-7aa3-71cb-a60b-a97d171ea8a4"

// demoWorkspace unpacks the demo and returns its workspace and the paths
// of the tree's root session and of a session without a tree.
func demoWorkspace(t testing.TB) (resources.Workspace, string, string) {
	t.Helper()
	layout, err := demo.Unpack(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	roots, _ := filepath.Glob(filepath.Join(layout.SessionDir, "*_"+demoRootID+".jsonl"))
	plain, _ := filepath.Glob(filepath.Join(layout.SessionDir, "2026-11-27T09-14-05-112Z_*.jsonl"))
	if len(roots) != 1 || len(plain) != 1 {
		t.Fatalf("demo sessions not found: %v %v", roots, plain)
	}
	ws := resources.Workspace{Cwd: layout.ProjectDir, AgentDir: layout.AgentDir, Trust: resources.Trust{Trusted: true}}
	return ws, roots[0], plain[0]
}

// harness drives the panel through the shared uitest harness.
type harness struct {
	*uitest.Harness[common.Panel]
	com   *common.Common
	m     *Model
	plain string
	// now is the pinned clock (Common.Now).
	now time.Time
}

// fire delivers the timer messages of type T the panel scheduled through
// Common.Later (the harness keeps them instead of sleeping) and returns
// how many there were.
func fire[T tea.Msg](hs *harness) int {
	n := 0
	for _, tm := range hs.due() {
		if _, ok := tm.Msg.(T); ok {
			hs.Send(tm.Msg)
			n++
		} else {
			hs.Timers = append(hs.Timers, tm)
		}
	}
	return n
}

// due takes the pending timers out of the harness.
func (hs *harness) due() []uitest.Timer {
	pending := hs.Timers
	hs.Timers = nil
	return pending
}

// scheduled is how many pending timers carry a T, and after how long the
// first of them fires.
func scheduled[T tea.Msg](hs *harness) (n int, after time.Duration) {
	for _, tm := range hs.Timers {
		if _, ok := tm.Msg.(T); ok {
			if n == 0 {
				after = tm.After
			}
			n++
		}
	}
	return n, after
}

// newHarness opens the panel on the demo tree at w×h.
func newHarness(t testing.TB, w, h int) *harness {
	t.Helper()
	ws, root, plain := demoWorkspace(t)
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys, Workspace: ws, Width: w, Height: h}
	com.Selection.SessionFile = root
	m := New(com)
	m.SetSize(w, h)
	hs := &harness{com: com, m: m, plain: plain, now: time.Date(2026, 11, 28, 10, 30, 0, 0, time.UTC)}
	hs.Harness = uitest.ForPanel(t, m, com)
	com.Now = func() time.Time { return hs.now }
	hs.Run(m.Init())
	if m.live.tree == nil {
		t.Fatalf("the demo tree did not load: %s", m.live.problem.text())
	}
	return hs
}

// view is the panel's screen without styling.
func (hs *harness) view() string { return ansi.Strip(hs.m.View()) }

// rowPaths are the agent paths the list shows, in order.
func (hs *harness) rowPaths() []string {
	var out []string
	for i := 0; i < hs.m.agents.rows.Len(); i++ {
		out = append(out, hs.m.agents.rows.Shown(i).path)
	}
	return out
}

// selectPath moves the list cursor to an agent (and reads its activity).
func (hs *harness) selectPath(path string) {
	hs.TB().Helper()
	for i := 0; i < hs.m.agents.rows.Len(); i++ {
		if hs.m.agents.rows.Shown(i).path == path {
			hs.m.agents.rows.SetCursor(i)
			hs.Run(hs.m.requestActivity())
			return
		}
	}
	hs.TB().Fatalf("%s not listed: %v", path, hs.rowPaths())
}

func contains(t *testing.T, view string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(view, w) {
			t.Errorf("view lacks %q:\n%s", w, view)
		}
	}
}
