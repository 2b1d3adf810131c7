package capstate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// Projection is the model context at an entry with pi-forge's capability
// updates in place: what the next request would carry (§9.9).
type Projection struct {
	// Messages are the agent messages with delivery markers replaced by
	// native system sections or fallback user updates.
	Messages []any
	// Updates are the capability updates, checkpoint first when present.
	Updates []capability.Update
	// Native tells which presentation the model in force gets.
	Native bool
}

// Materialize builds the model context at the state's entry with a
// delivery marker where each stored anchor sits among the projected
// entries (materializeCapabilityAnchors; a leading system message stays
// first). An untrusted project gets no markers: pi-forge strips them and
// projects nothing.
func Materialize(s *session.Session, st *State, trusted bool) ([]any, error) {
	if st.Err != nil {
		return nil, fmt.Errorf("materialize capability anchors: %w", st.Err)
	}
	if st.Index < 0 {
		return nil, nil
	}
	ctx, err := s.Context(st.Index)
	if err != nil {
		return nil, fmt.Errorf("materialize capability anchors: %w", err)
	}
	return MaterializeContext(s, ctx, trusted)
}

// MaterializeContext is Materialize on a context already built (at the
// state's entry): its message objects are kept, markers added.
func MaterializeContext(s *session.Session, ctx *session.Context, trusted bool) ([]any, error) {
	var incoming, materialized []any
	for _, pe := range ctx.Entries {
		e := &s.Entries[pe.Index]
		if trusted && e.Type == session.TypeCustom {
			if ct, raw, _ := e.CustomPayload(); ct == capability.DeliveryEntryType {
				v, err := jsonv.Parse(raw)
				if err != nil {
					return nil, fmt.Errorf("materialize capability anchors: entry %s: %w", e.ID, err)
				}
				through, msg := capability.ValidateAnchorData(v)
				if msg != "" {
					return nil, fmt.Errorf("materialize capability anchors: entry %s: %s", e.ID, msg)
				}
				ts := e.TimestampMs()
				if ts != ts { // NaN: Date.parse failed
					ts = 0
				}
				materialized = append(materialized, capability.MarkerMessage(through, ts))
			}
		}
		incoming = append(incoming, pe.Messages...)
		materialized = append(materialized, pe.Messages...)
	}
	if !trusted {
		return incoming, nil
	}
	if len(incoming) > 0 && isSystem(incoming[0]) && len(materialized) > 0 && materialized[0] != incoming[0] {
		for i, m := range materialized {
			if m == incoming[0] {
				materialized = append(append([]any{m}, materialized[:i]...), materialized[i+1:]...)
				break
			}
		}
	}
	return materialized, nil
}

// Project builds the context at the state's entry with pi-forge's
// capability updates in place of its anchors, and pending updates at the
// end: what the next request would carry without a Preset compiling it.
func Project(s *session.Session, st *State, trusted bool) (*Projection, error) {
	messages, err := Materialize(s, st, trusted)
	if err != nil {
		return nil, err
	}
	p := &Projection{Native: st.Presentation == capability.PresentationNative, Messages: messages}
	if !trusted || st.Index < 0 {
		return p, nil
	}
	out, updates, msg := capability.ProjectMessages(messages, st.History, p.Native)
	if msg != "" {
		return nil, fmt.Errorf("project capabilities: %s", msg)
	}
	p.Messages, p.Updates = out, updates
	return p, nil
}

// PartCapability is the kind of a preview part that is a capability update.
const PartCapability = "capability"

// ProjectPreview replaces the capability delivery markers among a
// compiled preview's message parts with the updates pi-forge would send
// (§4.5 step 5: after the compile and the system prompt projection): a
// native system section or a fallback user update per part, the
// compaction checkpoint after the first system message, pending updates at
// the end. The preview must have been compiled from Materialize's messages
// (trusted). Untrusted projects only lose their markers.
func ProjectPreview(res compile.PreviewResult, st *State, trusted bool) (compile.PreviewResult, error) {
	kept := make([]compile.Part, 0, len(res.Messages))
	messages := make([]any, 0, len(res.Messages))
	parts := map[any]compile.Part{}
	for _, part := range res.Messages {
		if capability.IsDeliveryMarker(part.Message) && !trusted {
			continue
		}
		messages = append(messages, part.Message)
		parts[part.Message] = part
		kept = append(kept, part)
	}
	if !trusted || st == nil || st.History == nil {
		res.Messages = kept
		return res, nil
	}
	native := st.Presentation == capability.PresentationNative
	out, updates, msg := capability.ProjectMessages(messages, st.History, native)
	if msg != "" {
		return res, fmt.Errorf("project capabilities: %s", msg)
	}
	byMessage := map[any]capability.Update{}
	for _, u := range updates {
		byMessage[u.Message] = u
	}
	compiled := res.Result.Messages
	sources := make(map[any]compile.MessageSource, len(compiled.Messages))
	for i, m := range compiled.Messages {
		if i < len(compiled.MessageSources) {
			sources[m] = compiled.MessageSources[i]
		}
	}
	projected := make([]compile.Part, 0, len(out))
	// The compiled messages follow the projection too, so what reads them
	// (the draft diff's blocks) sees the request, not the markers.
	compiledOut := make([]any, 0, len(out))
	sourcesOut := make([]compile.MessageSource, 0, len(out))
	for _, m := range out {
		compiledOut = append(compiledOut, m)
		src, ok := sources[m]
		if !ok {
			src = compile.MessageSource{Kind: PartCapability, Role: messageRole(m)}
		}
		sourcesOut = append(sourcesOut, src)
		if part, ok := parts[m]; ok {
			projected = append(projected, part)
			continue
		}
		u := byMessage[m]
		text := compile.PreviewText(m)
		tokens := compile.EstimateTokens(text)
		if native {
			text, tokens = nativeCardText(u.Sections)
		}
		where := "fallback user update"
		if native {
			where = "native system section"
		}
		label := "capability " + string(u.Kind) + " · " + where + " · " + strings.Join(u.ActivationIDs(), ", ")
		role, _ := m.(*jsonv.Object).Get("role")
		projected = append(projected, compile.Part{Kind: PartCapability, Label: label, Role: jsonv.ToString(role),
			Text: text, Tokens: tokens, Message: m})
	}
	renumberHistory(projected, sourcesOut)
	res.Messages = projected
	res.Result.Messages.Messages, res.Result.Messages.MessageSources = compiledOut, sourcesOut
	return res, nil
}

// nativeCardText is what pi-forge's preview shows of a native section
// update and counts for it: the section contents, without the inspector
// prose Pi renders around them (`Updated system prompt section "…":`); a
// removal is named, not counted.
func nativeCardText(sections []capability.Section) (string, int) {
	var shown, counted []string
	for _, s := range sections {
		if s.Content == nil {
			shown = append(shown, "[section "+s.Name+" removed]")
			continue
		}
		shown = append(shown, *s.Content)
		counted = append(counted, *s.Content)
	}
	return strings.Join(shown, "\n\n"), compile.EstimateTokens(strings.Join(counted, "\n\n"))
}

// renumberHistory numbers the history parts ("Conversation i/N") over the
// messages the request carries: the compiler counted the delivery markers
// among the history, the projection replaced or dropped them. parts and
// sources are aligned; both are updated.
func renumberHistory(parts []compile.Part, sources []compile.MessageSource) {
	type group struct{ kind, item, slot string }
	count := map[group]int{}
	for i, p := range parts {
		if p.Kind == compile.PartHistory {
			count[group{sources[i].Kind, sources[i].ItemID, sources[i].Slot}]++
		}
	}
	seen := map[group]int{}
	for i := range parts {
		if parts[i].Kind != compile.PartHistory {
			continue
		}
		g := group{sources[i].Kind, sources[i].ItemID, sources[i].Slot}
		seen[g]++
		src := &sources[i]
		if src.HistoryIndex == seen[g] && src.HistoryCount == count[g] {
			continue
		}
		suffix := " " + strconv.Itoa(src.HistoryIndex) + "/" + strconv.Itoa(src.HistoryCount)
		src.HistoryIndex, src.HistoryCount = seen[g], count[g]
		if base, ok := strings.CutSuffix(parts[i].Label, suffix); ok {
			parts[i].Label = base + " " + strconv.Itoa(src.HistoryIndex) + "/" + strconv.Itoa(src.HistoryCount)
		}
	}
}

// messageRole is a message's role ("" when it has none).
func messageRole(m any) string {
	o, ok := m.(*jsonv.Object)
	if !ok {
		return ""
	}
	role, _ := o.Get("role")
	s, _ := role.(string)
	return s
}

func isSystem(m any) bool {
	o, ok := m.(*jsonv.Object)
	if !ok {
		return false
	}
	role, _ := o.Get("role")
	return role == "system"
}

// SavePreflight checks a draft of the active Preset against the frozen
// snapshots of the session's leaf before it is saved (pi-forge 0.5.6): ""
// when the draft is not the Preset in force, the history is unreadable, or
// nothing conflicts; otherwise the conflict.
func SavePreflight(st *State, draft *capability.PresetRef) string {
	if st == nil || st.Runtime == nil {
		return ""
	}
	return st.Runtime.SavePreflight(draft)
}

// PreviewDelivery is pi-forge's capability delivery for a Preset preview
// at a session entry: the context to compile against, with a delivery
// marker where each stored anchor sits, and the state whose updates
// replace them after the compile. The CLI's preset preview and the
// Presets panel both use it, so they show the same parts.
type PreviewDelivery struct {
	// Messages are the context at the entry with the markers in place
	// (none in an untrusted project).
	Messages []any
	// State is the capability state at the entry.
	State *State
	// Trusted is whether updates are projected at all.
	Trusted bool
}

// ForPreview computes the capability delivery at the entry with the
// given index. It fails when the branch's capability history cannot be
// read; the caller then previews the plain context and says why.
func ForPreview(s *session.Session, index int, in Inputs) (*PreviewDelivery, error) {
	st, err := At(s, index, in, DefaultOptions(nil))
	if err != nil {
		return nil, err
	}
	if st.Err != nil {
		where := ""
		if st.ErrEntryID != "" {
			where = " (entry " + st.ErrEntryID + ")"
		}
		return nil, fmt.Errorf("capability history: %s%s", st.Err.Message, where)
	}
	trusted := in.Workspace != nil && in.Workspace.Trusted
	messages, err := Materialize(s, st, trusted)
	if err != nil {
		return nil, err
	}
	return &PreviewDelivery{Messages: messages, State: st, Trusted: trusted}, nil
}

// Project puts the capability updates into a preview compiled from
// d.Messages (ProjectPreview).
func (d *PreviewDelivery) Project(res compile.PreviewResult) (compile.PreviewResult, error) {
	return ProjectPreview(res, d.State, d.Trusted)
}
