package sessions

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// The demo's main session by file name, and fixed paths its placeholders
// are replaced with, so the system prompts (which hold the cwd) are the
// same on every machine.
const (
	demoMain        = "2026-11-27T09-14-05-112Z_01a21c48-87b8-7bf2-bec6-d1b0faeb6b39.jsonl"
	demoProject     = "/home/ada/projects/demo-app"
	demoAgent       = "/home/ada/.pi/agent"
	demoRewritten   = "c0430f5a" // an assistant entry whose request Preset project:guarded-worker compiled
	demoCarefulText = "You are a careful engineer on the billing team."
	piOwnText       = "You are the coding assistant of a small demo workspace."
)

// demoWorkspace copies the repository's demo workspace into a temporary
// directory with the placeholders in the files replaced by the fixed
// paths above (as the Payloads panel's tests do; the session directory is
// the temporary project's, so the picker lists its sessions) and returns a
// trusted workspace on it and the main session's path.
func demoWorkspace(t testing.TB) (resources.Workspace, string) {
	t.Helper()
	src := filepath.Join("..", "..", "resources", "demo", "workspace")
	root := t.TempDir()
	cwd := filepath.Join(root, "projects", "demo-app")
	sessionDir := session.EncodeCwd(cwd)
	repl := strings.NewReplacer("@@DEMO_PROJECT_DIR_SLASH@@", demoProject, "@@DEMO_PROJECT_REALPATH@@", demoProject,
		"@@DEMO_PROJECT_DIR@@", demoProject, "@@DEMO_AGENT_DIR@@", demoAgent, "@@DEMO_SESSION_DIR@@", sessionDir)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(root, repl.Replace(rel))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, []byte(repl.Replace(string(data))), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if tt, ok := t.(*testing.T); ok {
		tt.Setenv(session.EnvSessionDir, "")
	}
	ws, err := resources.OpenWorkspace(resources.Dirs{
		Cwd:      cwd,
		AgentDir: filepath.Join(root, "home", ".pi", "agent"),
		ForgeDir: filepath.Join(root, "home", ".pi", "forge"),
	}, resources.TrustForce, resources.OSEnv())
	if err != nil {
		t.Fatal(err)
	}
	return ws, filepath.Join(ws.AgentDir, "sessions", sessionDir, demoMain)
}

// newDemoHarness opens the demo's main session in the panel at entry (""
// = its leaf), the timeline focused.
func newDemoHarness(t testing.TB, w, h int, styles themes.Styles, entry string) (*harness, string) {
	t.Helper()
	ws, main := demoWorkspace(t)
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: styles, Keys: &keys, Workspace: ws, Width: w, Height: h,
		Selection: common.Selection{SessionFile: main, EntryID: entry}}
	m := New(com)
	m.SetSize(w, h)
	hs := &harness{Harness: uitest.ForPanel(t, m, com), com: com, m: m, now: testNow}
	com.Now = func() time.Time { return hs.now } // the copied files are not "live": written long before
	hs.Run(m.Init())
	hs.Settle()
	hs.focusOn(paneTimeline)
	if entry != "" && (hs.m.currentEntry() < 0 || hs.m.ls.entryID(hs.m.currentEntry()) != entry) {
		t.Fatalf("the panel did not open at %s", entry)
	}
	return hs, main
}

// payloadShow is what `payload show session:FILE#ENTRY` and the Payloads
// panel resolve: the request rebuilt through pi-forge's rewrite against
// the workspace's library.
func payloadShow(t *testing.T, ws resources.Workspace, file, entry string) *replay.Request {
	t.Helper()
	lib, err := resources.LoadLibrary(ws)
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := catalog.Shared(ws.AgentDir)
	rv := &replay.Resolver{Catalog: cat, Location: time.Local, Forge: &capstate.Forge{
		Inputs: capstate.Inputs{Workspace: lib.CapabilityWorkspace(), Catalog: cat}, Location: time.Local}}
	r, err := rv.Resolve(replay.Ref{Kind: replay.RefSession, Raw: "session:" + file + "#" + entry, Path: file, Entry: entry})
	if err != nil {
		t.Fatal(err)
	}
	return r.Request
}

// Issue 21: where pi-forge's Preset rewrote a request, the Context view
// (c) and Y show what Payloads and `payload show session:FILE#ENTRY` show
// — pi-forge's compiled system prompt, labelled with the Preset — and one
// key switches to Pi's own context.
func TestContextViewAndCopyAgreeWithPayloadsOnARewrittenRequest(t *testing.T) {
	hs, main := newDemoHarness(t, 160, 48, hsStyles(), demoRewritten)
	want := payloadShow(t, hs.com.Workspace, main, demoRewritten)
	if want.PresetID != "project:guarded-worker" {
		t.Fatalf("the fixture's request must be rewritten by the Preset, got %q", want.PresetID)
	}
	wantJSON := jsonv.StringifyIndent(want.Payload, "  ")

	clip := pressCopy(t, hs, "Y")
	if clip != wantJSON {
		t.Fatalf("Y copies the request as sent, as `payload show` rebuilds it\n got: %.400s\nwant: %.400s", clip, wantJSON)
	}
	if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, "as sent") || !strings.Contains(st, "project:guarded-worker") {
		t.Errorf("the note says what was copied, got %q", st)
	}

	hs.Press("c")
	view := ansi.Strip(hs.view())
	if !strings.Contains(view, demoCarefulText) || strings.Contains(view, piOwnText) {
		t.Fatalf("c shows the system prompt pi-forge sent:\n%s", view)
	}
	if !strings.Contains(view, "as sent · Preset project:guarded-worker") {
		t.Fatalf("the view is labelled with the Preset:\n%s", view)
	}
	if again := pressCopy(t, hs, "y"); again != wantJSON {
		t.Fatal("y in the context view copies what it shows: the request as sent")
	}

	hs.Press(hs.m.keys.PiContext.Keys()[0])
	view = ansi.Strip(hs.view())
	if !strings.Contains(view, piOwnText) || strings.Contains(view, demoCarefulText) || !strings.Contains(view, "Pi's context") {
		t.Fatalf("the switch shows Pi's own context:\n%s", view)
	}
	piJSON := pressCopy(t, hs, "Y")
	var pi map[string]any
	if err := json.Unmarshal([]byte(piJSON), &pi); err != nil || !strings.HasPrefix(pi["system"].(string), piOwnText) {
		t.Fatalf("Y in Pi's context copies what is shown (%v): %.300s", err, piJSON)
	}
	hs.Press(hs.m.keys.PiContext.Keys()[0])
	if view = ansi.Strip(hs.view()); !strings.Contains(view, demoCarefulText) {
		t.Fatalf("the key switches back to as sent:\n%s", view)
	}
}

// The Context view at a request pi-forge's Preset rewrote, as sent and as
// Pi's context, at both sizes.
func TestGoldenContextAsSentAndPis(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		hs, _ := newDemoHarness(t, size.w, size.h, hsStyles(), demoRewritten)
		hs.Press("c")
		view := hs.view()
		uitest.AssertFills(t, view, size.w, size.h)
		uitest.Golden(t, fmt.Sprintf("context_as_sent_%dx%d", size.w, size.h), view)
		hs.Press("p")
		view = hs.view()
		uitest.AssertFills(t, view, size.w, size.h)
		uitest.Golden(t, fmt.Sprintf("context_pi_%dx%d", size.w, size.h), view)
	}
}

// Issue 21: with the Context view open, a burst of j/k moves the timeline
// one row per key; the request is rebuilt once, for where the burst ends
// (none when it was rebuilt before), the view shows it, and nothing is
// scheduled afterwards.
func TestContextViewFollowsABurstAndRebuildsOnceAtTheEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 3))
	hs, _ := newDemoHarness(t, 160, 48, hsStyles(), demoRewritten)
	hs.Press("c")
	hs.focusOn(paneTimeline)
	var rebuilt []int
	rounds := 0 // rounds that rebuilt
	hs.Intercept = func(msg tea.Msg) bool {
		if s, ok := msg.(sentMsg); ok {
			rebuilt = append(rebuilt, s.res.idx)
		}
		return false
	}
	for round := range 6 {
		rebuilt = nil
		keys, want := uitest.MoveKeys(rng, 25, hs.m.tl.list.Cursor(), hs.m.tl.list.Len())
		hs.Burst(rng, keys...)
		if got := hs.m.tl.list.Cursor(); got != want {
			t.Fatalf("round %d: %d keys took the cursor to row %d, want %d", round, len(keys), got, want)
		}
		idx := hs.m.currentEntry()
		if len(rebuilt) > 1 || (len(rebuilt) == 1 && rebuilt[0] != idx) {
			t.Fatalf("round %d: the burst rebuilt %v, want at most once at the end (%d)", round, rebuilt, idx)
		}
		rounds += len(rebuilt)
		if hs.m.sent.shown == nil || hs.m.sent.shown.idx != idx {
			t.Fatalf("round %d: the view does not show the entry the burst ended on", round)
		}
		if view := ansi.Strip(hs.view()); !strings.Contains(view, "Context at "+hs.m.ls.entryID(idx)+" · ") {
			t.Fatalf("round %d: the title names another entry:\n%s", round, view)
		}
		if left := hs.Quiesce(5); len(left) > 0 {
			t.Fatalf("round %d: still scheduled after the burst: %v", round, left)
		}
	}
	if rounds == 0 {
		t.Fatal("no burst ended on an entry not rebuilt before: the test proves nothing")
	}
}

// The request as sent compiles the Preset as the library holds it now: a
// cursor resting on an entry again reuses its rebuild, r rebuilds it.
func TestContextViewReloadRebuildsFromTheLibrary(t *testing.T) {
	hs, _ := newDemoHarness(t, 160, 48, hsStyles(), demoRewritten)
	hs.Press("c")
	preset := filepath.Join(hs.com.Workspace.Cwd, ".pi", "forge", "prompt-stacks", "guarded-worker.json")
	raw, err := os.ReadFile(preset)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(raw), "You are a careful engineer", "You are a meticulous engineer", 1)
	if edited == string(raw) {
		t.Fatal("the demo Preset's text moved: update the test")
	}
	if err := os.WriteFile(preset, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	hs.focusOn(paneTimeline)
	hs.Press("up", "down")
	if view := ansi.Strip(hs.view()); !strings.Contains(view, "You are a careful engineer") {
		t.Fatalf("back on the entry, its rebuild is reused:\n%s", view)
	}
	hs.Press("r")
	if view := ansi.Strip(hs.view()); !strings.Contains(view, "You are a meticulous engineer") {
		t.Fatalf("r rebuilds from the library:\n%s", view)
	}
}

// The rebuilt requests never keep a session the panel let go alive: once
// another session is open, none of the first one's is held.
func TestContextCacheLetsGoOfAnotherSession(t *testing.T) {
	hs, main := newDemoHarness(t, 160, 48, hsStyles(), demoRewritten)
	hs.Press("c")
	first := hs.m.ls.sess
	if len(hs.m.sent.cache) == 0 || hs.m.sent.shown == nil {
		t.Fatal("the request at the entry is cached and shown")
	}
	other := filepath.Join(filepath.Dir(main), "2026-11-27T16-02-41-907Z_01a21dbe-a073-75f0-9dfd-a08c7d2b5524.jsonl")
	hs.jump(other, "", "")
	if hs.m.ls == nil || hs.m.ls.file != other {
		t.Fatal("the jump did not open the other session")
	}
	for k := range hs.m.sent.cache {
		if k.sess == first {
			t.Fatal("a request of the first session is still cached")
		}
	}
	if res := hs.m.sent.shown; res != nil && res.key.sess == first {
		t.Fatal("the first session's request is still held as shown")
	}
}

// When the request as sent cannot be rebuilt (here the library cannot be
// read), the view says why and p still shows Pi's context; Y says why it
// copied nothing.
func TestContextViewWhenTheRequestAsSentCannotBeRebuilt(t *testing.T) {
	hs, _ := newDemoHarness(t, 160, 48, hsStyles(), demoRewritten)
	hs.com.Workspace.ForgeDir = "" // resources.LoadLibrary refuses it
	hs.Press("c")
	view := ansi.Strip(hs.view())
	if !strings.Contains(view, "as sent: not rebuilt · p Pi's context") || !strings.Contains(view, "the request as sent could not be rebuilt: ") ||
		!strings.HasSuffix(hs.m.sent.shown.sentErr, "load library: workspace has no cwd or forge dir") {
		t.Fatalf("the view says the request as sent is missing and why:\n%s", view)
	}
	if clip := pressCopy(t, hs, "y"); clip != "" || !strings.Contains(hs.m.status[paneDetail].Text(), "could not be rebuilt") {
		t.Fatalf("nothing is copied and the note says why: %q %q", clip, hs.m.status[paneDetail].Text())
	}
	hs.Press("p")
	if view = ansi.Strip(hs.view()); !strings.Contains(view, piOwnText) {
		t.Fatalf("Pi's context is still there:\n%s", view)
	}
}
