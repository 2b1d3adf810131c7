package uitest

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// recorder is a model that records what reaches its Update and answers
// some messages with commands.
type recorder struct {
	got   []string
	reply map[string]tea.Cmd
}

type note string

func (r *recorder) update(msg tea.Msg) (*recorder, tea.Cmd) {
	switch msg := msg.(type) {
	case note:
		r.got = append(r.got, string(msg))
		return r, r.reply[string(msg)]
	case tea.KeyPressMsg:
		r.got = append(r.got, "key "+msg.String())
		return r, r.reply["key "+msg.String()]
	case common.SelectionChangedMsg:
		r.got = append(r.got, "selection "+msg.Selection.EntryID)
	case tea.WindowSizeMsg:
		r.got = append(r.got, "size")
	}
	return r, nil
}

func say(s string) tea.Cmd { return func() tea.Msg { return note(s) } }

func newRecorder(t *testing.T, reply map[string]tea.Cmd) *Harness[*recorder] {
	return New(t, &recorder{reply: reply}, (*recorder).update)
}

func TestRunSettlesBatchesSequencesAndFollowUps(t *testing.T) {
	h := newRecorder(t, map[string]tea.Cmd{
		"key ctrl+s": tea.Sequence(say("first"), tea.Batch(say("second"), say("third")), say("fourth")),
		"third":      say("after third"),
	})
	h.Press("ctrl+s")
	want := []string{"key ctrl+s", "first", "second", "third", "fourth", "after third"}
	if len(h.Model.got) != len(want) {
		t.Fatalf("got %v, want %v", h.Model.got, want)
	}
	for i := range want {
		if h.Model.got[i] != want[i] {
			t.Fatalf("got %v, want %v", h.Model.got, want)
		}
	}
}

func TestQuitStopsAndInterceptKeepsMessagesFromTheModel(t *testing.T) {
	h := newRecorder(t, map[string]tea.Cmd{"key q": tea.Sequence(say("kept"), say("taken"), tea.Quit, say("never"))})
	var taken []string
	h.Intercept = func(msg tea.Msg) bool {
		if n, ok := msg.(note); ok && n == "taken" {
			taken = append(taken, string(n))
			return true
		}
		return false
	}
	h.Press("q")
	if !h.Quit || len(taken) != 1 {
		t.Fatalf("quit=%v taken=%v", h.Quit, taken)
	}
	for _, g := range h.Model.got {
		if g == "taken" || g == "never" {
			t.Fatalf("%q reached the model: %v", g, h.Model.got)
		}
	}
}

func TestSelectionsAreRecordedAndStored(t *testing.T) {
	com := &common.Common{}
	sel := common.Selection{EntryID: "e7"}
	h := newRecorder(t, map[string]tea.Cmd{"go": func() tea.Msg { return common.SelectionChangedMsg{Selection: sel} }})
	h.Common = com
	h.Send(note("go"))
	if len(h.Selections) != 1 || com.Selection != sel || h.Model.got[1] != "selection e7" {
		t.Fatalf("selections=%v common=%v got=%v", h.Selections, com.Selection, h.Model.got)
	}
}

func TestCommandsThatNeverSettleFail(t *testing.T) {
	var loop tea.Cmd
	loop = func() tea.Msg { return note("again") }
	ft := &fatalRecorder{TB: t}
	h := New(ft, &recorder{reply: map[string]tea.Cmd{"again": loop}}, (*recorder).update)
	func() {
		defer func() { _ = recover() }()
		h.Run(loop)
	}()
	if !ft.failed {
		t.Fatal("an endless chain of commands must fail the test")
	}
}

// fatalRecorder turns Fatalf into a recorded failure plus a panic, so a
// test can check that the harness gives up.
type fatalRecorder struct {
	testing.TB
	failed bool
}

func (f *fatalRecorder) Fatalf(string, ...any) { f.failed = true; panic("fatal") }
func (f *fatalRecorder) Helper()               {}

func TestKeyNamesMatchBindings(t *testing.T) {
	cases := map[string]string{
		"enter": "enter", "esc": "esc", "space": "space", "ctrl+s": "ctrl+s", "shift+tab": "shift+tab",
		"alt+up": "alt+up", "q": "q", "G": "G", "?": "?", "pgdown": "pgdown", "backspace": "backspace",
	}
	for name, binding := range cases {
		if !key.Matches(Key(name), key.NewBinding(key.WithKeys(binding))) {
			t.Errorf("Key(%q) = %q does not match the binding %q", name, Key(name).String(), binding)
		}
	}
}

func TestResizeSizesThenSends(t *testing.T) {
	h := newRecorder(t, nil)
	var sized [2]int
	h.OnResize = func(_ *recorder, w, hh int) { sized = [2]int{w, hh} }
	h.Resize(80, 24)
	if sized != [2]int{80, 24} || h.Model.got[0] != "size" {
		t.Fatalf("sized=%v got=%v", sized, h.Model.got)
	}
}
