package capstate

import (
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/session"
)

// OpKind is an offline command.
type OpKind string

// Commands the planner knows: the /capability mutations and /preset use.
const (
	OpEnable      OpKind = "enable"
	OpEnableBound OpKind = "enable-bound"
	OpDisable     OpKind = "disable"
	OpReset       OpKind = "reset"
	OpAdd         OpKind = "add"
	OpUsePreset   OpKind = "preset-use"
)

// Operation is one command with its argument (selector, binding id,
// activation/capability/binding id, text, or Preset selector).
type Operation struct {
	Kind OpKind
	Arg  string
}

// ErrHistory reports a branch whose capability history cannot be read;
// nothing can be planned on it.
var ErrHistory = errors.New("capability history unreadable")

// Plan is what a command would do to the session: pi-forge's message, the
// entries to append (in order) and the states before and after.
type Plan struct {
	Op     Operation
	Result capability.Result
	// Refusal is set when pi-forge refuses the command; nothing is planned.
	Refusal *capability.Refusal
	// Planned are the custom entries to append, in order.
	Planned []capability.PlannedEntry
	// Before is the state at the file's leaf; After the state the planned
	// entries lead to (History, Pending, EffectiveTools, Preset and
	// Delivery recomputed; Presentation and Model unchanged).
	Before, After *State
	// Guard is what the session looked like when the plan was made.
	Guard session.Guard
}

// Entries converts the planned entries into session entries for Append.
func (p *Plan) Entries() []session.NewEntry {
	out := make([]session.NewEntry, len(p.Planned))
	for i, e := range p.Planned {
		out[i] = session.CustomEntry(e.CustomType, e.Data)
	}
	return out
}

// Changes reports whether the plan writes anything.
func (p *Plan) Changes() bool { return len(p.Planned) > 0 }

// DefaultOptions uses the wall clock and random UUIDs, like pi-forge.
func DefaultOptions(now func() time.Time) capability.Options {
	if now == nil {
		now = time.Now
	}
	return capability.Options{
		Now:   func() float64 { return float64(now().UnixMilli()) },
		NewID: NewUUID,
	}
}

// NewUUID returns a random RFC 4122 version 4 UUID (randomUUID).
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// PlanAt plans a command at the session's leaf (the last entry in file
// order, where an append lands). It fails when the history there is
// unreadable; a refusal by pi-forge's rules is reported in Plan.Refusal.
func PlanAt(s *session.Session, in Inputs, op Operation, opts capability.Options) (*Plan, error) {
	before, err := At(s, s.LeafIndex(), in, opts)
	if err != nil {
		return nil, err
	}
	p := &Plan{Op: op, Before: before, Guard: session.GuardOf(s)}
	if before.Err != nil {
		entry := ""
		if before.ErrEntryID != "" {
			entry = " (entry " + before.ErrEntryID + ")"
		}
		return nil, fmt.Errorf("%s%s: %w", before.Err.Message, entry, ErrHistory)
	}
	if before.Runtime == nil { // empty session: nothing restored yet
		rt, herr := capability.NewRuntime(in.Workspace, capability.SessionInput{Tools: before.Tools}, opts)
		if herr != nil {
			return nil, fmt.Errorf("%s: %w", herr.Message, ErrHistory)
		}
		before.Runtime = rt
	}
	rt := before.Runtime
	var res capability.Result
	var ref *capability.Refusal
	switch op.Kind {
	case OpEnable:
		res, ref = rt.Enable(op.Arg)
	case OpEnableBound:
		res, ref = rt.EnableBound(op.Arg, capability.ActorUser)
	case OpDisable:
		res, ref = rt.Disable(op.Arg)
	case OpReset:
		res, ref = rt.Reset()
	case OpAdd:
		res, ref = rt.Add(op.Arg)
	case OpUsePreset:
		res, ref = rt.UsePreset(op.Arg)
	default:
		return nil, fmt.Errorf("plan: unknown operation %q", op.Kind)
	}
	p.Result, p.Refusal = res, ref
	if ref != nil {
		return p, nil
	}
	p.Planned = rt.Planned()
	p.After = after(before, rt)
	return p, nil
}

// after derives the state the planned entries lead to from the runtime
// that planned them.
func after(before *State, rt *capability.Runtime) *State {
	st := *before
	st.Runtime = rt
	st.History = rt.History()
	st.Pending = st.History.PendingEvents()
	st.EffectiveTools = rt.EffectiveTools()
	st.Preset, st.PresetProblem = rt.Preset(), rt.PresetProblem()
	st.Problem = rt.Problem()
	st.Records = rt.Records()
	for _, e := range rt.Planned() {
		if e.CustomType == capability.PresetStateEntryType {
			v, _ := e.Data.Get("activeStackId")
			if id, ok := v.(string); ok {
				st.StoredPreset = &id
			}
		}
	}
	// No request has seen the new events yet.
	st.Delivery = capability.DeliveryPending
	if st.History.Reduced.LastEventID == "" {
		st.Delivery = capability.DeliveryNone
	} else if st.History.Reduced.LastEventID == before.lastEventID() {
		st.Delivery = before.Delivery
	}
	return &st
}

func (st *State) lastEventID() string {
	if st.History == nil {
		return ""
	}
	return st.History.Reduced.LastEventID
}
