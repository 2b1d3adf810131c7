package sessions

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/test/hostile"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// hostileHarness opens the panel on the staged hostile corpus (its
// sessions live in the directory Pi uses for the cwd "/hostile"), with
// file as the selected session.
func hostileHarness(t *testing.T, w, h int, file string, st hostile.Staged) *harness {
	t.Helper()
	t.Setenv(session.EnvSessionDir, "")
	if session.EncodeCwd("/hostile") != hostile.ProjectDirName {
		t.Fatalf("the corpus directory is not Pi's directory for /hostile")
	}
	ws := resources.Workspace{Cwd: "/hostile", AgentDir: st.AgentDir, Trust: resources.Trust{Trusted: true}}
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: hsStyles(), Keys: &keys, Workspace: ws, Width: w, Height: h,
		Selection: common.Selection{SessionFile: file}}
	m := New(com)
	m.SetSize(w, h)
	hs := &harness{Harness: uitest.ForPanel(t, m, com), com: com, m: m, now: testNow}
	com.Now = func() time.Time { return hs.now } // the staged files are not "live": written months before
	done := make(chan struct{})
	go func() { hs.Run(m.Init()); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("discovery over the hostile corpus did not finish (a FIFO blocked it?)")
	}
	hs.Settle() // the detail renders once the panel rests
	return hs
}

// Every view of the Session panel over the hostile corpus — the picker
// with FIFOs, /dev/zero and an escaped file name, every entry's detail,
// the tree, context and stats of each session — holds no raw ESC, BEL, C1
// or bidi control; a few are goldens.
func TestHostileCorpusViews(t *testing.T) {
	st := hostile.Stage(t)
	for _, name := range []string{"escapes.jsonl", "raw-c1-bidi.jsonl", "cycle.jsonl", "duplicates.jsonl", "long-ids.jsonl", "v1.jsonl"} {
		hs := hostileHarness(t, 160, 48, st.Sessions[name], st)
		if hs.m.ls == nil || hs.m.ls.file != st.Sessions[name] {
			t.Fatalf("%s did not open: %q", name, hs.m.loadError())
		}
		check := func(what string) {
			t.Helper()
			hostile.AssertCleanView(t, name+" "+what, hs.view())
		}
		hs.focusOn(panePicker)
		check("picker")
		hs.focusOn(paneTree)
		check("tree")
		hs.focusOn(paneTimeline)
		hs.Press("g")
		for i := 0; i < len(hs.m.ls.rows); i++ {
			hs.Press("enter")
			check(fmt.Sprintf("detail %d", i))
			hs.Press("esc", "down")
		}
		hs.Press("c")
		check("context")
		hs.Press("esc", "s")
		check("stats")
	}
	// The picker lists the special files with their problem.
	hs := hostileHarness(t, 160, 48, st.Sessions["escapes.jsonl"], st)
	problems := 0
	for _, it := range hs.m.picker.raw {
		if strings.Contains(it.Problem, "not a regular file") {
			problems++
		}
	}
	if want := len(st.Special) / 2; problems != want {
		t.Errorf("%d special files listed with a problem, want %d", problems, want)
	}
}

func TestHostileGoldens(t *testing.T) {
	st := hostile.Stage(t)
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, step := range []struct {
			name, file string
			do         func(hs *harness)
		}{
			{"timeline", "escapes.jsonl", func(hs *harness) { hs.focusOn(paneTimeline) }},
			{"detail_user", "escapes.jsonl", func(hs *harness) {
				hs.focusOn(paneTimeline)
				hs.Press("g", "down", "enter")
			}},
			{"detail_assistant", "escapes.jsonl", func(hs *harness) {
				hs.focusOn(paneTimeline)
				hs.Press("g", "down", "down", "enter")
			}},
			{"tree_cycle", "cycle.jsonl", func(hs *harness) { hs.focusOn(paneTree) }},
		} {
			name := fmt.Sprintf("hostile_%s_%dx%d", step.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				hs := hostileHarness(t, size.w, size.h, st.Sessions[step.file], st)
				step.do(hs)
				view := hs.view()
				hostile.AssertCleanView(t, name, view)
				uitest.AssertFills(t, view, size.w, size.h)
				uitest.Golden(t, name, view)
			})
		}
	}
}
