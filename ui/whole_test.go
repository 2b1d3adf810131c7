package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/ui/uitest"
)

func init() {
	time.Local = time.UTC // the overlays show the demo's clock times
}

// wholeScenes are the focused things of every panel (issue 21: y copied
// only in the Session panel, and cut lines had no way to be read): the
// keys that focus one, what its text must hold, and whether its overlay is
// a golden (the others name the demo's temporary directory).
var wholeScenes = []struct {
	name   string
	keys   []string
	want   []string
	golden bool
}{
	{"presets_item", []string{"1", "enter"}, []string{"You are a careful engineer on the billing team"}, true},
	{"presets_list", []string{"1"}, []string{"file ", "guarded-worker.json", `"type": "pi-forge.prompt-stack"`}, false},
	{"capabilities_library", []string{"2"}, []string{"file ", "revision ", "bound by "}, false},
	{"capabilities_snapshot", []string{"2", "tab", "tab"}, []string{"global:plain-english", "Explain results in plain English first"}, true},
	{"session_picker", []string{"3"}, []string{"session        Pre-release review", "file ", "messages "}, false},
	{"session_entry", []string{"3", "tab", "tab"}, []string{"All 2 tests pass, so 0.3.1 is ready to tag."}, true},
	{"payloads_block", []string{"4"}, []string{"A request for", "B recorded: read", "── as B has it ──"}, true},
	{"payloads_lines", []string{"4", "enter"}, []string{"context 3 lines", "@@ -0,0 +1 @@"}, false},
	{"agents_detail", []string{"5"}, []string{"/root/docs_check", "Check that the example in README.md matches", "recent activity"}, true},
	{"agents_transcript", []string{"5", "t"}, []string{}, false},
}

// estimate is a token estimate on screen ("~2,449 tok").
var estimate = regexp.MustCompile(`~[0-9][0-9,]* tok`)

// fixedLengthDir is a new directory whose path has the same length in
// every run: the demo's cwd is part of the requests, so their token
// counts (on screen) follow its length.
func fixedLengthDir(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	const length = 160
	if len(base) >= length-1 {
		t.Skipf("the temporary directory %s is too long for a stable golden", base)
	}
	dir := filepath.Join(base, strings.Repeat("d", length-len(base)-1))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fakePager is a $PAGER that keeps its standard input in out.
func fakePager(t *testing.T) (path, out string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake pager is a shell script")
	}
	dir := t.TempDir()
	out, path = filepath.Join(dir, "paged"), filepath.Join(dir, "pager")
	if err := os.WriteFile(path, []byte("#!/bin/sh\ncat > '"+out+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, out
}

// In every panel y copies the focused thing, v shows it whole in the
// overlay (nothing cut: its wanted lines are on screen whole), o hands the
// same text to $PAGER, and esc closes the overlay.
func TestEveryPanelCopiesShowsAndPagesTheFocusedThing(t *testing.T) {
	pager, paged := fakePager(t)
	t.Setenv("PAGER", pager)
	for _, sc := range wholeScenes {
		t.Run(sc.name, func(t *testing.T) {
			m, h := demoHarness(t)
			uitest.RunPrograms(m.com)
			h.Press(sc.keys...)
			h.Settle()
			h.Press("y")
			if len(h.Clipboard) != 1 {
				t.Fatalf("y copied %d texts:\n%s", len(h.Clipboard), screen(m))
			}
			clip := h.Clipboard[0]
			for _, w := range sc.want {
				if !strings.Contains(clip, w) {
					t.Errorf("the copy lacks %q:\n%s", w, clip)
				}
			}
			if strings.TrimSpace(clip) == "" {
				t.Fatal("y copied nothing")
			}
			h.Press("v")
			if m.whole == nil {
				t.Fatalf("v opened no overlay:\n%s", screen(m))
			}
			view := screen(m)
			if !strings.Contains(view, "View · ") {
				t.Fatalf("the overlay has no title:\n%s", view)
			}
			for _, w := range sc.want {
				if !strings.Contains(view, w) {
					t.Errorf("the overlay does not show %q whole:\n%s", w, view)
				}
			}
			os.Remove(paged)
			h.Press("o")
			data, err := os.ReadFile(paged)
			if err != nil || string(data) != sanitize.Text(clip) {
				t.Fatalf("o paged %q (%v), want the copied text %q", data, err, clip)
			}
			if m.whole == nil {
				t.Fatal("the overlay is still open after the pager")
			}
			h.Press("esc")
			if m.whole != nil || strings.Contains(screen(m), "View · ") {
				t.Fatal("esc closes the overlay")
			}
		})
	}
}

// The overlay of each panel's focused thing, at both sizes: a focused
// frame over the body, titled with what it shows, its text wrapped (not
// cut), its position in the border and its keys in the footer.
func TestGoldenViewWhole(t *testing.T) {
	for _, sc := range wholeScenes {
		if !sc.golden {
			continue
		}
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			name := "whole_" + sc.name + "_" + map[int]string{80: "80x24", 160: "160x48"}[size[0]]
			t.Run(name, func(t *testing.T) {
				m, h := demoHarnessIn(t, fixedLengthDir(t))
				h.Resize(size[0], size[1])
				h.Press(sc.keys...)
				h.Settle()
				h.Press("v")
				view := m.View().Content
				uitest.AssertFits(t, view, size[0], size[1])
				// The header names the demo's temporary directory, and the
				// requests hold it (their token estimates vary by one with
				// its characters).
				lines := strings.Split(view, "\n")
				uitest.Golden(t, name, estimate.ReplaceAllString(strings.Join(lines[1:], "\n"), "~N tok"))
			})
		}
	}
}

// A Whole that must be computed (the context at an entry, rebuilt) loads
// in a command and then opens; the root's footer says why when it cannot.
func TestViewWholeLoadsInACommand(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("3", "tab", "tab", "c")
	h.Settle()
	h.Press("v")
	view := screen(m)
	if m.whole == nil || !strings.Contains(view, "View · the request as sent at 33a03556") || !strings.Contains(view, `"model": "anthropic/claude-sonnet-4-5"`) {
		t.Fatalf("v in the context view shows the request it shows, as Y copies it:\n%s", view)
	}
	shown := m.whole.Whole().Text
	h.Press("esc", "y")
	if len(h.Clipboard) != 1 || h.Clipboard[0] != sanitize.Text(shown) {
		t.Fatalf("y in the context view copies what v showed: %d copies", len(h.Clipboard))
	}
}
