package replay

import (
	"errors"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
)

// Forge reproduces what an extension did to a request's context between
// Pi building it and the provider receiving it. capstate.Forge is
// pi-forge's: the Preset in force compiled (spec §4.5) and the capability
// updates projected (§9.9). A nil Forge means Pi's own request.
//
// Rewrite must be safe to call from several goroutines at once: cache-drop
// predictions (Predict) rebuild their requests in parallel.
type Forge interface {
	// Rewrite returns the context the provider received, or nil when the
	// extension left it as Pi built it.
	Rewrite(s *session.Session, in ForgeInput) (*ForgeOutput, error)
}

// ForgeInput is one request's context as Pi built it.
type ForgeInput struct {
	// Context is the context the request was built from (LeafIndex -1 for
	// an empty one).
	Context *session.Context
	// Messages are the agent messages to rewrite: Context's, Pi's System
	// messages included (a Forge may hand CompilePreset a materialized
	// copy with its own markers).
	Messages []any
	// FirstOfTurn is true when the request opens a user turn (see
	// FirstOfTurn); pi-forge compiles the messages only then.
	FirstOfTurn bool
	// Preset, when set, is compiled instead of the Preset in force (a
	// preset reference).
	Preset *PresetInput
}

// ForgeOutput is the context as the provider received it.
type ForgeOutput struct {
	// Messages replace ForgeInput.Messages (agent messages).
	Messages []any
	// Origins name what produced the messages the session does not hold
	// (a Preset item's message, a capability update), by message identity.
	Origins map[any]turndiff.Origin
	// SystemSpans attribute the compiled prompt, which opens the leading
	// System message, to the Preset's items.
	SystemSpans []turndiff.Span
	// PresetID names the Preset compiled ("" when none was); StackID is its
	// id field. MessagesCompiled is true when it compiled the messages too
	// (the first request of a turn), not only the system prompt.
	PresetID, StackID string
	MessagesCompiled  bool
	// RuntimeSource says, for humans, where the compile runtime came from.
	RuntimeSource string
	// Inferred says, for humans, what the rewrite assumed rather than read
	// from the session.
	Inferred []string
}

// errNoRuntime is returned when a Preset must compile at a point with no
// recorded system prompt and the caller gave no defaults.
var errNoRuntime = errors.New("the session records no system prompt there and no default runtime was given")

// CompilePreset compiles in.Preset for one request the way pi-forge does
// (compile.PrepareRequest): the system prompt always, the messages only on
// the first request of a user turn (follow-ups get the request-frequency
// regex rules over the natural context), the compiled prompt projected
// into the leading System message. The runtime is the one Pi recorded at
// the context's entry, else in.Preset.Fallback's defaults.
func CompilePreset(s *session.Session, in ForgeInput) (*ForgeOutput, error) {
	p := in.Preset
	loc := p.Location
	if loc == nil {
		loc = time.Local
	}
	out := &ForgeOutput{Origins: map[any]turndiff.Origin{}, PresetID: p.PresetID, StackID: p.Stack.ID, MessagesCompiled: in.FirstOfTurn}
	var runtime compile.Runtime
	base := ""
	fromSession := false
	if ctx := in.Context; ctx != nil && ctx.LeafIndex >= 0 {
		fr := forgeRuntimeOf(s, ctx, ctx.LeafIndex, p.Catalog, loc)
		runtime, base, fromSession, out.RuntimeSource = fr.Runtime, fr.Base, fr.FromSession, fr.Source
	}
	if !fromSession {
		if p.Fallback == nil {
			return nil, errNoRuntime
		}
		var err error
		if runtime, base, err = p.Fallback(); err != nil {
			return nil, err
		}
		out.RuntimeSource = "Pi defaults (the session records no system prompt there)"
	}
	res := compile.PrepareRequest(compile.RequestInput{
		Stack: p.Stack, Runtime: runtime, Messages: in.Messages, FallbackBase: base,
		FirstOfTurn: in.FirstOfTurn, Macros: p.Macros,
	})
	out.Messages = res.Projected
	for k, m := range res.Messages.Messages {
		if k >= len(res.Messages.MessageSources) {
			break
		}
		if src := res.Messages.MessageSources[k]; src.Kind == compile.SourceStackItem && src.ItemID != "" {
			out.Origins[m] = turndiff.Origin{Kind: turndiff.CausePresetItem, ItemID: src.ItemID, Label: labelOf(src.ItemID, src.ItemName), PresetID: p.PresetID}
		}
	}
	out.SystemSpans = presetSystemSpans(res.SystemParts, p.PresetID)
	if !in.FirstOfTurn {
		out.Inferred = append(out.Inferred, "a follow-up request of its turn: Preset "+p.PresetID+" compiled the system prompt only, the messages are the natural context")
	}
	return out, nil
}

// FirstOfTurn reports whether a request built from ctx opens a user turn
// (pi-forge's contextRewritePending): its last message, System messages
// and extension (custom) messages aside, is not a tool result. A custom
// message that itself started a turn, or a user message steered in
// during a run, is read the other way round from what pi-forge did.
func FirstOfTurn(ctx *session.Context) bool {
	for k := len(ctx.Entries) - 1; k >= 0; k-- {
		msgs := ctx.Entries[k].Messages
		for j := len(msgs) - 1; j >= 0; j-- {
			o, _ := msgs[j].(*jsonv.Object)
			switch o.GetString("role") {
			case session.RoleSystem, session.RoleCustom:
				continue
			case session.RoleToolResult:
				return false
			}
			return true
		}
	}
	return true
}
