package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// realWatch is the library watcher on the harness's workspace (real
// fsnotify, real files) with one goroutine running its waits in turn, as
// the program does; the panel itself runs without one and the test hands
// it the messages.
type realWatch struct {
	changes chan libraryChangedMsg
}

func startRealWatch(t *testing.T, hs *harness) *realWatch {
	t.Helper()
	msg, ok := startWatchCmd(hs.com.Workspace)().(watchStartedMsg)
	if !ok || msg.watch == nil {
		t.Fatal("the watcher did not start")
	}
	rw := &realWatch{changes: make(chan libraryChangedMsg, 16)}
	go func() {
		for {
			c, ok := msg.watch.waitCmd()().(libraryChangedMsg)
			if !ok {
				return // closed
			}
			rw.changes <- c
		}
	}()
	t.Cleanup(func() { msg.watch.w.Close() })
	return rw
}

// next waits for the watcher's next burst (a failure after 5 s).
func (rw *realWatch) next(t *testing.T) libraryChangedMsg {
	t.Helper()
	select {
	case c := <-rw.changes:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("no change seen within 5 s")
	}
	return libraryChangedMsg{}
}

// none asserts the watcher reports nothing for a while.
func (rw *realWatch) none(t *testing.T, what string) {
	t.Helper()
	select {
	case c := <-rw.changes:
		t.Fatalf("%s was reported: %v", what, c.paths)
	case <-time.After(3 * watchDebounce):
	}
}

// TestWatcherSeesRealEdits: a Preset file edited on disk while the panel
// shows it is reloaded when the draft is untouched, and kept (with a
// notice that stays on the status line and over the editor) when it has
// edits.
func TestWatcherSeesRealEdits(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	lw := startRealWatch(t, hs)
	path := hs.m.open.Path
	data, _ := os.ReadFile(path)

	if err := os.WriteFile(path, []byte(strings.Replace(string(data), "Alpha Helper", "Alpha Two", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	change := lw.next(t)
	if !containsPath(change.paths, path) {
		t.Fatalf("the change names %v, not %s", change.paths, path)
	}
	hs.Send(change)
	if n := hs.m.d.Stack().Name; n == nil || *n != "Alpha Two" {
		t.Fatalf("the untouched draft was not reloaded: %v", n)
	}

	hs.itemsPane()
	hs.Press("space") // an edit
	edited := hs.m.d.Tree()
	// An editor's save: write a temporary file, rename it over the Preset.
	tmp := path + ".tmp"
	os.WriteFile(tmp, []byte(strings.Replace(string(data), "Alpha Helper", "Alpha Three", 1)), 0o644)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	hs.Send(lw.next(t))
	if hs.m.d.Tree() != edited || !hs.m.d.Dirty() {
		t.Fatal("the edited draft was replaced")
	}
	hs.Press("j") // the next key clears the message; the notice stays
	view := ansi.Strip(hs.m.View())
	if !strings.Contains(view, "Changed on disk") || strings.Contains(view, "Save refused") {
		t.Fatalf("no lasting notice over the editor:\n%s", view)
	}
	if !strings.Contains(ansi.Strip(hs.m.statusLine()), "changed on disk") {
		t.Fatalf("status line %q", ansi.Strip(hs.m.statusLine()))
	}
}

// TestWatcherFollowsADirectoryCreatedLater: the profiles directory does
// not exist when the watcher starts; once created, files in it count, and
// files beside it in .pi/forge do not.
func TestWatcherFollowsADirectoryCreatedLater(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	dir := filepath.Join(hs.com.Workspace.Cwd, ".pi", "forge", "agent-profiles")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	lw := startRealWatch(t, hs)
	os.WriteFile(filepath.Join(hs.com.Workspace.Cwd, ".pi", "forge", "config.json"), []byte("{}"), 0o644)
	lw.none(t, "config.json beside the library directories")

	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if c := lw.next(t); !containsPath(c.paths, dir) {
		t.Fatalf("creating the directory reported %v", c.paths)
	}
	file := filepath.Join(dir, "late.json")
	os.WriteFile(file, []byte(`{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"late","model":{"provider":"anthropic","id":"claude-sonnet-4-5"},"thinkingLevel":"low","promptStack":null}`), 0o644)
	c := lw.next(t)
	if !containsPath(c.paths, file) {
		t.Fatalf("a file in the new directory reported %v", c.paths)
	}
	hs.Send(c)
	found := false
	for _, p := range hs.m.lib.Profiles {
		found = found || p.ID == "late"
	}
	if !found {
		t.Fatal("the reload does not list the new profile")
	}
}

func containsPath(paths []string, want string) bool {
	for _, p := range paths {
		if p == want {
			return true
		}
	}
	return false
}

// TestWatcherKeepsARefusedSavesWord: when the save was refused first (its
// dialog open), the watcher's later report of the same change does not
// replace the save's explanation.
func TestWatcherKeepsARefusedSavesWord(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.Press("space")
	path := hs.m.open.Path
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "Alpha Helper", "Alpha Elsewhere", 1)), 0o644)
	hs.Press("ctrl+s")
	if hs.m.topDialog() == nil || hs.m.topDialog().kind != dialogConflict {
		t.Fatal("the save conflict dialog is not open")
	}
	hs.Send(libraryChangedMsg{paths: []string{path}})
	if hs.m.status != conflictText || hs.m.topDialog() == nil || hs.m.conflict != conflictOnSave {
		t.Fatalf("status %q, dialog %v, conflict %v", hs.m.status, hs.m.topDialog() != nil, hs.m.conflict)
	}
}
