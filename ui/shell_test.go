package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// demoSelection is what the demo shows once the rounding session is open
// at an entry whose branch records a Preset.
var demoSelection = common.Selection{
	SessionFile:  "/tmp/forgebench-demo-1683967468/home/.pi/agent/sessions/x/rounding.jsonl",
	SessionName:  "Invoice rounding fix",
	EntryID:      "862c1f60",
	AtLeaf:       true,
	ActivePreset: "project:guarded-worker",
}

func demoLikeModel(w, h int, trusted bool) *Model {
	m := New(Options{
		Workspace: resources.Workspace{Cwd: "/tmp/forgebench-demo-1683967468/projects/demo-app", Trust: resources.Trust{Trusted: trusted}},
		Theme:     themes.Dark,
		Keys:      keymap.DefaultSet(),
		Home:      "/home/ada",
	})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.com.Selection = demoSelection
	return m
}

// The header lost the selection at 80 columns and cut the preset at 160:
// it now shortens the cwd (~, middle ellipsis), gives each field a
// minimum and drops the least useful first, so session, entry and
// preset stay.
func TestHeaderKeepsTheSelectionAt80And160Columns(t *testing.T) {
	for _, c := range []struct {
		w       int
		trusted bool
		want    []string
		gone    []string
	}{
		{160, true, []string{"forgebench", "cwd /tmp/forgebench-demo-", "…/projects/demo-app", "session Invoice rounding fix", "entry 862c1f60 (leaf)", "preset ▶ project:guarded-worker"}, nil},
		{80, true, []string{"session Invoice rounding fix", "entry 862c1f60 ●", "preset ▶ guarded-worker"}, []string{"forgebench", "trusted"}},
		{80, false, []string{"read-only", "session Invoice", "entry 862c1f60 ●", "preset ▶ guarded-w"}, []string{"forgebench"}},
		{60, true, []string{"session Invoice", "entry 862c1f60 ●"}, []string{"cwd"}},
	} {
		t.Run(fmt.Sprintf("%d_trusted_%v", c.w, c.trusted), func(t *testing.T) {
			m := demoLikeModel(c.w, 24, c.trusted)
			header := ansi.Strip(m.headerView())
			if w := ansi.StringWidth(header); w != c.w {
				t.Fatalf("the header is %d cells wide, want %d: %q", w, c.w, header)
			}
			for _, want := range c.want {
				if !strings.Contains(header, want) {
					t.Errorf("%q lacks %q", header, want)
				}
			}
			for _, gone := range c.gone {
				if strings.Contains(header, gone) {
					t.Errorf("%q should have dropped %q", header, gone)
				}
			}
		})
	}
	m := demoLikeModel(160, 48, true)
	m.cwdLabel = abbreviateHome("/home/ada/projects/demo-app", "/home/ada")
	m.com.Selection.PresetID = "project:pi-mirror"
	if h := ansi.Strip(m.headerView()); !strings.Contains(h, "cwd ~/") ||
		!strings.Contains(h, "preset project:pi-mirror (branch: ▶ project:guarded-worker)") {
		t.Fatalf("a Preset opened in the Presets panel shows with the branch's own: %q", h)
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		m := demoLikeModel(size[0], size[1], true)
		uitest.Golden(t, fmt.Sprintf("header_%dx%d", size[0], size[1]), m.headerView())
	}
}

// many is a panel with more keys than a footer holds.
type many struct{ *stubPanel }

func (p many) ShortHelp() []key.Binding {
	var bs []key.Binding
	for _, k := range []string{"enter edit", "x delete", "e $EDITOR", "ctrl+s save", "ctrl+z undo", "ctrl+y redo", "a add", "d duplicate", "J move down", "K move up", "space toggle", "m mode"} {
		name, desc, _ := strings.Cut(k, " ")
		bs = append(bs, key.NewBinding(key.WithKeys(name), key.WithHelp(name, desc)))
	}
	return bs
}

// Key hints were cut at 160 columns, hiding x, e and ctrl+s: they are
// fitted by rank now — whole hints, the panel's first keys and `?` kept,
// the root's tab/palette/quit giving way first.
func TestFooterFitsHintsByRank(t *testing.T) {
	m := newTestModel(160, 48)
	m.panels[m.active] = many{newStub("Many")}
	m.panels[m.active].SetSize(160, 45)
	footer := ansi.Strip(m.footerView())
	for _, want := range []string{"enter edit", "x delete", "e $EDITOR", "ctrl+s save", "? all keys"} {
		if !strings.Contains(footer, want) {
			t.Errorf("at 160 columns the footer lacks %q: %q", want, footer)
		}
	}
	if strings.Contains(footer, "tab next pane") || strings.Contains(footer, "…") {
		t.Errorf("the root's tab hint gives way first and nothing is cut: %q", footer)
	}
	m.width = 80 // a resize message would replace the test panel
	footer = ansi.Strip(m.footerView())
	if !strings.HasPrefix(strings.TrimSpace(footer), "enter edit • x delete • e $EDITOR • ctrl+s save") || !strings.Contains(footer, "? all keys") {
		t.Errorf("at 80 columns the most important keys stay: %q", footer)
	}
	uitest.Golden(t, "footer_many_80x24", m.footerView())
}

// The palette, the help and the quit question draw over the current
// screen, dimmed, instead of blanking it.
func TestDialogsDrawOverTheDimmedScreen(t *testing.T) {
	m := demoLikeModel(80, 24, true)
	press(t, m, "3", ":")
	view := m.View().Content
	plain := ansi.Strip(view)
	if !strings.Contains(plain, "Go to or run") || !strings.Contains(plain, "Sessions (0)") || !strings.Contains(plain, "session Invoice") {
		t.Fatalf("the palette sits over the panel, which stays visible:\n%s", plain)
	}
	if !strings.Contains(view, "\x1b[2m") {
		t.Fatal("the screen under the palette is dimmed (faint)")
	}
	uitest.AssertFits(t, view, 80, 24)
	press(t, m, "esc", "?")
	plain = ansi.Strip(m.View().Content)
	if !strings.Contains(plain, "Keys — Session") || !strings.Contains(plain, "session Invoice") {
		t.Fatalf("the help sits over the screen with the header readable:\n%s", plain)
	}
	if !strings.Contains(plain, "scroll") {
		t.Fatal("at 80x24 the help says it scrolls")
	}
	press(t, m, "down", "down")
	if m.helpOffset != 2 {
		t.Fatalf("↓ scrolls the help, offset %d", m.helpOffset)
	}
}

// A click on the tab bar switches panels; clicks and the wheel over the
// body reach the active panel in its own coordinates.
func TestMouseRoutesByPosition(t *testing.T) {
	m := newTestModel(120, 30)
	probe := &probe{stubPanel: newStub("Probe")}
	m.panels[4] = probe
	x := 0
	for i, label := range m.tabLabels() {
		if i == 4 {
			break
		}
		x += ansi.StringWidth(label) + 3
	}
	m.Update(tea.MouseClickMsg{X: x + 2, Y: 1, Button: tea.MouseLeft})
	if m.active != 4 {
		t.Fatalf("a click on the fifth tab switches to it, active %d", m.active)
	}
	m.Update(tea.MouseWheelMsg{X: 10, Y: 7, Button: tea.MouseWheelDown})
	m.Update(tea.MouseClickMsg{X: 3, Y: 0, Button: tea.MouseLeft})  // the header: nobody
	m.Update(tea.MouseClickMsg{X: 3, Y: 29, Button: tea.MouseLeft}) // the footer: nobody
	if len(probe.got) != 1 {
		t.Fatalf("only the body's event reaches the panel, got %d", len(probe.got))
	}
	wheel, ok := probe.got[0].(tea.MouseWheelMsg)
	if !ok || wheel.X != 10 || wheel.Y != 5 {
		t.Fatalf("the panel gets body coordinates (10,5), got %#v", probe.got[0])
	}
	press(t, m, ":")
	m.Update(tea.MouseClickMsg{X: 3, Y: 10, Button: tea.MouseLeft})
	if len(probe.got) != 1 {
		t.Fatal("nothing reaches a panel while a dialog is open")
	}
}

// With NO_COLOR the cursor row and code stay distinguishable: reverse
// video in the focused pane, underline elsewhere, code in italics and
// markdown's inline code in backticks.
func TestNoColorKeepsCursorAndCodeDistinguishable(t *testing.T) {
	st := themes.For(themes.Dark, true, true)
	if got := st.List.Selected.Render("row"); !strings.Contains(got, "7") || strings.Contains(got, "38;") {
		t.Fatalf("the focused cursor row is reverse video without colour: %q", got)
	}
	if got := st.List.SelectedBlurred.Render("row"); !strings.Contains(got, "4") {
		t.Fatalf("an unfocused cursor row is underlined: %q", got)
	}
	if got := st.Text.Code.Render("x := 1"); !strings.Contains(got, "3") {
		t.Fatalf("code is italic: %q", got)
	}
	md := common.NewMarkdown()
	out, ok := md.Render(&st, 40, "run `npm test` first")
	if !ok || !strings.Contains(ansi.Strip(out), "`npm test`") || strings.Contains(out, "38;") {
		t.Fatalf("inline code keeps its backticks and no colour: %q", out)
	}
}

// Issue 14: the header showed "preset —" for the demo's rounding session
// although its branch records project:guarded-worker; the header follows
// the selected session's entry as soon as it changes.
func TestDemoHeaderShowsTheBranchPreset(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("3")
	for _, k := range []string{"down", "down", "enter"} { // the picker: Invoice rounding fix
		h.Press(k)
	}
	header := ansi.Strip(m.headerView())
	if !strings.Contains(header, "session Invoice rounding fix") || !strings.Contains(header, "preset ▶ project:guarded-worker") {
		t.Fatalf("the header names the branch's Preset: %q", header)
	}
	h.Press("up")
	if sel := m.com.Selection; sel.AtLeaf || sel.EntryID == "" {
		t.Fatalf("moving the timeline's cursor moves the selection at once: %+v", sel)
	}
	if header2 := ansi.Strip(m.headerView()); header2 == header {
		t.Fatal("the header follows the cursor")
	}
}

// Every panel's footer fits 80 columns in every pane: whole hints only
// (each one a binding of the panel or the root), the panel's most
// important key and `?` always among them. (The Agents transcript hid its
// own keys behind ↑ and ↓ at 80 columns.)
func TestEveryFooterFitsAt80Columns(t *testing.T) {
	m, h := demoHarness(t)
	h.Resize(80, 24)
	for tab := 1; tab <= 5; tab++ {
		h.Press(fmt.Sprint(tab))
		for pane := 0; pane < 4; pane++ {
			panel := m.panels[m.active]
			footer := strings.TrimSpace(ansi.Strip(m.footerView()))
			where := fmt.Sprintf("%s, pane %d: %q", panel.Title(), pane, footer)
			if ansi.StringWidth(footer) > 78 || strings.Contains(footer, "…") {
				t.Errorf("%s: too wide or cut", where)
			}
			known := map[string]bool{}
			for _, b := range append(panel.ShortHelp(), m.keys.NextPane, m.keys.Palette, m.keys.Help, m.keys.Quit) {
				known[b.Help().Key+" "+b.Help().Desc] = true
			}
			known[m.keys.Help.Help().Key+" all keys"] = true
			for _, hint := range strings.Split(footer, " • ") {
				if !known[hint] {
					t.Errorf("%s: %q is not a whole hint", where, hint)
				}
			}
			if first := panel.ShortHelp(); len(first) > 0 && first[0].Enabled() &&
				!strings.Contains(footer, first[0].Help().Key+" "+first[0].Help().Desc) {
				t.Errorf("%s: the panel's first key is left out", where)
			}
			if !strings.Contains(footer, "? ") {
				t.Errorf("%s: ? is left out", where)
			}
			h.Press("tab")
		}
	}
	h.Press("5", "t") // the Agents transcript
	if footer := ansi.Strip(m.footerView()); !strings.Contains(footer, "p earlier") || !strings.Contains(footer, "space expand") {
		t.Errorf("the transcript's own keys give way to ↑/↓: %q", footer)
	}
}

// With nothing recorded on the branch the header showed "preset —",
// although pi-forge activates a Preset there: the one it would
// auto-activate, shown apart from a recorded selection (▶) as "(auto)";
// where none would be, "none (Pi's default prompt)", never a bare "—"
// (and with no session, what a new session would start with).
func TestHeaderShowsTheAutoActivatedPreset(t *testing.T) {
	auto := autoPresets{loaded: true, fresh: "project:guarded-worker", resume: "project:pi-mirror"}
	open := common.Selection{SessionFile: "s.jsonl", EntryID: "e1"}
	fresh := open
	fresh.FreshBranch = true
	recorded := open
	recorded.ActivePreset = "project:guarded-worker"
	opened := open
	opened.PresetID = "global:quick-review"
	for _, c := range []struct {
		sel         common.Selection
		auto        autoPresets
		full, short string
	}{
		{open, auto, "(auto) project:pi-mirror", "(auto) pi-mirror"},
		{fresh, auto, "(auto) project:guarded-worker", "(auto) guarded-worker"},
		{open, autoPresets{loaded: true}, "none (Pi's default prompt)", "none"},
		{open, autoPresets{}, "…", "…"}, // the library is not read yet
		// No session yet: what a new session would start with.
		{common.Selection{}, auto, "(auto) project:guarded-worker", "(auto) guarded-worker"},
		{common.Selection{}, autoPresets{loaded: true}, "none (Pi's default prompt)", "none"},
		{common.Selection{PresetID: "global:quick-review"}, auto, "global:quick-review", "quick-review"},
		{opened, autoPresets{}, "global:quick-review", "quick-review"},
		{opened, autoPresets{loaded: true}, "global:quick-review (branch: none (Pi's default prompt))", "quick-review"},
		{recorded, auto, "▶ project:guarded-worker", "▶ guarded-worker"},
		{opened, auto, "global:quick-review (branch: (auto) project:pi-mirror)", "quick-review"},
	} {
		if full, short := presetLabel(c.sel, c.auto); full != c.full || short != c.short {
			t.Errorf("%+v with %+v: %q / %q, want %q / %q", c.sel, c.auto, full, short, c.full, c.short)
		}
	}
	// The demo opens "Pre-release review", whose branch ends with a
	// recorded switch to the Guarded Worker (the auto-activation cases are
	// the table above).
	m, _ := demoHarness(t)
	if h := ansi.Strip(m.headerView()); !strings.Contains(h, "session Pre-release review") || !strings.Contains(h, "preset ▶ project:guarded-worker") {
		t.Fatalf("the header names the recorded Preset: %q", h)
	}
}

// Where no Preset applies, the header says so in words at 80 and 160
// columns ("none", in full where it fits), and while the library is read
// it shows "…", never "—".
func TestHeaderSaysWhenNoPresetApplies(t *testing.T) {
	for _, c := range []struct {
		w    int
		want string
	}{{160, "preset none (Pi's default prompt)"}, {80, "preset none"}} {
		m := demoLikeModel(c.w, 24, true)
		m.com.Selection = common.Selection{SessionFile: "s.jsonl", SessionName: "Invoice rounding fix", EntryID: "862c1f60", AtLeaf: true}
		m.auto = autoPresets{loaded: true}
		header := ansi.Strip(m.headerView())
		if !strings.Contains(header, c.want) || ansi.StringWidth(header) != c.w || strings.Contains(header, "preset —") {
			t.Errorf("%d columns: %q lacks %q", c.w, header, c.want)
		}
		m.auto = autoPresets{}
		if header := ansi.Strip(m.headerView()); !strings.Contains(header, "preset …") {
			t.Errorf("%d columns, library not read: %q", c.w, header)
		}
	}
}

// The demo's header named "(auto) project:pi-mirror" (resumed, a branch
// that records no Preset gets the auto-activating one) while the Presets
// panel had opened guarded-worker (the tdd-worker profile's, for a fresh
// session only) and previewed it: the panel opens what the header names,
// the recorded Preset or the auto-activated one, and follows the
// selection between them while the user has not opened one.
func TestPresetsPanelOpensWhatTheHeaderNames(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("1")
	if s := screen(m); !strings.Contains(s, "preset ▶ project:guarded-worker") || !strings.Contains(s, "Items · guarded-worker") {
		t.Fatalf("the Presets panel opens the Preset the branch records:\n%s", s)
	}
	h.Press("3", "enter") // the timeline, at the leaf: up to an entry before the recorded switch
	for range 40 {
		if strings.Contains(ansi.Strip(m.headerView()), "(auto)") {
			break
		}
		h.Press("up")
	}
	header := ansi.Strip(m.headerView())
	if !strings.Contains(header, "preset (auto) project:pi-mirror") {
		t.Fatalf("no entry of the demo session before its recorded Preset: %q", header)
	}
	h.Press("1")
	if s := screen(m); !strings.Contains(s, "Items · pi-mirror") {
		t.Fatalf("the Presets panel follows to the auto-activated Preset the header names:\n%s", s)
	}
}

// The header wrapped onto a second line (pushing the footer off screen)
// at widths where the shortened cwd came out one cell too wide: at every
// width it is one line of exactly that width.
func TestHeaderIsOneLineAtEveryWidth(t *testing.T) {
	for w := 30; w <= 200; w++ {
		m := demoLikeModel(w, 24, true)
		m.cwdLabel = "/tmp/a15tmp/forgebench-demo-2337803594/projects/demo-app"
		m.com.Selection = common.Selection{SessionFile: "x", SessionName: "Currency formatting", EntryID: "d8c5809d", AtLeaf: true, ActivePreset: "none"}
		m.auto = autoPresets{loaded: true, resume: "project:pi-mirror"}
		if h := m.headerView(); strings.Contains(h, "\n") || ansi.StringWidth(h) != w {
			t.Errorf("%d columns: the header is %d cells, %d lines: %q", w, ansi.StringWidth(h), strings.Count(h, "\n")+1, ansi.Strip(h))
		}
	}
}
