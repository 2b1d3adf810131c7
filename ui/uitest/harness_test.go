package uitest

import (
	"fmt"
	"math/rand/v2"
	"strings"
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

// selector writes the selection as a panel that owns it does, and
// records what it hears.
type selector struct {
	com *common.Common
	got []string
}

func (m *selector) update(msg tea.Msg) (*selector, tea.Cmd) {
	switch msg := msg.(type) {
	case note:
		m.got = append(m.got, string(msg))
		if msg == "pick" {
			m.com.Selection.EntryID = "e7"
			return m, say("done")
		}
	case common.SelectionChangedMsg:
		m.got = append(m.got, "selection "+msg.Selection.EntryID)
	}
	return m, nil
}

// The harness plays the root: a selection an Update wrote is announced
// to the model in the same step, before any command's result, and once.
func TestSelectionsAreAnnouncedAtOnceAndOnce(t *testing.T) {
	com := &common.Common{}
	h := New(t, &selector{com: com}, (*selector).update)
	h.Common = com
	h.Send(note("pick"))
	want := []string{"pick", "selection e7", "done"}
	if len(h.Selections) != 1 || h.Selections[0].EntryID != "e7" || strings.Join(h.Model.got, ",") != strings.Join(want, ",") {
		t.Fatalf("selections=%v got=%v, want %v", h.Selections, h.Model.got, want)
	}
	h.Send(note("pick")) // unchanged: nothing to announce
	if len(h.Selections) != 1 {
		t.Fatalf("an unchanged selection was announced again: %v", h.Selections)
	}
}

// A burst runs every key's Update as it arrives while the results of
// earlier keys' commands come back in between and out of order, as the
// bubbletea runtime delivers them.
func TestBurstInterleavesResultsOutOfOrder(t *testing.T) {
	keys := []string{"1", "2", "3", "4", "5", "6", "7", "8"}
	reply := map[string]tea.Cmd{}
	for _, k := range keys {
		reply["key "+k] = say("r" + k)
	}
	var between, reordered bool
	for seed := uint64(0); seed < 20; seed++ {
		h := newRecorder(t, reply)
		h.Burst(rand.New(rand.NewPCG(seed, 1)), keys...)
		var order []string
		lastKey, lastResult := "", ""
		for _, g := range h.Model.got {
			if strings.HasPrefix(g, "key ") {
				lastKey = g
				order = append(order, g)
				continue
			}
			if lastKey != "key "+keys[len(keys)-1] {
				between = true
			}
			if lastResult != "" && g < lastResult {
				reordered = true
			}
			lastResult = g
		}
		if len(order) != len(keys) || len(h.Model.got) != 2*len(keys) {
			t.Fatalf("seed %d: every key and result arrives once: %v", seed, h.Model.got)
		}
		for i, k := range order {
			if k != "key "+keys[i] {
				t.Fatalf("seed %d: keys arrive in order: %v", seed, order)
			}
		}
	}
	if !between || !reordered {
		t.Fatalf("results between keys %v, out of order %v: the burst does not model the runtime", between, reordered)
	}
}

// Debounced work comes due when input rests (after Send), never inside
// a burst; other timers wait for FireTimers.
func TestDebouncedWorkComesDueAfterInput(t *testing.T) {
	com := &common.Common{}
	var d common.Debounce
	var due, expired int
	h := New(t, 0, func(n int, msg tea.Msg) (int, tea.Cmd) {
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			return n, tea.Batch(d.Ask(com, common.FollowDelay), com.Later(common.StatusTTL, common.StatusExpiredMsg{}))
		case common.DueMsg:
			ok, again := d.Due(msg)
			if ok {
				due++
			}
			return n, again
		case common.StatusExpiredMsg:
			expired++
		}
		return n, nil
	})
	h.UseTimers(com)
	h.Burst(rand.New(rand.NewPCG(1, 2)), "j", "j", "j", "j")
	if due != 1 || expired != 0 {
		t.Fatalf("a burst of 4 keys: the work came due %d times (want once), %d expiries (want none yet)", due, expired)
	}
	h.Press("j")
	if due != 2 {
		t.Fatalf("one key: due %d, want 2", due)
	}
	if left := h.Quiesce(3); len(left) != 0 || expired != 5 {
		t.Fatalf("after quiescing: %d timers left, %d expiries", len(left), expired)
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
	msg    string
}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, args...)
	panic("fatal")
}
func (f *fatalRecorder) Helper() {}

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
