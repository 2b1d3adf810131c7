package palette

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

type pickMsg struct{}

// newCom is a Common over an empty workspace in a temporary directory
// (the palette reads its library: nothing of the user's).
func newCom(t *testing.T, keys keymap.Set) *common.Common {
	t.Helper()
	dir := t.TempDir()
	ws, err := resources.OpenWorkspace(resources.Dirs{Cwd: dir, AgentDir: filepath.Join(dir, "agent"), ForgeDir: filepath.Join(dir, "forge")},
		resources.TrustForce, resources.Env{Getenv: func(string) string { return "" }, HomeDir: func() (string, error) { return dir, nil },
			Getwd: func() (string, error) { return dir, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return &common.Common{Keys: &keys, Workspace: ws, Styles: themes.For(themes.Dark, true, false)}
}

func openPalette(t *testing.T, keys keymap.Set, places Places, actions ...Action) *uitest.Harness[Model] {
	t.Helper()
	com := newCom(t, keys)
	h := uitest.New(t, New(com), func(m Model, msg tea.Msg) (Model, tea.Cmd) { return m.Update(msg) })
	h.UseTimers(com)
	if len(actions) == 0 {
		actions = []Action{{Title: "Search all sessions", Msg: pickMsg{}}}
	}
	h.Run(h.Model.Open(actions, places))
	h.Settle()
	return h
}

// listing is n discovered sessions; the i-th is named name(i).
func listing(n int, name func(int) string) []session.ListItem {
	items := make([]session.ListItem, n)
	for i := range items {
		items[i] = session.ListItem{Path: fmt.Sprintf("/s/%04d.jsonl", i), ID: fmt.Sprintf("%08x-0000-4000-8000-%012d", i*7919, i),
			Name: name(i), FirstMessage: fmt.Sprintf("first message %d", i)}
	}
	return items
}

// A user's rebinding of form.text.word-left moves the palette's cursor:
// the palette's input edits with the workbench's text keys.
func TestPaletteInputFollowsTheTextKeys(t *testing.T) {
	keys := keymap.DefaultSet()
	if err := keymap.Apply(&keys, map[string][]string{"form.text.word-left": {"ctrl+o"}}); err != nil {
		t.Fatal(err)
	}
	h := openPalette(t, keys, Places{})
	h.Type("all sessions")
	h.Press("ctrl+o")
	h.Type("x")
	if got := h.Model.input.Value(); got != "all xsessions" {
		t.Fatalf("after ctrl+o (word left) and x: %q", got)
	}
	h.Press("ctrl+w") // default delete-word-before
	if got := h.Model.input.Value(); got != "all sessions" {
		t.Fatalf("after ctrl+w: %q", got)
	}
}

// The palette's cursor has the theme's colour (bubbles' grey vanishes on
// a light terminal), follows a theme switch and does not blink.
func TestPaletteCursorTakesTheThemesColour(t *testing.T) {
	h := openPalette(t, keymap.DefaultSet(), Places{})
	for _, mode := range []themes.Mode{themes.Light, themes.Dark} {
		st := themes.For(mode, true, false)
		cur := h.Model.themedInput(st).Styles().Cursor
		if cur.Blink {
			t.Error("the cursor blinks")
		}
		gr, gg, gb, _ := cur.Color.RGBA()
		wr, wg, wb, _ := st.Text.Normal.GetForeground().RGBA()
		if gr != wr || gg != wg || gb != wb {
			t.Errorf("%v: cursor colour %v, want %v", mode, cur.Color, st.Text.Normal.GetForeground())
		}
	}
}

// Every key of every default binding can be pressed from the palette:
// the press KeyPress builds is one the binding matches.
func TestKeyPressMatchesEveryDefaultBinding(t *testing.T) {
	set := keymap.DefaultSet()
	groups := []keymap.Rebinder{&set.Global, &set.Confirm, &set.CommandPalette, &set.Presets, &set.Capabilities, &set.Session,
		&set.Payloads, &set.Forms, &set.Agents, &set.Search, &set.FindView}
	n := 0
	for _, g := range groups {
		for name, b := range g.Named() {
			for _, k := range b.Keys() {
				msg, ok := KeyPress(k)
				if !ok || !key.Matches(msg, *b) {
					t.Errorf("%s: the key %q builds %q (ok %v), which the binding does not match", name, k, msg.String(), ok)
				}
				n++
			}
		}
		if _, ok := BindingPress(key.NewBinding()); ok {
			t.Error("a binding without keys has no press")
		}
	}
	if n < 100 {
		t.Fatalf("only %d keys checked", n)
	}
}

// Each row says what kind it is, and an empty query lists the kinds in
// their order: actions, sessions, entries, agents, presets,
// capabilities.
func TestRowsShowTheirKind(t *testing.T) {
	h := openPalette(t, keymap.DefaultSet(), Places{Sessions: listing(1, func(int) string { return "Invoice rounding fix" })})
	m := &h.Model
	m.srcs[KindEntry] = ItemsSource(KindEntry, []Item{{Kind: KindEntry, ID: "5e55a0e1", Title: "user"}})
	m.srcs[KindAgent] = ItemsSource(KindAgent, []Item{{Kind: KindAgent, Title: "/root/reviewer", Detail: "reviewer · running"}})
	m.srcs[KindPreset] = ItemsSource(KindPreset, []Item{{Kind: KindPreset, Title: "project:pi-mirror"}})
	m.srcs[KindCapability] = ItemsSource(KindCapability, []Item{{Kind: KindCapability, Title: "project:review-mode"}})
	m.matchNow()
	view := ansi.Strip(m.View(themes.For(themes.Dark, true, false), 100))
	var at []int
	for _, want := range []string{"action     Search all sessions", "session    00000000  Invoice rounding fix", "entry      5e55a0e1  user",
		"agent      /root/reviewer", "preset     project:pi-mirror", "capability project:review-mode"} {
		i := strings.Index(view, want)
		if i < 0 {
			t.Fatalf("no row %q:\n%s", want, view)
		}
		at = append(at, i)
	}
	for i := 1; i < len(at); i++ {
		if at[i] < at[i-1] {
			t.Fatalf("the kinds are out of order:\n%s", view)
		}
	}
}

// Ids match as substrings, not letter by letter: "5e55" finds the entry
// 5e55a0e1, and "5ae" (its letters, scattered) finds nothing.
func TestIDsMatchAsSubstrings(t *testing.T) {
	ids := []string{"5e55a0e1", "862c1f60", "d49fd546"}
	src := Source{Kind: KindEntry, Len: len(ids), ID: func(i int) string { return ids[i] },
		Item: func(i int) Item { return Item{Kind: KindEntry, Title: ids[i]} }}
	for _, c := range []struct {
		q    string
		want []int
	}{{"5e55", []int{0}}, {"5E55A", []int{0}}, {"c1f6", []int{1}}, {"5ae", nil}, {"5", nil}} {
		rows, total, _ := match(c.q, []Source{src}, nil)
		var got []int
		for _, r := range rows {
			got = append(got, r.index)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) || total != len(c.want) {
			t.Errorf("%q matched %v (total %d), want %v", c.q, got, total, c.want)
		}
	}
}

// Keys typed in one burst all reach the query, and the rows shown once
// the burst rests answer the whole query; enter at the end of the burst
// (typed ahead of any match) goes to the best row of what was typed.
func TestABurstOfTypedKeysCountsEveryKey(t *testing.T) {
	names := []string{"Invoice rounding fix", "Refactor the parser", "Invoice export", "Stats dashboard"}
	places := Places{Sessions: listing(2000, func(i int) string { return names[i%len(names)] + fmt.Sprintf(" #%d", i) })}
	for seed := range uint64(20) {
		h := openPalette(t, keymap.DefaultSet(), places)
		rng := rand.New(rand.NewPCG(seed, 1))
		typed := "parser #1337"
		var keys []string
		for _, r := range typed {
			keys = append(keys, string(r))
		}
		keys[strings.Index(typed, " ")] = "space"
		h.Burst(rng, keys...)
		if got := h.Model.Query(); got != typed {
			t.Fatalf("seed %d: the query is %q, want %q", seed, got, typed)
		}
		if h.Model.query != typed || h.Model.stale {
			t.Fatalf("seed %d: the rows answer %q (stale %v), want %q", seed, h.Model.query, h.Model.stale, typed)
		}
		it, ok := h.Model.chosen()
		if !ok || it.Title != "Refactor the parser #1337" {
			t.Fatalf("seed %d: the best row is %+v", seed, it)
		}
		h.Burst(rng, "backspace", "backspace", "4", "1", "enter")
		if len(h.Jumps) != 1 || h.Jumps[0].Target.SessionFile != "/s/1341.jsonl" || h.Jumps[0].Target.Panel != common.PanelSession {
			t.Fatalf("seed %d: enter typed ahead jumped %+v, want one jump to session 1341", seed, h.Jumps)
		}
		if h.Model.IsOpen() {
			t.Fatal("the palette stays open after a jump")
		}
	}
}

// A match superseded by newer typing is dropped, never shown over the
// newer rows.
func TestASupersededMatchIsDropped(t *testing.T) {
	h := openPalette(t, keymap.DefaultSet(), Places{Sessions: listing(3, func(i int) string { return []string{"alpha", "beta", "gamma"}[i] })})
	m := &h.Model
	m.input.SetValue("alpha")
	old := m.matchCmd()
	m.input.SetValue("gamma")
	m.matchNow()
	if msg := old(); msg != nil {
		*m, _ = m.Update(msg)
	}
	if it, ok := m.chosen(); !ok || it.Title != "gamma" || m.query != "gamma" {
		t.Fatalf("after a stale match: query %q, row %+v", m.query, it)
	}
}

// Choosing an action sends its message and closes; esc closes without
// running anything.
func TestChoosingAnActionSendsItsMessage(t *testing.T) {
	var got []tea.Msg
	h := openPalette(t, keymap.DefaultSet(), Places{}, Action{Title: "Show keys", Msg: pickMsg{}})
	h.Intercept = func(msg tea.Msg) bool { got = append(got, msg); return false }
	h.Type("keys")
	h.Press("enter")
	if len(got) == 0 || got[len(got)-1] != (pickMsg{}) || h.Model.IsOpen() {
		t.Fatalf("enter on an action: %v, open %v", got, h.Model.IsOpen())
	}
	h.Run(h.Model.Open([]Action{{Title: "Show keys", Msg: pickMsg{}}}, Places{}))
	got = nil
	h.Press("esc")
	if h.Model.IsOpen() || len(got) != 1 || got[0] != (ClosedMsg{}) {
		t.Fatalf("esc: %v, open %v", got, h.Model.IsOpen())
	}
}

// The counter agrees with its number: "1 match", "2 matches".
func TestTheCounterSaysMatchOrMatches(t *testing.T) {
	places := Places{Sessions: listing(3, func(i int) string { return []string{"Currency formatting", "Invoice one", "Invoice two"}[i] })}
	for _, c := range []struct{ q, want, not string }{{"currency", "1 match", "1 matches"}, {"invoice", "2 matches", "2 match "}} {
		h := openPalette(t, keymap.DefaultSet(), places)
		h.Burst(rand.New(rand.NewPCG(1, 1)), strings.Split(c.q, "")...)
		view := ansi.Strip(h.Model.View(themes.For(themes.Dark, true, false), 100))
		if !strings.Contains(view, c.want) || strings.Contains(view, c.not) {
			t.Errorf("%q: the counter does not say %q:\n%s", c.q, c.want, view)
		}
	}
}
