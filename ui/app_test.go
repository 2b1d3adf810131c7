package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

func newTestModel(w, h int) *Model {
	m := New(Options{
		Workspace: resources.Workspace{Cwd: "/home/ada/projects/demo-app", Trust: resources.Trust{Trusted: true}},
		Theme:     themes.Dark,
		Keys:      keymap.DefaultSet(),
		Home:      "/home/ada",
		// Statuses never expire by themselves here; tests that want
		// them to use a harness's timers (uitest.UseTimers).
		Timer: func(time.Duration, tea.Msg) tea.Cmd { return nil },
	})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// press sends keys by name to the root through the shared harness and
// reports whether a command asked the program to quit.
func press(t *testing.T, m *Model, keys ...string) (quit bool) {
	t.Helper()
	h := uitest.ForModel(t, m)
	h.Press(keys...)
	return h.Quit
}

func TestGoldenShell(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for tab := 1; tab <= 5; tab++ {
			name := fmt.Sprintf("shell_tab%d_%dx%d", tab, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				m := newTestModel(size.w, size.h)
				press(t, m, fmt.Sprint(tab))
				view := m.View().Content
				uitest.AssertFits(t, view, size.w, size.h)
				uitest.Golden(t, name, view)
			})
		}
		t.Run(fmt.Sprintf("help_%dx%d", size.w, size.h), func(t *testing.T) {
			m := newTestModel(size.w, size.h)
			press(t, m, "3", "?")
			view := m.View().Content
			uitest.AssertFits(t, view, size.w, size.h)
			uitest.Golden(t, fmt.Sprintf("help_%dx%d", size.w, size.h), view)
		})
	}
}

func TestTabsHelpAndQuit(t *testing.T) {
	m := newTestModel(120, 30)
	press(t, m, "4")
	if m.active != 3 {
		t.Fatalf("4 should open the Payloads tab, active=%d", m.active)
	}
	press(t, m, "?")
	if !strings.Contains(ansi.Strip(m.View().Content), "Keys — Payloads") {
		t.Fatal("? should open help for the focused panel")
	}
	press(t, m, "2") // keys other than close are swallowed by the open dialog
	if m.active != 3 || !m.showHelp {
		t.Fatal("the help dialog must take keys before global shortcuts")
	}
	press(t, m, "esc")
	if m.showHelp {
		t.Fatal("esc should close help")
	}
	if !press(t, m, "q") {
		t.Fatal("q should quit")
	}
}

func TestHelpIsGeneratedFromKeymap(t *testing.T) {
	keys := keymap.DefaultSet()
	if err := keymap.Apply(&keys, map[string][]string{"quit": {"x"}}); err != nil {
		t.Fatal(err)
	}
	m := New(Options{Theme: themes.Dark, Keys: keys})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	footer := ansi.Strip(m.footerView())
	if !strings.Contains(footer, "x quit") || strings.Contains(footer, "q quit") {
		t.Fatalf("footer help must follow the rebinding, got %q", footer)
	}
}

func TestBackgroundQuerySwitchesAutoTheme(t *testing.T) {
	m := New(Options{Theme: themes.Auto, Keys: keymap.DefaultSet()})
	if m.com.Styles.Palette.Name != "dark" {
		t.Fatalf("auto must default to dark before the terminal answers, got %s", m.com.Styles.Palette.Name)
	}
	m.Update(tea.BackgroundColorMsg{Color: themes.LightPalette().Base})
	if m.com.Styles.Palette.Name != "light" {
		t.Fatalf("a light background should select the light palette, got %s", m.com.Styles.Palette.Name)
	}
	forced := New(Options{Theme: themes.Dark, Keys: keymap.DefaultSet()})
	forced.Update(tea.BackgroundColorMsg{Color: themes.LightPalette().Base})
	if forced.com.Styles.Palette.Name != "dark" {
		t.Fatal("--theme dark must ignore the terminal background")
	}
	mono := New(Options{Theme: themes.Dark, NoColor: true, Keys: keymap.DefaultSet()})
	if mono.com.Styles.Palette.Name != "mono" {
		t.Fatal("NO_COLOR must select the colourless palette")
	}
}

func TestPaletteRunsFilteredAction(t *testing.T) {
	m := newTestModel(100, 30)
	press(t, m, ":")
	if !m.palette.IsOpen() {
		t.Fatal(": should open the command palette")
	}
	press(t, m, "s", "e", "s", "s")
	if !strings.Contains(ansi.Strip(m.View().Content), "Go to Session") {
		t.Fatal("filtering for 'sess' should list 'Go to Session'")
	}
	if press(t, m, "q") {
		t.Fatal("q is typed into the filter, it does not quit")
	}
	press(t, m, "backspace", "enter") // runs the selected action
	if m.palette.IsOpen() || m.active != 2 {
		t.Fatalf("palette open=%v active=%d, want closed and Session (2)", m.palette.IsOpen(), m.active)
	}
}

// The palette over the demo: every kind of row, with its kind, at both
// sizes; empty (the focused panel's actions first) and with a query. The
// golden is the palette's box (the screen under it shows the demo's
// temporary paths).
func TestGoldenPalette(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, c := range []struct{ name, session, tab, query string }{
			{"palette", "", "1", ""}, {"palette_query", "", "3", "inv"}, {"palette_entries", "rounding", "3", "re"},
		} {
			name := fmt.Sprintf("%s_%dx%d", c.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				m, h := demoHarness(t)
				h.Resize(size.w, size.h)
				if c.session != "" {
					goTo(h, c.session)
				}
				h.Press(c.tab, ":")
				h.Type(c.query)
				uitest.AssertFits(t, m.View().Content, size.w, size.h)
				uitest.Golden(t, name, m.palette.View(m.com.Styles, size.w))
			})
		}
	}
}

// probe is a panel that records the messages it receives.
type probe struct {
	*stubPanel
	got []tea.Msg
}

func (p *probe) Update(msg tea.Msg) (common.Panel, tea.Cmd) {
	p.got = append(p.got, msg)
	return p, nil
}

type loadDoneMsg struct{}

func TestCommandResultsReachPanelsThatAreNotShowing(t *testing.T) {
	m := newTestModel(100, 30)
	hidden := &probe{stubPanel: newStub("Hidden")}
	m.panels[4] = hidden
	press(t, m, "1")
	m.Update(loadDoneMsg{})
	m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if len(hidden.got) != 1 {
		t.Fatalf("the hidden panel got %d messages, want only the command result", len(hidden.got))
	}
	if _, ok := hidden.got[0].(loadDoneMsg); !ok {
		t.Fatalf("got %T", hidden.got[0])
	}
}

// typing is a panel whose text input has focus.
type typing struct{ *stubPanel }

func (typing) CapturesInput() bool { return true }

func TestFooterKeepsGlobalKeysAndHidesThemWhileTyping(t *testing.T) {
	m := newTestModel(80, 24)
	if footer := ansi.Strip(m.footerView()); !strings.Contains(footer, "? all keys") || !strings.Contains(footer, "q quit") {
		t.Fatalf("the global keys must stay visible at 80 columns: %q", footer)
	}
	m.panels[m.active] = typing{newStub("Typing")}
	if footer := ansi.Strip(m.footerView()); strings.Contains(footer, "q quit") || strings.Contains(footer, "? help") {
		t.Fatalf("while a text input has focus q and ? are text, not keys: %q", footer)
	}
	if groups := withoutRepeats([][]key.Binding{{m.keys.Back}}, m.keys.FullHelp()); countHelp(groups, "back") != 1 {
		t.Fatal("a key the panel lists must not be listed again by the root")
	}
}

func countHelp(groups [][]key.Binding, desc string) int {
	n := 0
	for _, g := range groups {
		for _, b := range g {
			if b.Help().Desc == desc {
				n++
			}
		}
	}
	return n
}

// ctrl+f and the palette open the global search over the body; it takes
// every key while open (q types, it does not quit) and esc closes it.
func TestFindOpensFromCtrlFAndThePalette(t *testing.T) {
	m := newTestModel(80, 24)
	press(t, m, "ctrl+f")
	if !m.find.IsOpen() || !strings.Contains(ansi.Strip(m.View().Content), "Search sessions") {
		t.Fatal("ctrl+f should open the search view")
	}
	if press(t, m, "q") || !m.find.IsOpen() {
		t.Fatal("q is typed into the query while the search view is open")
	}
	press(t, m, "esc")
	if m.find.IsOpen() {
		t.Fatal("esc closes the search view")
	}
	press(t, m, ":")
	uitest.New(t, m, func(m *Model, msg tea.Msg) (*Model, tea.Cmd) { _, c := m.Update(msg); return m, c }).Type("search all")
	press(t, m, "enter")
	if !m.find.IsOpen() {
		t.Fatal("the palette's Search all sessions opens the view")
	}
}
