package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/sanitize"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

func TestPaletteActionsRunThroughUpdate(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	var stats any
	for _, a := range hs.m.Actions() {
		if a.Hint == "" || a.Title == "" {
			t.Fatalf("action %+v needs a title and a key hint", a)
		}
		if a.Title == "Session: stats" {
			stats = a.Msg
		}
	}
	if stats == nil {
		t.Fatal("the palette should offer stats once a session is open")
	}
	_, cmd := hs.m.Update(stats)
	hs.Run(cmd)
	if hs.m.mode != modeStats || !strings.Contains(ansi.Strip(hs.view()), "Session · all branches") {
		t.Fatal("the stats action should open the stats view")
	}
}

// Loading decodes no entry body; the rows a frame shows are decoded by a
// command first, the rest by a background pass, and View never decodes.
func TestSummariesAreDecodedInCommandsNeverInView(t *testing.T) {
	s, err := session.Open("testdata/rounding.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ls := buildLoaded("testdata/rounding.jsonl", s)
	for i, c := range ls.sums {
		if c.ready {
			t.Fatalf("row %d decoded during load; loading must not decode bodies", i)
		}
	}
	hs, _ := newHarness(t, 120, 40)
	m := hs.m
	m.ls, m.tl, m.tree = ls, newTimeline(), newTreeView()
	m.tree.rebuild(ls)
	m.setBranch(ls.leaf, ls.leaf)
	m.View()
	for i, c := range ls.sums {
		if c.ready {
			t.Fatalf("View decoded row %d", i)
		}
	}
	idx, _ := s.IndexOf("e18")
	visible := m.ensureSummaries()
	if visible == nil || m.ensureSummaries() != nil {
		t.Fatal("the visible rows are asked for once, in a command")
	}
	first := visible().(summariesMsg)
	first.cells[0].text = "decoded first"
	m.Update(first)
	if got := ls.sums[first.idxs[0]].text; got != "decoded first" {
		t.Fatalf("the visible rows' summaries are stored by Update, got %q", got)
	}
	m.Update(summaryCmd(ls, nil)())
	for i, c := range ls.sums {
		if !c.ready {
			t.Fatalf("row %d not filled by the background pass", i)
		}
	}
	if ls.sums[first.idxs[0]].text != "decoded first" {
		t.Fatal("the background pass must not overwrite a row already decoded")
	}
	if got := ls.sums[idx]; got.text != "All 14 tests pass." || got.tokens != 2740 {
		t.Fatalf("summary of e18 = %+v", got)
	}
	if !strings.Contains(ansi.Strip(m.View()), "All 14 tests pass.") {
		t.Fatal("the timeline rows show the decoded summaries")
	}
	e07, _ := s.IndexOf("e07")
	if text := ls.sums[e07].text; strings.ContainsAny(text, "\x1b\r\x07") || !strings.Contains(text, "rounds tax per invoice") {
		t.Fatalf("summaries must be sanitised one-liners: %q", text)
	}
}

func TestBadFilesAreShownNotFatal(t *testing.T) {
	hs, paths := newHarness(t, 120, 30)
	dir := paths["rounding"][:strings.LastIndex(paths["rounding"], "/")]
	files := map[string]string{
		"empty.jsonl":       "",
		"header-only.jsonl": `{"type":"session","version":3,"id":"h","timestamp":"2026-11-27T10:00:00.000Z","cwd":"/x"}` + "\n",
		"garbage.jsonl":     "not json\n\x1b[2J{{{\n",
		"orphans.jsonl": `{"type":"session","version":3,"id":"o","timestamp":"2026-11-27T10:00:00.000Z","cwd":"/x"}` + "\n" +
			`{"type":"message","id":"a","parentId":"zz","timestamp":"bad","message":{"role":"user","content":"orphan"}}` + "\n" +
			`{"type":"message","id":"b","parentId":"b","timestamp":"2026-11-27T10:00:01.000Z","message":{"role":"assistant","content":null}}` + "\n" +
			`[1,2]` + "\n",
	}
	for name, body := range files {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		hs.jump(p, "", "")
		for pn := panePicker; pn < paneCount; pn++ {
			hs.focusOn(pn)
			hs.Press("down", "enter", "left", "right", "space", "ctrl+t", "c", "s", "esc", "esc")
			v := hs.view()
			if len(strings.Split(v, "\n")) != 30 {
				t.Fatalf("%s: view does not fill the pane", name)
			}
			if strings.Contains(v, "\x1b[2J") {
				t.Fatalf("%s: control sequence reached the screen", name)
			}
		}
	}
	hs.Press("r") // rediscovery lists the bad files too and must not fail
	if hs.m.picker.list.Total() < 6 {
		t.Fatalf("discovery should list every file, got %d", hs.m.picker.list.Total())
	}
}

func TestInitDeliversListingSessionAndSelectionTogether(t *testing.T) {
	ws, paths := testWorkspace(t)
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: hsStyles(), Keys: &keys, Workspace: ws}
	m := New(com)
	m.SetSize(120, 30)
	results, ok := m.Init()().(resultsMsg)
	if !ok || len(results) != 2 {
		t.Fatalf("discovery should deliver the listing and the opened session, got %#v", results)
	}
	m.Update(results)
	view := ansi.Strip(m.View())
	if m.ls == nil || m.ls.file != paths["rounding"] || !strings.Contains(view, "Invoice rounding (test)") {
		t.Fatalf("the newest session should be open:\n%s", view)
	}
	if sel := com.Selection; sel.SessionFile != paths["rounding"] || !sel.AtLeaf {
		t.Fatalf("installing the session announces it at its leaf, got %+v", sel)
	}
}

func TestPickerScopeListsAllProjects(t *testing.T) {
	hs, paths := newHarness(t, 160, 48)
	// A session of another project, in its own directory.
	other := filepath.Join(hs.com.Workspace.AgentDir, "sessions", session.EncodeCwd("/srv/other"))
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/currency.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(data), testCwd, "/srv/other", 1)
	if err := os.WriteFile(filepath.Join(other, "2026-11-20T00-00-00-000Z_x.jsonl"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	hs.focusOn(panePicker)
	hs.Press("*")
	if !hs.m.picker.all || hs.m.picker.list.Total() != 3 {
		t.Fatalf("* should list every project's sessions, got %d", hs.m.picker.list.Total())
	}
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "all projects") || !strings.Contains(v, "other") {
		t.Fatalf("the picker should say it lists all projects and show each project:\n%s", v)
	}
	if hs.m.ls.file != paths["rounding"] {
		t.Fatal("switching the scope must not change the open session")
	}
	hs.Press("*")
	if hs.m.picker.all || hs.m.picker.list.Total() != 2 {
		t.Fatal("* again returns to this project's sessions")
	}
}

func TestCopyPutsSanitisedEntryTextOnTheClipboard(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	hs.focusOn(paneTimeline)
	hs.Press("g")
	for i := 0; i < 6; i++ {
		hs.Press("down") // e07, the hostile tool output
	}
	clip := pressCopy(t, hs, "y")
	want := sanitize.Text("FAIL test/invoice.test.ts\n  ✕ rounds tax per invoice (4 ms)\n    expected 10.83, got 10.82\n\nTests: 1 failed, 13 passed")
	if clip != want {
		t.Fatalf("clipboard = %q, want %q", clip, want)
	}
	if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, "copied entry e07") {
		t.Fatalf("the timeline's status should confirm the copy, got %q", st)
	}
}
