package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	gen "github.com/forgebench/forgebench/internal/sessiongen"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestHeaderStaysOneLineOverZeroedText: a mapped session file truncated
// under the TUI reads as NUL bytes past its new end, and the selection's
// session name and entry id were views of those bytes: the header drew
// them empty and wrapped, pushing the footer off the screen.
func TestHeaderStaysOneLineOverZeroedText(t *testing.T) {
	for _, w := range []int{80, 160} {
		m := demoLikeModel(w, 24, true)
		m.com.Selection.SessionName = strings.Repeat("\x00", 15)
		m.com.Selection.EntryID = strings.Repeat("\x00", 8)
		header := m.headerView()
		if strings.Contains(header, "\n") || ansi.StringWidth(ansi.Strip(header)) != w {
			t.Errorf("width %d: the header is not one line of %d cells: %q", w, w, ansi.Strip(header))
		}
		if strings.ContainsRune(header, 0) {
			t.Errorf("width %d: NUL bytes reach the screen: %q", w, header)
		}
	}
}

// truncatedHarness opens a generated 1.5 MB session (read through a
// mapping) in the Session panel at w×h.
func truncatedHarness(t *testing.T, w, h int) (*Model, *uitest.Harness[tea.Model], string) {
	t.Helper()
	was := time.Local
	time.Local = time.UTC // the timeline shows clock times
	t.Cleanup(func() { time.Local = was })
	root := t.TempDir()
	project, agent, forge := filepath.Join(root, "project"), filepath.Join(root, "agent"), filepath.Join(root, "forge")
	dir := filepath.Join(agent, "sessions", session.EncodeCwd(project))
	for _, d := range []string{project, forge, dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "2026-11-01T09-00-00-000Z_cut.jsonl")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{TargetBytes: 1500 << 10, Seed: 3, ID: "cut-one", Cwd: project}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	ws, err := resources.OpenWorkspace(resources.Dirs{Cwd: project, AgentDir: agent, ForgeDir: forge}, resources.TrustForce, resources.OSEnv())
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Workspace: ws, Theme: themes.Dark, Keys: keymap.DefaultSet(), Home: root})
	hs := uitest.ForModel(t, m)
	hs.UseTimers(m.com)
	hs.Resize(w, h)
	hs.Run(m.Init())
	hs.Press("3")
	if m.com.Selection.SessionFile != file {
		hs.Press("enter")
	}
	if m.com.Selection.SessionFile != file {
		t.Fatalf("the session did not open: %+v", m.com.Selection)
	}
	return m, hs, file
}

// TestTruncatedOpenSessionSaysReload is item 9 of issue 20: the open
// session's file is cut mid-line; the header stays one line and says
// "file truncated — reload" where the entry was (its id read as zeros),
// and reload reads the file again.
func TestTruncatedOpenSessionSaysReload(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		name := fmt.Sprintf("truncated_%dx%d", size.w, size.h)
		t.Run(name, func(t *testing.T) {
			m, hs, file := truncatedHarness(t, size.w, size.h)
			if err := os.Truncate(file, 1<<20+17); err != nil { // mid-line, before the leaf
				t.Fatal(err)
			}
			deadline := time.Now().Add(5 * time.Second)
			for !m.selectedTruncated() && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond) // the file watch heals the mapping on its own goroutine
			}
			if !m.selectedTruncated() {
				t.Fatal("the cut file was not noticed")
			}
			hs.Press("down") // any key draws again
			view := m.View().Content
			uitest.AssertFits(t, view, size.w, size.h)
			header := strings.SplitN(ansi.Strip(view), "\n", 2)[0]
			if !strings.Contains(header, "file truncated — reload") {
				t.Errorf("the header does not say so: %q", header)
			}
			if strings.ContainsRune(view, 0) {
				t.Error("NUL bytes reach the screen")
			}
			uitest.Golden(t, name, view)
			hs.Press("r")
			after := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]
			if m.selectedTruncated() || strings.Contains(after, "truncated") || !strings.Contains(after, "entry ") {
				t.Errorf("after reload the header should name an entry of the file read again: %q", after)
			}
		})
	}
}
