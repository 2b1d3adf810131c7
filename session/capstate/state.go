// Package capstate ties pi-forge's capability model (engine/capability) to
// Pi session files: the capability state at any entry of any branch, and
// the offline planner that turns a /capability or /preset use command into
// exactly the entries pi-forge would append, for session.Append to write.
//
// Nothing here touches the disk: callers open the session and load the
// library (as a capability.Workspace) and hand both in.
package capstate

import (
	"errors"
	"fmt"
	"slices"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// ErrNoEntry reports an entry index outside the session.
var ErrNoEntry = errors.New("no such entry")

// Inputs are the library and model catalog the state is computed against.
type Inputs struct {
	// Workspace is the library snapshot (trust, capabilities, Presets).
	Workspace *capability.Workspace
	// Catalog is Pi's model catalog (native vs fallback); nil = every
	// model is treated as unknown (fallback).
	Catalog *catalog.Catalog
}

// Model is the model selected at an entry.
type Model struct {
	Provider, ID string
	// Known is false when the branch selects no model.
	Known bool
	// Native is compat.supportsMidConvoSystemMessages of the catalog entry.
	Native bool
}

// State is the capability state at one entry of a branch.
type State struct {
	// Index and ID name the entry (Index -1 for an empty session).
	Index int
	ID    string
	// StoredPreset is the latest pi-forge-prompt-stack-state selection on
	// the branch ("off" reported as "none"); nil when there is none.
	StoredPreset *string
	// Preset is the Preset in force (the stored one, else auto-activation;
	// nil = none); PresetProblem says why a stored one does not resolve.
	Preset        *capability.PresetRef
	PresetProblem string
	// Err is set when the branch's capability history cannot be read
	// (legacy state, invalid events or anchors); ErrEntryID names the entry.
	// Everything below except Model and Presentation is then empty.
	Err        *capability.HistoryError
	ErrEntryID string
	// History is the branch's capability history.
	History *capability.History
	// Runtime is pi-forge's runtime restored at this entry (it plans
	// commands when the entry is the file's leaf).
	Runtime *capability.Runtime
	// Pending are the events no request has been prepared for.
	Pending []capability.Event
	// Delivery is none | pending | prepared.
	Delivery capability.Delivery
	// Presentation is native | fallback for the model in force.
	Presentation capability.Presentation
	Model        Model
	// Tools is what the session tells about tools (registered, selected).
	Tools capability.ToolHost
	// EffectiveTools is the selection pi-forge applies; nil when unknown.
	EffectiveTools []string
	// Problem is a validation problem of the active patches ("" = none).
	Problem string
	// Records are the branch's history records (for planning).
	Records []capability.Record
	// Abandoned are the batches forgebench appended that are off the
	// active branch (AbandonedWrites). At does not compute them — they are
	// a property of the whole file — so callers that report them set it.
	Abandoned []AbandonedWrite
}

// Active returns the active capabilities (empty when the history failed).
func (st *State) Active() []capability.Active {
	if st.History == nil {
		return nil
	}
	return st.History.Reduced.Active
}

// StatusText is the text of /capability status at this entry.
func (st *State) StatusText(includeContent bool) string {
	return capability.StatusText(st.Active(), st.Presentation, st.Delivery, st.EffectiveTools, includeContent)
}

// branch is what one walk over a branch collects.
type branch struct {
	records       []capability.Record
	lastAssistant int
	// preset is the latest Preset selection entry's choice (unrecorded
	// when the branch has none): ActivePresetAt without a second scan.
	preset replay.ActivePreset
}

// walk reads the branch ending at index: the history records and the
// last assistant message.
func walk(s *session.Session, index int) branch {
	b := branch{lastAssistant: -1}
	path := s.PathTo(index)
	n := 0
	for _, i := range path {
		if t := s.Entries[i].Type; t == session.TypeCustom || t == session.TypeCustomMessage || t == session.TypeCompaction {
			n++
		}
	}
	b.records = make([]capability.Record, 0, n)
	for _, i := range path {
		e := &s.Entries[i]
		switch e.Type {
		case session.TypeCompaction:
			b.records = append(b.records, capability.Record{Kind: capability.RecordCompaction, EntryIndex: i, EntryID: e.ID})
		case session.TypeMessage:
			if e.Role == session.RoleAssistant {
				b.lastAssistant = i
			}
		case session.TypeCustom, session.TypeCustomMessage:
			ct, raw, ok := e.CustomPayload()
			if ct == replay.PresetStateType && ok && e.Type == session.TypeCustom {
				b.preset = replay.DecodePresetState(raw)
				continue
			}
			if !capability.IsHistoryType(ct) {
				continue
			}
			r := capability.Record{Kind: capability.RecordCustom, CustomType: ct, EntryIndex: i, EntryID: e.ID}
			if e.Type == session.TypeCustomMessage {
				r.Kind = capability.RecordCustomMessage
			}
			if raw != nil {
				r.Raw, r.Present = raw, true // decoded by the history reader
			}
			b.records = append(b.records, r)
		}
	}
	return b
}

// registeredTools approximates Pi's registered tool catalog from what the
// branch shows: Pi 1.6.0's built-ins, pi-forge's control tool, every tool
// the branch ever declared, and the stored baseline's names. A tool that
// was registered but never selected is not visible in a session file.
func registeredTools(decl replay.ToolDeclarations, stored *capability.ToolsSnapshot) []string {
	var out []string
	seen := map[string]bool{}
	add := func(names ...string) {
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	for _, b := range compile.BuiltinTools {
		add(b.Name)
	}
	add(capability.ControlTool)
	add(decl.Ever...)
	if stored != nil {
		add(stored.Baseline...)
		add(stored.LastApplied...)
	}
	return out
}

// toolHost builds what Pi knows about tools at the entry: the selection is
// the later of the declarations in force and the stored baseline's last
// applied set; unknown when the branch records neither.
func toolHost(decl replay.ToolDeclarations, h *capability.History, records []capability.Record) capability.ToolHost {
	host := capability.ToolHost{Registered: registeredTools(decl, h.Tools)}
	storedAt := -1
	if h.Tools != nil && h.ToolsRecord >= 0 {
		storedAt = records[h.ToolsRecord].EntryIndex
	}
	switch {
	case h.Tools != nil && storedAt > decl.LastIndex:
		host.Active, host.ActiveKnown = append([]string{}, h.Tools.LastApplied...), true
	case decl.Recorded:
		host.Active, host.ActiveKnown = decl.InForce, true
	}
	return host
}

// At computes the capability state at the entry with the given index.
// opts supplies the clock and id generator of the restored runtime (only
// used when the runtime then plans a command).
func At(s *session.Session, index int, in Inputs, opts capability.Options) (*State, error) {
	if index < 0 || index >= len(s.Entries) {
		if len(s.Entries) == 0 && index == -1 {
			return emptyState(in), nil
		}
		return nil, fmt.Errorf("capability state at entry %d of %d: %w", index, len(s.Entries), ErrNoEntry)
	}
	st := &State{Index: index, ID: s.Entries[index].ID}
	b := walk(s, index)
	st.Records = b.records
	st.StoredPreset = storedPreset(b.preset)
	st.Preset, st.PresetProblem = capability.PresetInForce(in.Workspace, st.StoredPreset)
	st.Model = modelAt(s, index, in.Catalog)
	st.Presentation = capability.PresentationFallback
	if st.Model.Native {
		st.Presentation = capability.PresentationNative
	}
	h, herr := capability.ReadHistory(b.records)
	if herr != nil {
		st.Err = herr
		if herr.Record >= 0 && herr.Record < len(b.records) {
			st.ErrEntryID = b.records[herr.Record].EntryID
		}
		return st, nil
	}
	decl := replay.ToolsAt(s, index)
	st.Tools = toolHost(decl, h, b.records)
	rt, herr := capability.NewRuntime(in.Workspace, capability.SessionInput{Records: b.records, PresetState: st.StoredPreset, Tools: st.Tools, History: h}, opts)
	if herr != nil { // ReadHistory already succeeded on the same records
		st.Err = herr
		return st, nil
	}
	st.Runtime, st.History = rt, rt.History()
	st.Pending = h.PendingEvents()
	st.EffectiveTools = rt.EffectiveTools()
	st.Problem = rt.Problem()
	st.Delivery = delivery(s, h, b, st.Model, in.Workspace.Trusted)
	return st, nil
}

// storedPreset turns the branch's recorded selection into the runtime's
// input: nil when nothing is recorded, "none" when disabled.
func storedPreset(a replay.ActivePreset) *string {
	if a.Choice == replay.PresetUnrecorded {
		return nil
	}
	v := a.String()
	return &v
}

func emptyState(in Inputs) *State {
	st := &State{Index: -1, Presentation: capability.PresentationFallback, Delivery: capability.DeliveryNone}
	st.Preset, st.PresetProblem = capability.PresetInForce(in.Workspace, nil)
	st.History, _ = capability.ReadHistory(nil)
	return st
}

// modelAt looks the model in force up in the catalog.
func modelAt(s *session.Session, index int, cat *catalog.Catalog) Model {
	provider, id, ok := s.ModelAt(index)
	m := Model{Provider: provider, ID: id, Known: ok}
	if ok && cat != nil {
		if known, found := cat.Lookup(provider, id); found {
			m.Native = known.SupportsMidConvoSystemMessages()
		}
	}
	return m
}

// delivery derives the delivery state offline. pi-forge keeps "prepared"
// in memory: the last projection covered the last event for the model in
// force. A session shows that as an assistant reply after the anchor (or
// compaction) that covers the last event, from the model still in force.
func delivery(s *session.Session, h *capability.History, b branch, m Model, trusted bool) capability.Delivery {
	if h.Reduced.LastEventID == "" {
		return capability.DeliveryNone
	}
	if !trusted || len(h.PendingEvents()) > 0 || b.lastAssistant < 0 {
		return capability.DeliveryPending
	}
	last, _ := h.FirstIndex(h.Reduced.LastEventID)
	eventRecord := h.EventRecords[last]
	covered := -1
	for _, r := range b.records[eventRecord+1:] {
		if r.Kind == capability.RecordCompaction ||
			(r.CustomType == capability.DeliveryEntryType && (r.Kind == capability.RecordCustom || r.Kind == capability.RecordCustomMessage)) {
			covered = r.EntryIndex
			break
		}
	}
	if covered < 0 || b.lastAssistant < covered {
		return capability.DeliveryPending
	}
	provider, id, ok := s.Entries[b.lastAssistant].AssistantModel()
	if !ok || !m.Known || provider != m.Provider || id != m.ID {
		return capability.DeliveryPending
	}
	return capability.DeliveryPrepared
}

// Declared lists the tools the session declares (for pickers): the tool
// names ever declared on the branch ending at index, in first-seen order.
func Declared(s *session.Session, index int) []string {
	return slices.Clone(replay.ToolsAt(s, index).Ever)
}
