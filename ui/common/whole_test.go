package common_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	. "github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// longID is an id no word wrap can break at a space: the overlay must
// still show every character of it.
const longID = "ce536bea-650b-4631-aea1-65dd6f1e2b7c/ce536bea-650b-4631-aea1-65dd6f1e2b7c/ce536bea-650b-4631-aea1-65dd6f1e2b7c"

func wholeText() string {
	var b strings.Builder
	b.WriteString("cause: the Preset item project:guarded-worker#rules changed its text between the two requests, which moved the cache boundary\n")
	b.WriteString("id " + longID + "\n\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("line " + strings.Repeat("x", i%7) + " " + string(rune('a'+i%26)) + "\n")
	}
	b.WriteString("\x1b[31mred\x1b[0m and a tab\there\n")
	return b.String()
}

func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}

// The overlay shows a text whole: long lines and words wrap, nothing is
// left out, escapes are gone, and it scrolls.
func TestViewerShowsEveryCharacter(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	keys := keymap.DefaultSet()
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		v := NewViewer(Whole{Title: "the cause of block 3", Text: wholeText()})
		view := v.View(&st, size[0], size[1])
		uitest.AssertFits(t, view, size[0], size[1])
		name := "viewer_" + sizeName(size)
		uitest.Golden(t, name, view)
		plain := ansi.Strip(view)
		if strings.Contains(plain, "…") {
			t.Errorf("%s: the overlay cut something:\n%s", name, plain)
		}
		// Every character of the id is on screen, across lines.
		joined := strings.Join(strings.Fields(strings.NewReplacer("┃", "", "│", "").Replace(plain)), "")
		if !strings.Contains(joined, strings.ReplaceAll(longID, " ", "")) {
			t.Errorf("%s: the id is not whole:\n%s", name, plain)
		}
		// Scrolling reaches the end; esc closes.
		for range 10 {
			v.HandleKey(&keys, keyPress("pgdown"))
		}
		end := ansi.Strip(v.View(&st, size[0], size[1]))
		if !strings.Contains(end, "red and a tab    here") || strings.Contains(end, "\x1b[31m") {
			t.Errorf("%s: the last line, sanitised, at the end:\n%s", name, end)
		}
		if v.HandleKey(&keys, keyPress("esc")) != ViewerClose || v.HandleKey(&keys, keyPress("v")) != ViewerClose {
			t.Errorf("esc and v close the overlay")
		}
		if v.HandleKey(&keys, keyPress("y")) != ViewerCopy || v.HandleKey(&keys, keyPress("o")) != ViewerPage {
			t.Errorf("y copies and o pages from the overlay")
		}
	}
}

func sizeName(s [2]int) string {
	return map[[2]int]string{{80, 24}: "80x24", {160, 48}: "160x48"}[s]
}

// Copy loads the text in the command, puts it on the clipboard sanitised
// and reports the note through the panel's own message.
func TestCopyReportsThroughThePanelsMessage(t *testing.T) {
	type copied struct {
		note string
		err  error
	}
	loaded := false
	w := Whole{Title: "entry e07", Load: func() (string, error) { loaded = true; return "a\x1b[2Jb", nil }}
	cmd := Copy(w, func(note string, err error) tea.Msg { return copied{note, err} })
	if loaded {
		t.Fatal("Copy loads in its command, not when it is asked")
	}
	h := uitest.New[*recorder](t, &recorder{}, (*recorder).update)
	h.Run(cmd)
	if len(h.Clipboard) != 1 || h.Clipboard[0] != "ab" {
		t.Fatalf("clipboard %q, want the sanitised text", h.Clipboard)
	}
	got, ok := h.Model.last.(copied)
	if !ok || got.note != "copied entry e07 (2 chars)" || got.err != nil {
		t.Fatalf("report %#v", h.Model.last)
	}
	failing := Whole{Title: "the context", Load: func() (string, error) { return "", errors.New("no such entry") }}
	h.Run(Copy(failing, func(note string, err error) tea.Msg { return copied{note, err} }))
	if got := h.Model.last.(copied); got.err == nil || !strings.Contains(got.err.Error(), "copy the context: no such entry") || len(h.Clipboard) != 1 {
		t.Fatalf("a failed load reports the error and copies nothing: %#v %q", got, h.Clipboard)
	}
}

// recorder is a model that keeps the last message it received.
type recorder struct{ last tea.Msg }

func (r *recorder) update(msg tea.Msg) (*recorder, tea.Cmd) { r.last = msg; return r, nil }

// fakePager writes a pager that saves its arguments and its standard
// input next to itself.
func fakePager(t *testing.T) (path, out string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake pager is a shell script")
	}
	dir := t.TempDir()
	out = filepath.Join(dir, "paged")
	path = filepath.Join(dir, "fakepager")
	cat, err := exec.LookPath("cat") // before a test empties PATH
	if err != nil {
		t.Skip("no cat for the fake pager")
	}
	script := "#!/bin/sh\necho \"$@\" > '" + out + ".args'\n'" + cat + "' > '" + out + "'\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, out
}

// o hands the focused text to $PAGER (with its flags) on its standard
// input, as the $EDITOR hand-off does; the message after says it ended.
func TestPageHandsTheTextToThePager(t *testing.T) {
	pager, out := fakePager(t)
	t.Setenv("PAGER", pager+" -R --quit-if-one-screen")
	com := &Common{}
	uitest.RunPrograms(com)
	h := uitest.New[*recorder](t, &recorder{}, (*recorder).update)
	h.Run(com.Page(Whole{Title: "block 3", Text: "first line\nsecond \x1b[1mline\x1b[0m\n"}))
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the pager did not run: %v", err)
	}
	if string(data) != "first line\nsecond line\n" {
		t.Fatalf("the pager read %q", data)
	}
	args, _ := os.ReadFile(out + ".args")
	if strings.TrimSpace(string(args)) != "-R --quit-if-one-screen" {
		t.Fatalf("$PAGER's flags are passed: %q", args)
	}
	if done, ok := h.Model.last.(PagerDoneMsg); !ok || done.Err != nil || done.Pager != pager {
		t.Fatalf("after the pager: %#v", h.Model.last)
	}
}

// Without $PAGER the pager is less; without less either, the message
// says so instead of failing silently.
func TestPageWithoutAPagerSaysSo(t *testing.T) {
	com := &Common{}
	uitest.RunPrograms(com)
	h := uitest.New[*recorder](t, &recorder{}, (*recorder).update)
	t.Setenv("PAGER", "")
	t.Setenv("PATH", t.TempDir()) // no less here
	h.Run(com.Page(Whole{Title: "x", Text: "y"}))
	if done, ok := h.Model.last.(PagerDoneMsg); !ok || !errors.Is(done.Err, ErrNoPager) {
		t.Fatalf("want ErrNoPager, got %#v", h.Model.last)
	}
	if !strings.Contains(ErrNoPager.Error(), "$PAGER is unset and less is not installed") {
		t.Fatal("the message names both")
	}
	t.Setenv("PAGER", "no-such-pager-here")
	h.Run(com.Page(Whole{Title: "x", Text: "y"}))
	if done := h.Model.last.(PagerDoneMsg); done.Err == nil || !strings.Contains(done.Err.Error(), "$PAGER no-such-pager-here") {
		t.Fatalf("a $PAGER that is not there is named: %v", done.Err)
	}
	// With less on the PATH and no $PAGER, less it is.
	less, out := fakePager(t)
	dir := filepath.Dir(less)
	if err := os.Rename(less, filepath.Join(dir, "less")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PAGER", "")
	t.Setenv("PATH", dir)
	h.Run(com.Page(Whole{Title: "x", Text: "paged by less"}))
	if data, _ := os.ReadFile(out); string(data) != "paged by less" {
		t.Fatalf("less read %q", data)
	}
}

// FocusKey: y, v and o act on what the panel says is focused; nothing
// focused is said; other keys are not taken.
func TestFocusKeyActsOnTheFocusedThing(t *testing.T) {
	keys := keymap.DefaultSet()
	com := &Common{Keys: &keys}
	focused := func() (Whole, bool) { return Whole{Title: "agent /root/a", Text: "detail"}, true }
	none := func() (Whole, bool) { return Whole{}, false }
	report := func(note string, err error) tea.Msg { return note }
	h := uitest.New[*recorder](t, &recorder{}, (*recorder).update)
	cmd, _, ok := com.FocusKey(keyPress("v"), focused, report)
	h.Run(cmd)
	if !ok || len(h.Shown) != 1 || h.Shown[0].Text != "detail" {
		t.Fatalf("v shows the focused thing: %v %+v", ok, h.Shown)
	}
	cmd, _, _ = com.FocusKey(keyPress("y"), focused, report)
	h.Run(cmd)
	if len(h.Clipboard) != 1 || h.Clipboard[0] != "detail" || h.Model.last != "copied agent /root/a (6 chars)" {
		t.Fatalf("y copies it: %q %v", h.Clipboard, h.Model.last)
	}
	if _, note, ok := com.FocusKey(keyPress("o"), none, report); !ok || note != NothingHere() {
		t.Fatalf("nothing focused: %v %q", ok, note)
	}
	if _, _, ok := com.FocusKey(keyPress("j"), focused, report); ok {
		t.Fatal("j is not FocusKey's")
	}
}

// A pane's status is cut to its line on screen: the overlay shows it
// whole above the text, and copy and the pager leave it out.
func TestViewerShowsTheNoteAboveTheText(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	note := "not saved: the file changed on disk since you opened it; the session " + longID + " keeps its entries"
	v := NewViewer(Whole{Title: "capability project:review-mode", Text: "body line", Note: note})
	plain := ansi.Strip(v.View(&st, 60, 12))
	joined := strings.Join(strings.Fields(strings.NewReplacer("┃", "").Replace(plain)), "")
	if !strings.Contains(joined, strings.Join(strings.Fields(note), "")) {
		t.Fatalf("the note is not whole:\n%s", plain)
	}
	if strings.Index(plain, "not saved") > strings.Index(plain, "body line") {
		t.Fatalf("the note comes first:\n%s", plain)
	}
	h := uitest.New[*recorder](t, &recorder{}, (*recorder).update)
	h.Run(Copy(v.Whole(), func(string, error) tea.Msg { return nil }))
	if len(h.Clipboard) != 1 || h.Clipboard[0] != "body line" {
		t.Fatalf("copy leaves the note out: %q", h.Clipboard)
	}
}

// A big text (a long branch's request) is laid out in a command: the
// frame drawn before it arrives waits for nothing, and afterwards every
// line is there.
func TestViewerLaysABigTextOutInACommand(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		b.WriteString(`{"role": "user", "content": "a line of a long request that is wider than the overlay"}` + "\n")
	}
	v := NewViewer(Whole{Title: "the request as sent", Text: b.String()})
	if plain := ansi.Strip(v.View(&st, 80, 24)); !strings.Contains(plain, "laying the text out…") {
		t.Fatalf("before its layout arrives the overlay says so:\n%s", plain)
	}
	cmd := v.Layout(80)
	if cmd == nil || v.Layout(80) != nil {
		t.Fatal("one command lays a big text out for a width")
	}
	msg, ok := cmd().(ViewerLaidOutMsg)
	if !ok || !v.Apply(msg) || NewViewer(Whole{}).Apply(msg) {
		t.Fatalf("the layout applies to its own viewer only: %T", msg)
	}
	plain := ansi.Strip(v.View(&st, 80, 24))
	if !strings.Contains(plain, "lines 1–22 of 10000") {
		t.Fatalf("every line, wrapped, is counted:\n%s", plain)
	}
	if NewViewer(Whole{Text: "small"}).Layout(80) != nil {
		t.Fatal("a small text is laid out while drawing")
	}
}

// The viewer's frame counts the lines of a text that fits in English with
// the plural the count takes: "all 1 line", "all 2 lines".
func TestViewerCountsOneLineInTheSingular(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	for text, want := range map[string]string{"one line": "all 1 line", "first\nsecond": "all 2 lines"} {
		plain := ansi.Strip(NewViewer(Whole{Title: "t", Text: text}).View(&st, 60, 12))
		if !strings.Contains(plain, want) || strings.Contains(plain, "all 1 lines") {
			t.Errorf("%q: want %q in\n%s", text, want, plain)
		}
	}
}
