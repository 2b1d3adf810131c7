package common

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Selection is what is selected across the workbench, and only that: the
// session, the entry in it and the Preset the user opened. The header
// shows it and every panel follows it.
//
// Each part has one owner, which writes it into Common.Selection from its
// own Update: the Session panel the session and entry fields, the Presets
// panel PresetID. When that Update returns, the root sees the change and
// hands every panel one SelectionChangedMsg in the same Update — never
// through a command — so selections cannot arrive out of order, none
// arrives twice and no panel hears its own change as someone else's. A
// panel that wants another panel to show something sends a JumpMsg
// instead (Common.Jump).
type Selection struct {
	SessionFile string
	// SessionName is what the session is called everywhere (session.Title:
	// its name, else its first user message, else its id).
	SessionName string
	// EntryID is the selected entry's id. Once a session is open it is
	// always set, also at the leaf, so a panel that caches by entry sees
	// the leaf move when follow mode appends entries; "" only while no
	// session has been opened yet (consumers then use the leaf).
	EntryID string
	// AtLeaf is true when EntryID is the session's current leaf: the
	// selection then follows the leaf as the session grows, unless Paused.
	AtLeaf bool
	// Paused is true when the selection stays on EntryID as the session
	// grows although it is at the leaf (F paused it there, or the file
	// cannot be watched). Off the leaf a selection never follows.
	Paused bool
	// PresetID is the Preset the user opened in the Presets panel
	// ("scope:id"; "" until they choose one).
	PresetID string
	// ActivePreset is the Preset selection the session's branch records at
	// the entry (replay.ActivePresetAt: "scope:id", "none", or "" when
	// nothing is recorded).
	ActivePreset string
	// FreshBranch is true when the branch up to the entry holds only what
	// a newly started Pi session writes (one thinking-level change, at most
	// one model change, session names): with nothing recorded, pi-forge
	// would auto-activate its agent profile's Preset there, elsewhere only
	// the auto-activating Preset.
	FreshBranch bool
}

// SelectionChangedMsg tells every panel that Common.Selection changed;
// Selection is its value then. The root sends it (uitest.ForPanel plays
// the root for a panel alone); a panel never does — it writes
// Common.Selection, and the root announces the change once.
type SelectionChangedMsg struct{ Selection Selection }

// JumpTarget is where a jump takes the user: the panel brought to the
// front and what it shows there. Each panel reads the fields that name
// something of its own and ignores the rest.
type JumpTarget struct {
	// Panel is the panel brought to the front (PanelPresets …).
	Panel int
	// SessionFile and EntryID: the Session panel opens the session (when
	// it is not open) with the cursor on the entry ("" = its leaf), and
	// so the selection moves there. SessionName is what the session is
	// called until it is read.
	SessionFile, SessionName, EntryID string
	// PresetID and ItemID: the Presets panel opens the Preset (unless the
	// open draft has unsaved changes) and puts the cursor on the item.
	PresetID, ItemID string
	// CapabilityID is a capability key (scope:id) the Capabilities panel
	// shows, in its library and among the session's active ones.
	CapabilityID string
	// AgentPath, AgentFile and AgentEntryID name an entry of an agent's
	// transcript (a global search hit in a pi-subagent tree; SessionFile
	// is then the root session): the Agents panel opens the transcript
	// there.
	AgentPath, AgentFile, AgentEntryID string
	// CacheBreaksOf is a cause's ref (a capability key, a Preset or
	// Preset item, a regex rule): the Payloads panel shows the project's
	// cache breaks it caused ("what has this cost").
	CacheBreaksOf string
	// CompareRefs are two request references (replay.ParseRef: A, B):
	// the Payloads panel shows their diff, as a pick of both sides would
	// (the Session panel's branch comparison).
	CompareRefs [2]string
	// LocateText goes with CompareRefs: the Payloads panel puts its block
	// cursor on the first block of B (else A) whose text holds it — a
	// capability card's Locate names the system prompt section its update
	// block carries (capability.SectionPrefix + the activation id).
	LocateText string
	// SearchQuery is the query of the search hit the jump lands on ("" =
	// none): the panel of Panel reveals the match at the landing (expands
	// what hides it, scrolls to it, marks the query's words).
	SearchQuery string
}

// JumpMsg takes the user to Target. The root brings Target.Panel to the
// front and hands the message to every panel once; a jump is an event,
// not state, so a panel acts on it when it arrives and keeps no record of
// jumps it has seen. Seq numbers jumps (Common.Jump): the root drops one
// older than a jump it already delivered.
type JumpMsg struct {
	Seq    uint64
	Target JumpTarget
}

// Jump returns the command that sends one JumpMsg to t.
func (c *Common) Jump(t JumpTarget) tea.Cmd {
	c.jumpSeq++
	msg := JumpMsg{Seq: c.jumpSeq, Target: t}
	return func() tea.Msg { return msg }
}

// FollowDelay is how long work that follows the selection (a run context,
// a capability state, a request rebuilt) waits for the selection to rest:
// keys arriving in a burst move the cursor at once and start that work
// once, for where the burst ends.
const FollowDelay = 50 * time.Millisecond

// RenderDelay is how long a pane's own rendering of the entry under its
// cursor (the Session panel's detail, the palette's match) waits for the
// cursor to rest. Keys of one read reach Update back to back (100 of them
// take ~4 ms here), so a couple of milliseconds of quiet means the burst
// is over: it renders only where it ends, and the result is in the next
// frame. It was a whole frame (16 ms), which the last key's frame waited
// for on top of the frame gate and the terminal's own frame tick.
const RenderDelay = 2 * time.Millisecond

// Debounce coalesces work that follows a value changing faster than the
// work can be done: every Ask supersedes the previous one, and the work
// comes due once the Asks have stopped for the wait. A burst of N changes
// thus does the work once, at the end; while it waits nothing runs. One
// timer serves a whole burst: Asks while it runs only count, and when it
// fires after more Asks it is set again for the rest of the wait after the
// newest one, so a burst costs a message or two, not one per change.
//
// The panel keeps the Debounce in its (pointer) model, returns Ask's
// command and passes every DueMsg to Due, returning the command Due gives
// and doing the work when Due says it is due. A Debounce is its own key:
// DueMsgs of other Debounces (they are broadcast like every command
// result) are not its own.
type Debounce struct {
	com     *Common
	wait    time.Duration
	seq     uint64    // Asks so far
	armed   uint64    // seq when the timer was set (0: no timer)
	last    time.Time // the newest Ask
	waiting bool
}

// DueMsg is the message a Debounce's timer delivers; pass it to Due.
type DueMsg struct {
	d   *Debounce
	seq uint64
}

// Ask asks for the work after wait, superseding what is waiting.
func (d *Debounce) Ask(c *Common, wait time.Duration) tea.Cmd {
	d.com, d.wait = c, wait
	d.seq++
	d.waiting = true
	d.last = c.Clock()
	if d.armed != 0 {
		return nil // the timer running looks again when it fires
	}
	return d.arm(wait)
}

func (d *Debounce) arm(after time.Duration) tea.Cmd {
	d.armed = d.seq
	return d.com.Later(after, DueMsg{d: d, seq: d.seq})
}

// Due handles msg: due is true when it is this Debounce's timer and no Ask
// came since it was set, or the newest Ask is already the whole wait old
// (the timer fired late): the work is due now, once. When Asks came
// within the wait, again sets the timer for the rest of it.
func (d *Debounce) Due(msg DueMsg) (due bool, again tea.Cmd) {
	if msg.d != d || msg.seq != d.armed || d.armed == 0 {
		return false, nil
	}
	if d.seq != d.armed && d.waiting {
		rest := d.wait - d.com.Clock().Sub(d.last)
		if rest > d.wait { // the clock went back
			rest = d.wait
		}
		if rest > 0 {
			return false, d.arm(rest)
		}
	}
	d.armed = 0
	due, d.waiting = d.waiting, false
	return due, nil
}

// Cancel drops what is waiting (the work is no longer wanted, or was
// done another way); a timer still running comes to nothing.
func (d *Debounce) Cancel() { d.waiting = false }

// Waiting reports whether an Ask has not come due yet.
func (d *Debounce) Waiting() bool { return d.waiting }
