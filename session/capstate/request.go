package capstate

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// Forge is pi-forge's rewrite of a request (replay.Forge), rebuilt from
// what the session records (spec §4.5): capability anchors materialized,
// the Preset in force compiled (its system prompt always, its messages on
// the first request of a user turn) and projected into the leading System
// message, then the capability updates projected (native System sections
// or fallback user updates, as the model's catalog entry says).
//
// What the session does not record is inferred and said so in the
// output's Inferred: the Preset's text (the session names the Preset, the
// library holds its current version), trust (the workspace's today) and
// the model's presentation (today's catalog).
type Forge struct {
	// Inputs are the library (trust, Presets, capabilities) and catalog.
	Inputs Inputs
	// Macros are custom macro values for the Preset; nil = none.
	Macros map[string]string
	// Location is the local time zone of date slots (nil: Local).
	Location *time.Location
	// Fallback gives Pi's defaults where the session records no system
	// prompt (nil: such a Preset compile fails).
	Fallback replay.Defaults

	// touch memoizes touchedByForge per session read: predicting a
	// file's cache drops rewrites up to ten requests of one session, and
	// each would otherwise scan every entry again.
	touch touchMemo
}

// touchedMemo is touchedByForge's answer for a session of a given length.
type touchedMemo struct {
	entries int
	touched bool
}

// touchMemo remembers touchedByForge per session read (and its entry
// count, should the session grow); safe for concurrent use.
type touchMemo struct {
	mu sync.Mutex
	m  map[*session.Session]touchedMemo
}

// touchedByForge is the package's touchedByForge, remembered.
func (t *touchMemo) touchedByForge(s *session.Session) bool {
	t.mu.Lock()
	m, ok := t.m[s]
	t.mu.Unlock()
	if ok && m.entries == len(s.Entries) {
		return m.touched
	}
	touched := touchedByForge(s)
	t.mu.Lock()
	if t.m == nil {
		t.m = map[*session.Session]touchedMemo{}
	}
	t.m[s] = touchedMemo{entries: len(s.Entries), touched: touched}
	t.mu.Unlock()
	return touched
}

// Rewrite implements replay.Forge.
func (f *Forge) Rewrite(s *session.Session, in replay.ForgeInput) (*replay.ForgeOutput, error) {
	index := -1
	if in.Context != nil {
		index = in.Context.LeafIndex
	}
	if index < 0 {
		if in.Preset == nil {
			return nil, nil
		}
		return replay.CompilePreset(s, in)
	}
	ws := f.Inputs.Workspace
	if ws == nil {
		ws = &capability.Workspace{}
	}
	if in.Preset == nil && !f.touch.touchedByForge(s) {
		return nil, nil // pi-forge never wrote to this file: it was not running
	}
	st, err := At(s, index, Inputs{Workspace: ws, Catalog: f.Inputs.Catalog}, DefaultOptions(nil))
	if err != nil {
		return nil, fmt.Errorf("pi-forge state: %w", err)
	}
	var notes []string
	if in.Preset == nil {
		in.Preset, notes = f.presetInForce(st)
	}
	caps := len(st.Records) > 0 && st.Err == nil && ws.Trusted
	switch {
	case st.Err != nil:
		notes = append(notes, "capability history unreadable at entry "+sanitize.Clip(st.ErrEntryID, 20)+" ("+sanitize.Clip(st.Err.Message, 200)+"): no capability updates projected")
	case len(st.Records) > 0 && !ws.Trusted:
		notes = append(notes, "the project is not trusted now: pi-forge projects no capability updates then")
	}
	if in.Preset == nil && !caps {
		if len(notes) == 0 {
			return nil, nil
		}
		return &replay.ForgeOutput{Messages: in.Messages, Inferred: notes}, nil
	}
	if caps {
		if in.Messages, err = MaterializeContext(s, in.Context, true); err != nil {
			return nil, err
		}
	}
	var out *replay.ForgeOutput
	if in.Preset != nil {
		if out, err = replay.CompilePreset(s, in); err != nil {
			return nil, fmt.Errorf("compile preset %s: %w", in.Preset.PresetID, err)
		}
	} else {
		out = &replay.ForgeOutput{Messages: in.Messages, Origins: map[any]turndiff.Origin{}}
	}
	out.Inferred = append(notes, out.Inferred...)
	if !caps {
		return out, nil
	}
	native := st.Presentation == capability.PresentationNative
	projected, updates, msg := capability.ProjectMessages(out.Messages, st.History, native)
	if msg != "" {
		return nil, fmt.Errorf("project capabilities: %s", msg)
	}
	out.Messages = projected
	keys := capabilityKeys(st.History)
	for _, u := range updates {
		out.Origins[u.Message] = updateOrigin(u, keys, native)
	}
	if len(updates) > 0 && st.Model.Known && !native {
		out.Inferred = append(out.Inferred, "capability updates as fallback user messages: today's catalog says "+st.Model.Provider+"/"+st.Model.ID+" takes no mid-conversation system messages")
	}
	return out, nil
}

// touchedByForge reports whether any entry of the file is one pi-forge
// writes (a Preset selection, capability events, anchors, tool baselines):
// one pass over the entry types, reading only custom entries' type.
func touchedByForge(s *session.Session) bool {
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type != session.TypeCustom && e.Type != session.TypeCustomMessage {
			continue
		}
		if ct, _, _ := e.CustomPayload(); strings.HasPrefix(ct, "pi-forge-") {
			return true
		}
	}
	return false
}

// presetInForce is the Preset that compiled the request: the selection
// the branch recorded before it (pi-forge persists the active selection
// at every turn start), compiled as the library holds it now. Without a
// recorded selection pi-forge was not running then; today's
// auto-activation says nothing about that past request.
func (f *Forge) presetInForce(st *State) (*replay.PresetInput, []string) {
	if st.StoredPreset == nil || capability.IsDisabledPresetID(*st.StoredPreset) {
		return nil, nil
	}
	if st.Preset == nil || st.PresetProblem != "" {
		problem := st.PresetProblem
		if problem == "" {
			problem = "not in the library"
		}
		return nil, []string{"Preset " + sanitize.Clip(*st.StoredPreset, 80) + " was in force but does not resolve now (" + sanitize.Clip(problem, 200) + "): rebuilt without it"}
	}
	key := st.Preset.Key.String()
	if st.Preset.Error != "" {
		return nil, []string{"Preset " + key + " was in force but is invalid in the library now (" + sanitize.Clip(st.Preset.Error, 200) + "): rebuilt without it"}
	}
	p := &replay.PresetInput{Stack: st.Preset.Stack, PresetID: key, Macros: f.Macros, Catalog: f.Inputs.Catalog, Location: f.Location, Fallback: f.Fallback}
	return p, []string{"Preset " + key + " compiled as the library holds it now: the session records only which Preset was in force"}
}

// capabilityKeys maps activation ids to their capability ("scope:id") and
// display name.
func capabilityKeys(h *capability.History) map[string][2]string {
	out := map[string][2]string{}
	for _, ev := range h.Events {
		if ev.Snapshot == nil {
			continue
		}
		key, name := "", ""
		if ev.Snapshot.Source.Kind == capability.SourceCapability {
			key = ev.Snapshot.Source.Key.String()
		}
		if ev.Snapshot.Name != nil {
			name = *ev.Snapshot.Name
		}
		out[ev.Snapshot.ActivationID] = [2]string{key, name}
	}
	return out
}

// updateOrigin names a projected capability update: its capability (the
// first one it carries), the activations by name, how it was delivered.
func updateOrigin(u capability.Update, keys map[string][2]string, native bool) turndiff.Origin {
	o := turndiff.Origin{Kind: turndiff.CauseCapability}
	var names []string
	for _, id := range u.ActivationIDs() {
		k := keys[id]
		if o.CapabilityID == "" {
			o.CapabilityID = k[0]
		}
		switch {
		case k[1] != "":
			names = append(names, fmt.Sprintf("%q", sanitize.Clip(k[1], 60)))
		case k[0] != "":
			names = append(names, k[0])
		default:
			names = append(names, sanitize.Clip(id, 20))
		}
	}
	what := "capability update"
	switch u.Kind {
	case capability.UpdateCheckpoint:
		what = "capability state re-sent after the compaction"
	case capability.UpdatePending:
		what = "pending capability update"
	}
	if len(names) > 0 {
		what += " " + strings.Join(names, ", ")
	}
	o.Label = what + " (user message)"
	if native {
		o.Label = what + " (system section)"
	}
	return o
}

// LazyForge is a replay.Forge that calls load (once) the first time a
// request needs it, so references that never need the library (saved
// payload files, sessions pi-forge never wrote to) do not read it. A load
// error fails every rewrite that needs it.
func LazyForge(load func() (*Forge, error)) replay.Forge {
	return &lazyForge{load: load}
}

type lazyForge struct {
	once  sync.Once
	load  func() (*Forge, error)
	f     *Forge
	err   error
	touch touchMemo
}

func (l *lazyForge) Rewrite(s *session.Session, in replay.ForgeInput) (*replay.ForgeOutput, error) {
	if in.Preset == nil && !l.touch.touchedByForge(s) {
		return nil, nil // as Forge.Rewrite answers: pi-forge was not running
	}
	l.once.Do(func() { l.f, l.err = l.load() })
	if l.err != nil {
		return nil, l.err
	}
	return l.f.Rewrite(s, in)
}
