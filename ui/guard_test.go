package ui

import (
	"fmt"
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

// demoHarness opens the workbench on the embedded demo, as `--demo`
// does, and runs its loading to completion.
func demoHarness(t *testing.T) (*Model, *uitest.Harness[tea.Model]) {
	t.Helper()
	return demoHarnessIn(t, t.TempDir())
}

// demoHarnessIn is demoHarness with the demo unpacked in dir.
func demoHarnessIn(t *testing.T, dir string) (*Model, *uitest.Harness[tea.Model]) {
	t.Helper()
	layout, err := demo.Unpack(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	ws, err := resources.OpenWorkspace(resources.Dirs{Cwd: layout.ProjectDir, AgentDir: layout.AgentDir, ForgeDir: layout.ForgeDir},
		resources.TrustForce, resources.OSEnv())
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Workspace: ws, Theme: themes.Dark, Keys: keymap.DefaultSet()})
	h := uitest.ForModel(t, m)
	h.UseTimers(m.com) // polls and expiries wait in h.Timers: nothing sleeps
	h.Resize(160, 48)
	h.Run(m.Init())
	return m, h
}

func screen(m *Model) string { return ansi.Strip(m.View().Content) }

// The defect: with a draft unsaved, q quit at once and the change was
// gone. Now q asks; n keeps the program and the draft; y quits.
func TestQuitAsksWhileAPresetDraftIsUnsaved(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("enter", "space")
	if !strings.Contains(screen(m), "(unsaved)") {
		t.Fatalf("enter, space should leave an unsaved draft:\n%s", screen(m))
	}
	h.Press("q")
	if h.Quit || !strings.Contains(screen(m), "Quitting now discards the unsaved changes to ") {
		t.Fatalf("q with an unsaved draft must ask first (quit=%v):\n%s", h.Quit, screen(m))
	}
	uitest.AssertFits(t, m.View().Content, 160, 48)
	h.Press("1", "j", "ctrl+s") // every other key is swallowed by the question
	if h.Quit || m.openQuitQuestion() == nil {
		t.Fatal("only y or n answers the question")
	}
	h.Press("n")
	if h.Quit || m.openQuitQuestion() != nil || !strings.Contains(screen(m), "(unsaved)") {
		t.Fatalf("n keeps the program and the draft:\n%s", screen(m))
	}
	h.Press("q", "y")
	if !h.Quit {
		t.Fatal("y quits")
	}
}

// ctrl+c while typing in a block goes through the same question (the
// typed text is already in the draft); the palette's Quit too.
func TestCtrlCWhileTypingInABlockAsks(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("g", "down", "down", "enter", "enter") // pi-mirror, its first block
	if !m.panels[0].CapturesInput() {
		t.Fatalf("enter on a block should start the inline editor:\n%s", screen(m))
	}
	h.Type("more words")
	h.Press("ctrl+c")
	if h.Quit || !strings.Contains(screen(m), "Quitting now discards") {
		t.Fatalf("ctrl+c while typing must ask:\n%s", screen(m))
	}
	h.Press("esc")
	if m.openQuitQuestion() != nil || !m.panels[0].CapturesInput() {
		t.Fatal("esc answers no and the editor keeps the keyboard")
	}
	h.Press("ctrl+c", "y")
	if !h.Quit {
		t.Fatal("y quits")
	}

	clean, hc := demoHarness(t)
	hc.Press(":")
	hc.Type("Quit")
	hc.Press("enter")
	if !hc.Quit || clean.openQuitQuestion() != nil {
		t.Fatal("with nothing unsaved the palette's Quit quits at once")
	}
}

// A theme switch replaces Common.Styles and tells every panel, so panels
// drop or re-key what they rendered; the same theme again tells nobody.
func TestThemeSwitchIsBroadcast(t *testing.T) {
	m := newTestModel(100, 30)
	probes := make([]*probe, len(m.panels))
	for i := range m.panels {
		probes[i] = &probe{stubPanel: newStub("Probe")}
		m.panels[i] = probes[i]
	}
	m.Update(setThemeMsg(themes.Light))
	m.Update(setThemeMsg(themes.Light))
	for i, p := range probes {
		if len(p.got) != 1 {
			t.Fatalf("panel %d got %d messages, want one ThemeChangedMsg", i, len(p.got))
		}
		msg, ok := p.got[0].(common.ThemeChangedMsg)
		if !ok || msg.Styles.Palette.Name != "light" || m.com.Styles.Palette.Name != "light" {
			t.Fatalf("panel %d got %#v", i, p.got[0])
		}
	}
}

func TestWheelFilterCoalescesBursts(t *testing.T) {
	now := time.Unix(0, 0)
	filter := WheelFilter(func() time.Time { return now })
	down := tea.MouseWheelMsg{Button: tea.MouseWheelDown}
	up := tea.MouseWheelMsg{Button: tea.MouseWheelUp}
	passed := func(msg tea.Msg) bool { return filter(nil, msg) != nil }
	if !passed(down) {
		t.Fatal("the first wheel event passes")
	}
	now = now.Add(5 * time.Millisecond)
	if passed(down) {
		t.Fatal("a burst in the same direction is coalesced")
	}
	if !passed(up) {
		t.Fatal("a change of direction passes at once")
	}
	now = now.Add(wheelInterval)
	if !passed(up) {
		t.Fatal("after the interval the next event passes")
	}
	if key := (tea.KeyPressMsg{Code: 'j'}); filter(nil, key) != key {
		t.Fatal("other messages pass untouched")
	}
}

// The quit question says what quitting will discard, at both sizes (the
// golden is the question's box: the screen under it shows the demo's
// temporary paths).
func TestGoldenQuitQuestion(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		m, h := demoHarness(t)
		h.Resize(size.w, size.h)
		h.Press("enter", "space", "q")
		if m.openQuitQuestion() == nil {
			t.Fatal("q with an unsaved draft asks")
		}
		uitest.AssertFits(t, m.View().Content, size.w, size.h)
		uitest.Golden(t, fmt.Sprintf("quit_question_%dx%d", size.w, size.h), m.openQuitQuestion().View(size.w, size.h))
	}
}

// While the quit question is open it takes every key, so the footer says
// its answers, as a panel's dialog does — not the panel's keys and the
// root's, which it swallows.
func TestQuitQuestionGivesTheFooter(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("enter", "space", "q")
	lines := strings.Split(screen(m), "\n")
	footer := lines[len(lines)-1]
	if !strings.Contains(footer, "y yes, discard") || !strings.Contains(footer, "n/esc no, keep working") || strings.Contains(footer, "? ") {
		t.Fatalf("the footer under the quit question: %q", footer)
	}
}
