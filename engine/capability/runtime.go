package capability

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Messages of pi-forge's capability runtime (§9.12) used in more than one
// place.
const (
	MsgUntrustedActivate  = "Project is not trusted; refusing to activate an capability."
	MsgUntrustedActive    = "Active capabilities require a trusted project. Use /capability reset to clear them, or trust the project."
	MsgNoMatch            = "No matching active capability (already disabled or unknown ID)."
	MsgAmbiguousDisable   = "Ambiguous capability name; use the activation ID from /capability status."
	MsgNothingToReset     = "No active capabilities to reset."
	MsgResetDone          = "Capabilities stopped; tools recomputed. Historical messages and completed work are not undone."
	MsgNoActivePreset     = "No active preset; cannot activate a bound capability."
	MsgPresetUntrusted    = "pi-forge: project is not trusted; refusing to activate a prompt stack."
	MsgPresetDisabled     = "pi-forge: prompt stack disabled"
	MsgControlUnavailable = `Control tool "forge_capability" is not available or blocked by policy.`
	// MsgWorkbenchUntrusted is forgebench's own refusal of the changes
	// pi-forge would still allow in an untrusted project (disable; reset is
	// allowed, pi-forge's way out):
	// the workbench changes no other capability state of an untrusted project.
	MsgWorkbenchUntrusted = "Project is not trusted; forgebench changes no capability state in an untrusted project except capability reset, pi-forge's way out."
)

// PlannedEntry is one custom entry the runtime appends, in order.
type PlannedEntry struct {
	CustomType string
	Data       *jsonv.Object
}

// RefusalKind classifies why an operation wrote nothing.
type RefusalKind string

// Refusal kinds: an untrusted project, a usage error, or one of pi-forge's
// rules (unknown capability, not bound, policy conflict …).
const (
	RefusedUntrusted RefusalKind = "untrusted"
	RefusedUsage     RefusalKind = "usage"
	RefusedRule      RefusalKind = "rule"
	// RefusedUnknown: the named capability, Preset or binding does not
	// exist (Subject says which kind of thing).
	RefusedUnknown RefusalKind = "unknown"
	// RefusedInvalid: the named Preset exists but has errors, and an
	// invalid Preset is never activated.
	RefusedInvalid RefusalKind = "invalid"
)

// Refusal is an operation pi-forge refuses; Message is its wording.
type Refusal struct {
	Kind    RefusalKind
	Message string
	// Subject names what an unknown or invalid refusal is about, in the
	// product's words ("capability \"x\"", "Preset \"x\"", "binding
	// \"x\" of the active Preset \"project:y\""); "" for other kinds.
	Subject string
}

// Error implements error with pi-forge's refusal message.
func (r *Refusal) Error() string { return r.Message }

// NoticePrefix is how pi-forge shows its errors to a human (§15.4).
const NoticePrefix = "pi-forge: "

// Notice is the refusal as pi-forge shows it: "pi-forge: <message>". The
// /preset messages already carry the prefix; it is never doubled.
func (r *Refusal) Notice() string {
	if strings.HasPrefix(r.Message, NoticePrefix) {
		return r.Message
	}
	return NoticePrefix + r.Message
}

func refuse(msg string) *Refusal { return &Refusal{Kind: RefusedRule, Message: msg} }

// Result is the outcome of an accepted operation.
type Result struct {
	// Message is pi-forge's notification text.
	Message string
	// ActivationID names the activation the operation started, stopped or
	// found already active ("" for reset and preset switches).
	ActivationID string
	// Idempotent is true when nothing had to change.
	Idempotent bool
	// Warning is set when entries were written but pi-forge would report
	// that applying them is pending ("Capability event saved but …").
	Warning string
}

// SessionInput is what the runtime reads from the session branch.
type SessionInput struct {
	// Records are the branch's history records up to the leaf.
	Records []Record
	// PresetState is the activeStackId of the latest
	// pi-forge-prompt-stack-state entry on the branch; nil when there is
	// none (or its value is not a string).
	PresetState *string
	// Tools is what Pi knows about tools at the leaf.
	Tools ToolHost
	// History, when set, is ReadHistory(Records) already done by the
	// caller; it saves reading a long history twice.
	History *History
}

// Options supply the clock and the id generator (randomUUID upstream).
type Options struct {
	// Now returns Date.now() in milliseconds.
	Now func() float64
	// NewID returns a fresh UUID.
	NewID func() string
}

// Runtime emulates pi-forge's capability runtime for one branch while the
// agent is idle: restored from the branch's entries, it plans exactly the
// entries pi-forge would append for a command, without writing anything.
// Each accepted operation extends the branch in memory, so several can be
// chained. A Runtime is not safe for concurrent use.
type Runtime struct {
	ws      *Workspace
	opts    Options
	records []Record
	history *History
	// preset is the active Preset in force (nil = none).
	preset        *PresetRef
	presetProblem string
	lastPersisted string
	tools         *ToolRuntime
	restoredTools *ToolsSnapshot
	lastToolRec   *ToolsSnapshot
	planned       []PlannedEntry
}

// NewRuntime restores the runtime from a branch (prepareRestore + restore):
// it reads the history, selects the Preset in force (the branch's state
// entry, else auto-activation) and syncs the tools without writing.
func NewRuntime(ws *Workspace, in SessionInput, opts Options) (*Runtime, *HistoryError) {
	h := in.History
	if h == nil {
		var herr *HistoryError
		if h, herr = ReadHistory(in.Records); herr != nil {
			return nil, herr
		}
	}
	// Share the caller's records; the full slice expression makes the
	// first planned append copy instead of writing into them.
	r := &Runtime{ws: ws, opts: opts, records: in.Records[:len(in.Records):len(in.Records)], history: h}
	r.preset, r.presetProblem = PresetInForce(ws, in.PresetState)
	if in.PresetState != nil {
		r.lastPersisted = *in.PresetState
	}
	r.tools = NewToolRuntime(in.Tools, r.preset)
	r.restoredTools = h.Tools
	r.lastToolRec = h.Tools
	patches := h.Reduced.Patches()
	r.tools.SetCapabilities(patches, r.restoredTools)
	r.restoredTools = nil
	r.tools.Sync()
	return r, nil
}

// PresetInForce is the Preset pi-forge has active for a branch: the stored
// selection when there is one ("none"/"off" = none), else — also when the
// stored selection no longer resolves — the Preset auto-activation picks.
// An untrusted workspace auto-activates nothing. problem explains a stored
// selection that does not resolve.
func PresetInForce(ws *Workspace, stored *string) (*PresetRef, string) {
	auto := ws.AutoActivate
	if !ws.Trusted {
		auto = nil
	}
	if stored == nil {
		return auto, ""
	}
	if IsDisabledPresetID(*stored) {
		return nil, ""
	}
	p, msg := ws.ResolvePreset(*stored)
	if msg != "" {
		return auto, msg
	}
	return p, ""
}

// History is the branch history including planned entries.
func (r *Runtime) History() *History { return r.history }

// Preset is the active Preset in force (nil = none).
func (r *Runtime) Preset() *PresetRef { return r.preset }

// PresetProblem explains why the stored Preset selection does not resolve.
func (r *Runtime) PresetProblem() string { return r.presetProblem }

// Tools is the tool runtime (effective tools, block reasons).
func (r *Runtime) Tools() *ToolRuntime { return r.tools }

// Planned returns the entries planned so far, in order.
func (r *Runtime) Planned() []PlannedEntry { return append([]PlannedEntry(nil), r.planned...) }

// Records returns the branch records including planned entries.
func (r *Runtime) Records() []Record { return append([]Record(nil), r.records...) }

// EffectiveTools is the tool selection pi-forge applies now; nil when the
// session does not tell which tools are selected.
func (r *Runtime) EffectiveTools() []string { return r.tools.Active() }

// Problem is the runtime's current validation problem for the active
// patches under the active Preset ("" = none).
func (r *Runtime) Problem() string {
	if !r.ws.Trusted && len(r.history.Reduced.Active) > 0 {
		return MsgUntrustedActive
	}
	return r.tools.ValidatePatches(r.history.Reduced.Patches(), nil, false)
}

func (r *Runtime) persist(customType string, data *jsonv.Object) {
	r.planned = append(r.planned, PlannedEntry{CustomType: customType, Data: data})
	r.records = append(r.records, Record{Kind: RecordCustom, CustomType: customType, Payload: data, Present: true,
		EntryIndex: -1 - len(r.planned)})
	if customType == EventEntryType || customType == ToolsEntryType || customType == DeliveryEntryType {
		h, herr := ReadHistory(r.records)
		if herr == nil {
			r.history = h
		}
	}
}

func (r *Runtime) now() float64 {
	if r.opts.Now == nil {
		return 0
	}
	return r.opts.Now()
}

func (r *Runtime) newID() string { return r.opts.NewID() }

// persistPendingAnchors appends one delivery anchor per pending event.
func (r *Runtime) persistPendingAnchors() {
	for _, ev := range r.history.PendingEvents() {
		r.persist(DeliveryEntryType, AnchorData(ev.EventID))
	}
}

// commit is pi-forge's commit while idle: validate the next state, store
// the tools baseline if it changed, the event, one anchor per pending
// event, then sync. A sync failure after the event is a warning.
func (r *Runtime) commit(ev Event) (warning string, refusal *Refusal) {
	var red Reducer
	for i := range r.history.Events {
		red.Apply(&r.history.Events[i])
	}
	if _, msg := red.Apply(&ev); msg != "" {
		return "", refuse(msg)
	}
	if problem := r.tools.ValidatePatches(red.State().Patches(), nil, false); problem != "" {
		return "", refuse(problem)
	}
	r.tools.Sync()
	if before := r.tools.Snapshot(); before != nil && !r.history.Tools.Same(before) {
		r.persist(ToolsEntryType, before.Data())
		r.lastToolRec = before
	}
	r.persist(EventEntryType, ev.JSON())
	r.persistPendingAnchors()
	if msg := r.sync(); msg != "" {
		return "Capability event saved but application is pending: " + msg, nil
	}
	return "", nil
}

// sync retires bound activations of other Presets (lifecycle), checks
// trust and the tool patches, applies the tools and remembers the baseline.
func (r *Runtime) sync() string {
	presetKey := ""
	if r.preset != nil {
		presetKey = r.preset.Key.String()
	}
	retired := false
	for _, a := range r.history.Reduced.Active {
		b := a.Snapshot.Source.Binding
		if a.Snapshot.Source.Kind != SourceCapability || b == nil || b.Preset.String() == presetKey {
			continue
		}
		r.persist(EventEntryType, NewDeactivateEvent(r.newID(), ActorLifecycle, r.now(), a.Snapshot.ActivationID).JSON())
		retired = true
	}
	if retired {
		r.persistPendingAnchors()
	}
	if !r.ws.Trusted && len(r.history.Reduced.Active) > 0 {
		return MsgUntrustedActive
	}
	patches := r.history.Reduced.Patches()
	if msg := r.tools.ValidatePatches(patches, nil, false); msg != "" {
		return msg
	}
	r.tools.SetCapabilities(patches, r.restoredTools)
	r.restoredTools = nil
	r.tools.Sync()
	r.rememberTools()
	return ""
}

// rememberTools stores the baseline snapshot when capabilities or a tool
// selection policy are in play and it differs from the last one stored.
func (r *Runtime) rememberTools() {
	var policy *preset.ResourcePolicy
	if r.preset != nil && r.preset.Stack != nil {
		policy = r.preset.Stack.Tools
	}
	if len(r.history.Events) == 0 && r.history.Tools == nil && !preset.HasToolSelectionPolicy(policy) {
		return
	}
	snap := r.tools.Snapshot()
	if snap == nil || snap.Same(r.lastToolRec) {
		return
	}
	r.persist(ToolsEntryType, snap.Data())
	r.lastToolRec = snap
}

// gate refuses every mutation of an untrusted project: pi-forge's message
// for activations, the workbench's for the rest.
func (r *Runtime) gate(activation bool) *Refusal {
	if r.ws.Trusted {
		return nil
	}
	if activation {
		return &Refusal{Kind: RefusedUntrusted, Message: MsgUntrustedActivate}
	}
	return &Refusal{Kind: RefusedUntrusted, Message: MsgWorkbenchUntrusted}
}

// selectedMessage is the success text of an activation.
func selectedMessage(s Snapshot) string {
	delivery := "tools prepared, instruction pending next model request."
	if jsonv.TrimJS(s.Content) == "" {
		delivery = "tools prepared; tool-only capability, no instruction text is sent."
	}
	return "Selected " + s.ActivationID + "; " + delivery + " Use /capability disable " + s.ActivationID + " to stop."
}

func usage(command, arg string) *Refusal {
	return &Refusal{Kind: RefusedUsage, Message: "Usage: /capability " + command + " <" + arg + ">"}
}

// Enable activates an unbound library capability (/capability enable).
func (r *Runtime) Enable(selector string) (Result, *Refusal) {
	if ref := r.gate(true); ref != nil {
		return Result{}, ref
	}
	value := jsonv.TrimJS(selector)
	if value == "" {
		return Result{}, usage("enable", "id")
	}
	eventID, createdAt := r.newID(), r.now()
	entry, msg, kind := r.ws.resolveCapability(value)
	if msg != "" {
		ref := &Refusal{Kind: kind, Message: msg}
		if kind == RefusedUnknown {
			ref.Subject = `capability "` + value + `"`
		}
		return Result{}, ref
	}
	for _, a := range r.history.Reduced.Active {
		src := a.Snapshot.Source
		if src.Kind == SourceCapability && src.Binding == nil && src.Key == entry.Key() {
			return Result{Message: "Already selected as " + a.Snapshot.ActivationID + "; source edits do not change this snapshot. Disable/enable to reapply.",
				ActivationID: a.Snapshot.ActivationID, Idempotent: true}, nil
		}
	}
	c := entry.Capability
	activationID := r.newID()
	if msg := CheckSnapshotInput(activationID, c.Name, c.Content, c.Tools); msg != "" {
		return Result{}, refuse(msg)
	}
	snap := NewSnapshot(activationID, SnapshotSource{Kind: SourceCapability, Key: entry.Key()}, c.Name, c.Content, c.Tools)
	return r.activate(NewActivateEvent(eventID, ActorUser, createdAt, snap))
}

func (r *Runtime) activate(ev Event) (Result, *Refusal) {
	warning, ref := r.commit(ev)
	if ref != nil {
		return Result{}, ref
	}
	return Result{Message: selectedMessage(*ev.Snapshot), ActivationID: ev.Snapshot.ActivationID, Warning: warning}, nil
}

// Add appends a manual literal directive (/capability add); text is kept
// as given (the command keeps everything after the first separator).
func (r *Runtime) Add(text string) (Result, *Refusal) {
	if ref := r.gate(true); ref != nil {
		return Result{}, ref
	}
	if jsonv.TrimJS(text) == "" {
		return Result{}, &Refusal{Kind: RefusedUsage, Message: "Usage: /capability add <text>"}
	}
	eventID, createdAt := r.newID(), r.now()
	activationID := r.newID()
	empty := ToolPatch{Add: []string{}, Remove: []string{}}
	if msg := CheckSnapshotInput(activationID, nil, text, empty); msg != "" {
		return Result{}, refuse(msg)
	}
	snap := NewSnapshot(activationID, SnapshotSource{Kind: SourceManual}, nil, text, empty)
	return r.activate(NewActivateEvent(eventID, ActorUser, createdAt, snap))
}

// Disable stops one activation named by its activation id, source label,
// capability id or binding id (/capability disable).
func (r *Runtime) Disable(target string) (Result, *Refusal) {
	if ref := r.gate(false); ref != nil {
		return Result{}, ref
	}
	value := jsonv.TrimJS(target)
	if value == "" {
		return Result{}, usage("disable", "id")
	}
	eventID, createdAt := r.newID(), r.now()
	matches := r.matchActive(value)
	switch {
	case len(matches) == 0:
		return Result{Message: MsgNoMatch, Idempotent: true}, nil
	case len(matches) > 1:
		return Result{}, refuse(MsgAmbiguousDisable)
	}
	id := matches[0].Snapshot.ActivationID
	warning, ref := r.commit(NewDeactivateEvent(eventID, ActorUser, createdAt, id))
	if ref != nil {
		return Result{}, ref
	}
	return Result{Message: "Stopped " + id + "; tools recomputed, stop notice pending next request.", ActivationID: id, Warning: warning}, nil
}

// matchActive lists the active capabilities a disable argument names.
func (r *Runtime) matchActive(value string) []Active {
	var out []Active
	for _, a := range r.history.Reduced.Active {
		s := a.Snapshot
		if s.ActivationID == value || s.SourceLabel() == value ||
			(s.Source.Kind == SourceCapability && s.Source.Key.ID == value) ||
			(s.Source.Kind == SourceCapability && s.Source.Binding != nil && s.Source.Binding.ID == value) {
			out = append(out, a)
		}
	}
	return out
}

// Reset stops every active capability (/capability reset).
//
// Reset is not gated on trust: it is the way out pi-forge names for
// active capabilities in an untrusted project (MsgUntrustedActive).
func (r *Runtime) Reset() (Result, *Refusal) {
	eventID, createdAt := r.newID(), r.now()
	if len(r.history.Reduced.Active) == 0 {
		return Result{Message: MsgNothingToReset, Idempotent: true}, nil
	}
	warning, ref := r.commit(NewResetEvent(eventID, createdAt))
	if ref != nil {
		return Result{}, ref
	}
	return Result{Message: MsgResetDone, Warning: warning}, nil
}
