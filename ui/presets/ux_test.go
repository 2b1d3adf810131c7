package presets

import (
	"os"
	"path/filepath"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgebench/forgebench/engine/jsonv"

	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/ui/common"
)

// statusText is the panel's last row without styling or padding.
func statusText(hs *harness) string {
	view := hs.m.View()
	rows := strings.Split(view, "\n")
	return strings.TrimSpace(ansi.Strip(rows[len(rows)-1]))
}

func TestAStatusMessageGivesWayToTheNextKey(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.Press("space", "u")
	if got := statusText(hs); !strings.HasPrefix(got, "undid ") {
		t.Fatalf("after u the status says what was undone, got %q", got)
	}
	hs.Press("space")
	got := statusText(hs)
	if strings.Contains(got, "undid") {
		t.Fatalf("a later edit still shows the old undo message: %q", got)
	}
	if !strings.Contains(got, "unsaved changes") {
		t.Fatalf("the status should fall back to the draft state, got %q", got)
	}
}

func TestItemCountsAgreeWithTheirNumber(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 errors"}, {1, "1 error"}, {2, "2 errors"}} {
		if got := countOf(c.n, "error"); got != c.want {
			t.Errorf("countOf(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:beta")
	view := ansi.Strip(hs.m.View())
	if strings.Contains(view, "1 errors") || strings.Contains(view, "0 warnings") {
		t.Errorf("the items pane reports counts ungrammatically or a zero count:\n%s", view)
	}
}

// helpKeys lists the help keys of bindings, e.g. ["a", "esc"].
func helpKeys(bs []key.Binding) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Help().Key)
	}
	return out
}

// openSettingsForm moves the item cursor to the settings row of kind and
// focuses its form.
func openSettingsForm(hs *harness, kind string) {
	hs.TB().Helper()
	for i, k := range settingsForms {
		if k == kind {
			hs.m.focus = paneItems
			hs.m.items.SetCursor(hs.m.d.Len() + i)
			hs.Press("enter")
			if hs.m.form == nil || hs.m.focus != paneEditor {
				hs.TB().Fatalf("enter on the %s row does not focus its form", kind)
			}
			return
		}
	}
	hs.TB().Fatalf("no settings form %s", kind)
}

func TestFooterWhileAFormTakesTextListsOnlyKeysThatReachIt(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	openSettingsForm(hs, formParameters)
	hs.Press("a") // prompt for a new parameter: every key is text now
	if !hs.m.CapturesInput() {
		t.Fatal("the new-parameter prompt should take the keys")
	}
	for _, k := range helpKeys(hs.m.ShortHelp()) {
		if k == hs.m.keys.Undo.Help().Key || k == hs.m.keys.Back.Help().Key && countKey(hs.m.ShortHelp(), k) > 1 {
			t.Errorf("footer lists %q while the prompt takes it: %v", k, helpKeys(hs.m.ShortHelp()))
		}
	}
	hs.Type("u")
	if hs.m.d.Dirty() {
		t.Fatal("u in the prompt should be text, not undo")
	}
}

// fullHelp is every binding the ? help lists now.
func fullHelp(hs *harness) []key.Binding {
	var all []key.Binding
	for _, col := range hs.m.FullHelp() {
		all = append(all, col...)
	}
	return all
}

func countKey(bs []key.Binding, k string) int {
	n := 0
	for _, h := range helpKeys(bs) {
		if h == k {
			n++
		}
	}
	return n
}

func TestFullHelpShowsTheFocusedFormsKeys(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	openSettingsForm(hs, formTools)
	all := fullHelp(hs)
	for _, b := range hs.m.form.ShortHelp() {
		if countKey(all, b.Help().Key) == 0 {
			t.Errorf("? help leaves out the form key %q (%s)", b.Help().Key, b.Help().Desc)
		}
	}
}

func TestFullHelpWhileAFormHasFocusLeavesOutKeysTheFormSwallows(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	openSettingsForm(hs, formTools)
	all := fullHelp(hs)
	if countKey(all, hs.m.keys.Fork.Help().Key) > 0 || countKey(all, hs.m.keys.Preview.Help().Key) > 0 {
		t.Errorf("? help lists panel keys the form takes: %v", helpKeys(all))
	}
	shown := hs.m.showPreview
	hs.Press("P")
	if hs.m.showPreview != shown || hs.m.focus != paneEditor {
		t.Fatal("v reached the panel instead of the form")
	}
}

func TestProfilesFooterOffersTheWayBack(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.Press("p")
	if !hs.m.showProfile {
		t.Fatal("p shows the profiles")
	}
	if countKey(hs.m.ShortHelp(), hs.m.keys.Back.Help().Key) != 1 {
		t.Errorf("the profiles footer does not list esc: %v", helpKeys(hs.m.ShortHelp()))
	}
	hs.Press("esc")
	if hs.m.showProfile {
		t.Fatal("esc leaves the profiles")
	}
}

// In a prompt (new, fork) y and n are letters of the id and in the slot
// picker they do nothing: the footer must offer the keys that act there.
func TestDialogFootersListTheKeysThatAct(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.Press("a") // new preset: a prompt
	if hs.m.topDialog() == nil || hs.m.topDialog().kind != "prompt" {
		t.Fatal("n should prompt for an id")
	}
	keys := helpKeys(hs.m.ShortHelp())
	if countKey(hs.m.ShortHelp(), hs.m.keys.Confirm.Help().Key) > 0 || countKey(hs.m.ShortHelp(), "n/esc") > 0 {
		t.Errorf("the prompt's footer offers y/n, which type letters there: %v", keys)
	}
	if countKey(hs.m.ShortHelp(), "enter") != 1 || countKey(hs.m.ShortHelp(), "esc") != 1 {
		t.Errorf("the prompt's footer should offer enter and esc: %v", keys)
	}
	hs.Press("esc")
	if hs.m.topDialog() != nil {
		t.Fatal("esc closes the prompt")
	}
	hs.openByID("project:alpha")
	hs.Press("A")
	if hs.m.topDialog() == nil || hs.m.topDialog().kind != "slots" {
		t.Fatal("A opens the slot picker")
	}
	if countKey(hs.m.ShortHelp(), hs.m.keys.Confirm.Help().Key) > 0 {
		t.Errorf("the slot picker's footer offers y, which does nothing there: %v", helpKeys(hs.m.ShortHelp()))
	}
}

// The dialogs follow rebinding like every other key.
func TestDialogKeysFollowRebinding(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.m.keys.Submit = key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "accept"))
	hs.Press("a")
	hs.Press("enter")
	if hs.m.topDialog() == nil {
		t.Fatal("enter no longer accepts once accept is rebound")
	}
	_, cmd := hs.m.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	hs.Run(cmd)
	if hs.m.topDialog() != nil {
		t.Fatal("the rebound accept key should create the preset")
	}
}

func TestReloadSaysWhenItIsDone(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.Press("r") // a clean draft reloads at once; the harness runs the load
	if got := statusText(hs); strings.Contains(got, "reloading") {
		t.Fatalf("the status still says %q after the library came back", got)
	}
}

func TestExternalEditorOnASettingsRowNamesTheRow(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.m.focus = paneItems
	hs.m.items.SetCursor(hs.m.d.Len() + 6) // Capability bindings (after Properties … Context options)
	hs.Press("e")
	got := statusText(hs)
	if !strings.HasPrefix(got, "Capability bindings is not a block") {
		t.Fatalf("the message should name the row the user is on, got %q", got)
	}
}

// Checking a tool adds a pattern row above the tool list; the cursor must
// stay on the tool, so a second space unchecks it instead of checking
// its neighbour.
func TestToggledToolKeepsTheCursor(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	openSettingsForm(hs, formTools)
	hs.Press("down", "down", "down") // mode, + add pattern, read, bash
	cursorLine := func() string {
		for _, l := range strings.Split(ansi.Strip(hs.m.View()), "\n") {
			if i := strings.Index(l, "▸   ["); i >= 0 {
				return l[i:]
			}
		}
		return ""
	}
	before := cursorLine()
	if !strings.Contains(before, "bash") {
		t.Fatalf("setup: the cursor should be on bash, is on %q", before)
	}
	hs.Press("space")
	if got := cursorLine(); !strings.Contains(got, "[x] bash") {
		t.Fatalf("after space the cursor should still be on the checked bash, is on %q", got)
	}
	hs.Press("space")
	tools, _ := hs.m.d.Tree().Get("tools")
	if got := jsonv.Stringify(tools); got != `{"allow":[]}` && got != "null" && got != "undefined" {
		t.Fatalf("space twice on one tool should leave no pattern, got %s", got)
	}
}

// A Preset file that is not a JSON object opens as pi-forge's fallback
// stack. Saving that draft would replace whatever the user had in the file
// (a half-written edit, say), so the save is refused with a way out, and
// the editor says why the draft is empty.
func TestAnUnparsableFileIsNotOverwrittenBySave(t *testing.T) {
	const broken = `{"schemaVersion":2,"id":"half","items":[{"kind":"block",`
	hs := newHarnessWith(t, 160, 48, func(t testing.TB, cwd string) {
		p := filepath.Join(cwd, ".pi", "forge", "prompt-stacks", "half.json")
		if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	hs.openByID("project:half")
	view := ansi.Strip(hs.m.View())
	if !strings.Contains(view, "half.json did not parse") {
		t.Errorf("the editor should say the file did not parse:\n%s", view)
	}
	hs.m.focus = paneItems
	hs.Press("a")
	hs.Type("extra")
	hs.Press("enter", "ctrl+s")
	data, err := os.ReadFile(hs.m.open.Path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != broken {
		t.Fatalf("save replaced the unparsable file with:\n%s", data)
	}
	if got := statusText(hs); !strings.Contains(got, "fork") {
		t.Errorf("the refusal should offer fork, got %q", got)
	}
}

// Every row of the item list, with its editor or form focused, fits the
// panel at the three sizes the smoke tests use, and so do the profiles.
func TestEveryRowAndFormFitsAtEverySize(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}, {160, 48}} {
		hs := newHarness(t, size.w, size.h, true)
		for _, id := range []string{"project:alpha", "project:beta", "global:gamma"} {
			hs.openByID(id)
			for row := 0; row < hs.m.items.Len(); row++ {
				hs.m.focus = paneItems
				hs.m.items.SetCursor(row)
				hs.m.afterItemMove()
				hs.Press("enter")
				view := hs.m.View()
				lines := strings.Split(view, "\n")
				if len(lines) != size.h {
					t.Errorf("%s row %d at %dx%d: %d lines", id, row, size.w, size.h, len(lines))
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w != size.w {
						t.Errorf("%s row %d at %dx%d: line %d is %d cells wide", id, row, size.w, size.h, i+1, w)
					}
				}
				hs.Press("esc")
				if hs.m.editing {
					hs.Press("esc")
				}
			}
		}
	}
}

// On a settings row space, J/K, d and x do nothing, so the footer leaves
// them out; on an item it offers them.
func TestItemsFooterFollowsTheRow(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.m.focus = paneItems
	hs.m.items.SetCursor(0)
	if countKey(hs.m.ShortHelp(), hs.m.keys.Delete.Help().Key) != 1 {
		t.Fatalf("on an item the footer offers x: %v", helpKeys(hs.m.ShortHelp()))
	}
	hs.m.items.SetCursor(hs.m.d.Len()) // Parameters
	for _, b := range []key.Binding{hs.m.keys.Toggle, hs.m.keys.Delete, hs.m.keys.Duplicate, hs.m.keys.MoveUp} {
		if countKey(hs.m.ShortHelp(), b.Help().Key) > 0 {
			t.Errorf("on a settings row the footer offers %q, which does nothing there", b.Help().Key)
		}
	}
	n := hs.m.d.Len()
	hs.Press("x", "d", "space")
	if hs.m.d.Len() != n || hs.m.topDialog() != nil || hs.m.d.Dirty() {
		t.Fatal("item keys acted on a settings row")
	}
}

// With no Preset at all, enter and f have nothing to act on.
func TestEmptyLibraryFooterOffersOnlyWhatWorks(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, func(t testing.TB, cwd string) {
		for _, dir := range []string{filepath.Join(cwd, ".pi", "forge", "prompt-stacks"), filepath.Join(filepath.Dir(cwd), "forge", "prompt-stacks")} {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}
	})
	if hs.m.lib == nil || len(hs.m.lib.Presets) != 0 {
		t.Fatalf("setup: want an empty library")
	}
	hs.m.focus = paneList
	for _, b := range []key.Binding{hs.m.keys.Open, hs.m.keys.Fork} {
		if countKey(hs.m.ShortHelp(), b.Help().Key) > 0 {
			t.Errorf("the empty list's footer offers %q: %v", b.Help().Key, helpKeys(hs.m.ShortHelp()))
		}
	}
	if countKey(hs.m.ShortHelp(), hs.m.keys.New.Help().Key) != 1 {
		t.Error("n (new preset) is what the empty list needs")
	}
	if view := ansi.Strip(hs.m.View()); strings.Contains(view, "open a preset (enter)") {
		t.Errorf("the items pane asks to open a preset although there is none:\n%s", view)
	}
}

// Issue 15: status messages expire after a few seconds. The Presets panel
// kept "undid …" (and every note) until the next key.
func TestAStatusMessageExpires(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.Timers = nil
	hs.Press("space", "u")
	if got := statusText(hs); !strings.HasPrefix(got, "undid ") {
		t.Fatalf("after u the status says what was undone, got %q", got)
	}
	if len(hs.Timers) != 1 || hs.Timers[0].After != common.StatusTTL {
		t.Fatalf("one expiry of a note is scheduled: %+v", hs.Timers)
	}
	hs.FireTimers()
	if got := statusText(hs); strings.Contains(got, "undid") || !strings.Contains(got, "project:alpha · alpha.json") {
		t.Fatalf("the note expired and the line falls back to the draft's state, got %q", got)
	}
	// An expiry scheduled for an older message leaves a newer one alone.
	hs.Press("space", "u")
	old := hs.Timers
	hs.Timers = nil
	hs.Press("space", "u")
	hs.Timers = old
	hs.FireTimers()
	if got := statusText(hs); !strings.HasPrefix(got, "undid ") {
		t.Fatalf("an old expiry ended the newer message: %q", got)
	}
}
