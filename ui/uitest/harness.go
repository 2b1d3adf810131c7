package uitest

import (
	"math/rand/v2"
	"os/exec"
	"reflect"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// maxSteps bounds the messages one settle may process, so a command that
// keeps scheduling itself fails the test instead of hanging it.
const maxSteps = 1000

// Harness drives a model the way the bubbletea runtime does, but
// synchronously: keys and messages go through Update, and every command
// Update returns runs to completion (batches and sequences included), its
// messages fed back in order, until nothing is left to do.
//
// M is the model type whose Update the harness calls: common.Panel for a
// panel, tea.Model for the root, forms.Form for a form.
type Harness[M any] struct {
	t      testing.TB
	update func(M, tea.Msg) (M, tea.Cmd)

	// Model is the model after the last Update.
	Model M
	// Common, when set, makes the harness play the root's part for
	// selection changes: when an Update changed Common.Selection, the
	// model hears one common.SelectionChangedMsg at once, in the same
	// step, as every panel does from the root; a SelectionChangedMsg
	// sent to the harness is stored in Common.Selection first.
	Common *common.Common
	// Selections records every change of Common.Selection, in order.
	Selections []common.Selection
	// Jumps records every common.JumpMsg a command sent (the model hears
	// it too, as every panel does from the root).
	Jumps []common.JumpMsg
	// Clipboard records every text a command put on the clipboard
	// (tea.SetClipboard, OSC 52), in order.
	Clipboard []string
	// Shown records every Whole a command asked the root to show whole
	// (common.ViewWholeMsg; the model hears it too).
	Shown []common.Whole
	// Delivered counts the messages that reached the model's Update.
	Delivered int
	// announced is the selection the model was last told about.
	announced common.Selection
	// Intercept, when set, sees every message a command produced before
	// the model does; returning true keeps the message from the model
	// (a form test collects the edits a form asks its panel to apply).
	Intercept func(tea.Msg) bool
	// OnResize, when set, runs before Resize sends tea.WindowSizeMsg (a
	// panel is sized with SetSize first, as the root does).
	OnResize func(m M, width, height int)
	// Quit is true once a command asked the program to quit.
	Quit bool
	// Timers are the messages scheduled through Common.Later that have
	// not fired yet (a harness never sleeps: FireTimers delivers them).
	Timers []Timer
}

// Timer is one message scheduled through Common.Later.
type Timer struct {
	After time.Duration
	Msg   tea.Msg
}

// UseTimers makes com schedule through the harness: Common.Later then
// records the message in Timers instead of sleeping, and FireTimers
// delivers it. ForPanel does this for the Common it is given.
func (h *Harness[M]) UseTimers(com *common.Common) {
	com.Timer = func(d time.Duration, msg tea.Msg) tea.Cmd {
		h.Timers = append(h.Timers, Timer{After: d, Msg: msg})
		return nil
	}
}

// FireTimers delivers every pending timer's message (as if their time had
// come) and settles what they start.
func (h *Harness[M]) FireTimers() {
	h.t.Helper()
	pending := h.Timers
	h.Timers = nil
	for _, tm := range pending {
		h.Send(tm.Msg)
	}
}

// Settle delivers the pending common.DueMsg timers — the work a
// common.Debounce holds back until input rests — round after round
// until none is left: Send and Press end with it, as a user who pauses
// after a key lets every debounce come due. Other timers (a status's
// expiry, a poll) wait for FireTimers.
func (h *Harness[M]) Settle() {
	h.t.Helper()
	for steps := 0; ; steps++ {
		var due []Timer
		kept := h.Timers[:0:0]
		for _, tm := range h.Timers {
			if _, ok := tm.Msg.(common.DueMsg); ok {
				due = append(due, tm)
			} else {
				kept = append(kept, tm)
			}
		}
		if len(due) == 0 {
			return
		}
		if steps > maxSteps {
			h.t.Fatalf("debounced work does not settle after %d rounds", maxSteps)
		}
		h.Timers = kept
		for _, tm := range due {
			h.Run(h.apply(tm.Msg))
		}
	}
}

// New returns a harness over m; update is m's Update with the model type
// fixed (for example common.Panel.Update).
func New[M any](t testing.TB, m M, update func(M, tea.Msg) (M, tea.Cmd)) *Harness[M] {
	return &Harness[M]{t: t, Model: m, update: update}
}

// ForPanel drives a panel as the root would: selection changes are stored
// in com and recorded, and Resize calls SetSize before the size message.
func ForPanel(t testing.TB, p common.Panel, com *common.Common) *Harness[common.Panel] {
	h := New(t, p, func(p common.Panel, msg tea.Msg) (common.Panel, tea.Cmd) { return p.Update(msg) })
	h.Common = com
	if com != nil && com.Timer == nil {
		h.UseTimers(com)
	}
	h.OnResize = func(p common.Panel, w, hh int) {
		if com != nil {
			com.Width, com.Height = w, hh
		}
		p.SetSize(w, hh)
	}
	return h
}

// ForModel drives a whole bubbletea program model (the root).
func ForModel(t testing.TB, m tea.Model) *Harness[tea.Model] {
	return New(t, m, func(m tea.Model, msg tea.Msg) (tea.Model, tea.Cmd) { return m.Update(msg) })
}

// Press sends each key (by name, see Key) and settles what it started.
func (h *Harness[M]) Press(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.Send(Key(k))
	}
}

// Type types each rune of s as a key press (a space as the space key).
func (h *Harness[M]) Type(s string) {
	h.t.Helper()
	for _, r := range s {
		h.Send(runeKey(r))
	}
}

// Send delivers msg to the model, settles the commands it returns and
// lets debounced work come due (the user pauses). A selection sent this
// way is stored in Common first, as the root does before any panel sees
// it.
func (h *Harness[M]) Send(msg tea.Msg) {
	h.t.Helper()
	h.Run(h.apply(msg))
	h.Settle()
}

// apply hands msg to the model's Update and, playing the root, tells the
// model at once about a selection change the Update made.
func (h *Harness[M]) apply(msg tea.Msg) tea.Cmd {
	if sel, ok := msg.(common.SelectionChangedMsg); ok && h.Common != nil {
		h.Common.Selection = sel.Selection
		h.announced = sel.Selection
	}
	var cmd tea.Cmd
	h.Delivered++
	h.Model, cmd = h.update(h.Model, msg)
	cmds := []tea.Cmd{cmd}
	for round := 0; h.Common != nil && h.Common.Selection != h.announced; round++ {
		if round > 4 {
			h.t.Fatalf("the selection keeps changing while it is announced: %+v", h.Common.Selection)
		}
		h.announced = h.Common.Selection
		h.Selections = append(h.Selections, h.announced)
		h.Delivered++
		var c tea.Cmd
		h.Model, c = h.update(h.Model, common.SelectionChangedMsg{Selection: h.announced})
		cmds = append(cmds, c)
	}
	return tea.Batch(cmds...)
}

// Burst delivers keys as they arrive from one read of the terminal
// (tmux send-keys k k k, key repeat, typing ahead): each key's Update
// runs as it comes, while the commands earlier keys started finish in
// any order — the bubbletea runtime runs every command on its own
// goroutine — so their results reach the model between later keys and
// out of order. rng picks the interleaving. No time passes during the
// burst (no timer fires); afterwards everything settles as after Send.
func (h *Harness[M]) Burst(rng *rand.Rand, keys ...string) {
	h.t.Helper()
	var inflight []tea.Cmd
	steps := 0
	for len(keys) > 0 || len(inflight) > 0 {
		if steps++; steps > maxSteps*10 {
			h.t.Fatalf("a burst of keys does not settle after %d messages", maxSteps*10)
		}
		if h.Quit {
			return
		}
		if len(keys) > 0 && (len(inflight) == 0 || rng.IntN(2) == 0) {
			inflight = append(inflight, h.apply(Key(keys[0])))
			keys = keys[1:]
			continue
		}
		i := rng.IntN(len(inflight))
		c := inflight[i]
		inflight = append(inflight[:i], inflight[i+1:]...)
		if c != nil {
			inflight = append(inflight, h.deliver(c())...)
		}
	}
	h.Settle()
}

// Quiesce fires every pending timer, round after round, as if time
// went on with no input, and returns the timers still pending after
// rounds rounds (none when the model has gone quiet; a status's expiry
// schedules nothing, a loop reschedules itself every round).
func (h *Harness[M]) Quiesce(rounds int) []Timer {
	h.t.Helper()
	for r := 0; r < rounds && len(h.Timers) > 0; r++ {
		h.FireTimers()
	}
	return h.Timers
}

// Resize gives the model a new terminal size.
func (h *Harness[M]) Resize(width, height int) {
	h.t.Helper()
	if h.OnResize != nil {
		h.OnResize(h.Model, width, height)
	}
	h.Send(tea.WindowSizeMsg{Width: width, Height: height})
}

// Run executes cmd and everything it leads to. Messages are delivered in
// the order their commands finish when run one after another; a command
// that never returns (a timer, a channel read) blocks the test, so tests
// keep such commands out of the path they drive.
func (h *Harness[M]) Run(cmd tea.Cmd) {
	h.t.Helper()
	steps := 0
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil || h.Quit {
			continue
		}
		if steps++; steps > maxSteps {
			h.t.Fatalf("commands do not settle after %d messages", maxSteps)
		}
		queue = append(queue, h.deliver(c())...)
	}
}

// deliver hands one command's message to the model and returns the
// commands that follow from it.
func (h *Harness[M]) deliver(msg tea.Msg) []tea.Cmd {
	switch msg := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		return msg
	case tea.QuitMsg:
		h.Quit = true
		return nil
	case common.JumpMsg:
		h.Jumps = append(h.Jumps, msg)
	case common.ViewWholeMsg:
		if msg.Err == nil {
			h.Shown = append(h.Shown, msg.Whole)
		}
	}
	if text, ok := clipboard(msg); ok {
		h.Clipboard = append(h.Clipboard, text)
	}
	if cmds, ok := sequence(msg); ok {
		// A sequence runs its commands one after another, each message
		// delivered before the next command starts.
		var next []tea.Cmd
		for _, c := range cmds {
			next = append(next, h.runInOrder(c)...)
		}
		return next
	}
	if isExec(msg) {
		return nil // the harness never hands the terminal to another program
	}
	if h.Intercept != nil && h.Intercept(msg) {
		return nil
	}
	return []tea.Cmd{h.apply(msg)}
}

// runInOrder runs c inside a sequence: a batch it returns completes
// before the sequence moves on, as in bubbletea; the commands that follow
// from the delivered messages are returned for the main queue.
func (h *Harness[M]) runInOrder(c tea.Cmd) []tea.Cmd {
	if c == nil || h.Quit {
		return nil
	}
	msg := c()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var next []tea.Cmd
		for _, b := range batch {
			next = append(next, h.runInOrder(b)...)
		}
		return next
	}
	return h.deliver(msg)
}

// sequence unpacks bubbletea's internal message of tea.Sequence.
func sequence(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().String() != "tea.sequenceMsg" {
		return nil, false
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i], _ = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}

// clipboard reads bubbletea's internal message of tea.SetClipboard.
func clipboard(msg tea.Msg) (string, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.String || v.Type() != clipboardType {
		return "", false
	}
	return v.String(), true
}

// clipboardType is the type of tea.SetClipboard's message.
var clipboardType = reflect.TypeOf(tea.SetClipboard("")())

// RunPrograms makes com hand the terminal to programs (the pager) the way
// a test can: the program runs at once with the standard input it was
// given and no terminal, and its callback's message is delivered.
func RunPrograms(com *common.Common) {
	com.Exec = func(cmd *exec.Cmd, done tea.ExecCallback) tea.Cmd {
		return func() tea.Msg { return done(cmd.Run()) }
	}
}

// isExec reports bubbletea's internal message of tea.ExecProcess.
func isExec(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	return t != nil && t.String() == "tea.execMsg"
}

// TB is the test the harness reports to.
func (h *Harness[M]) TB() testing.TB { return h.t }
