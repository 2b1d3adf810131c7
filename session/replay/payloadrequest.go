package replay

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/stats"
)

// Request is a provider request rebuilt from a session: what was sent for
// an assistant message, or what would be sent next from another entry.
//
// The payload is provider-neutral, in cache-prefix order:
//
//	{"model": "<provider>/<id>", "tools": [declarations], "system": "<prompt>", "messages": [{role, content, …}]}
//
// "system" is the replayed system prompt as Pi presents it (collapsed into
// one leading prompt, or — for models that take mid-conversation system
// messages — the leading one, later ones staying in place as updates);
// messages keep only what reaches the provider (role, content, and a tool
// result's toolCallId/toolName/isError). Absent parts are left out.
type Request struct {
	// Payload is the rebuilt request (a jsonv object).
	Payload *jsonv.Object
	// Turn is the payload split into blocks (pi-forge's extractTurnSnapshot
	// of a capture with this payload) with what produced them.
	Turn turndiff.Annotated
	// Entry is the entry asked for; ContextIndex the entry the context was
	// built at (the assistant's parent for an assistant message; -1 for an
	// empty context).
	Entry, ContextIndex int
	// ForAssistant is true when Entry is the assistant message this request
	// produced; Usage is then its recorded usage (nil when none).
	ForAssistant bool
	Usage        *turndiff.Usage
	// Provider and Model name the model the request went to ("" unknown);
	// ThinkingLevel is the thinking level in force in its context ("off"
	// by default, "" when the session records an unreadable one).
	Provider, Model string
	ThinkingLevel   string
	// Tools are the declared tool names in the request.
	Tools []string
	// EntryOf maps a block key to the id of the entry that produced it.
	EntryOf map[string]string
	// Path is the root→ContextIndex path (entry indexes).
	Path []int
	// CompactionIndex is the compaction the context starts at (-1 none).
	CompactionIndex int
	// PresetID names the Preset that compiled the request ("" when none
	// did); RuntimeSource says where its compile runtime came from.
	// MessagesCompiled is true when the Preset compiled the messages too
	// (the first request of a user turn), false when they went out as Pi's
	// natural context (a tool-result follow-up).
	PresetID, RuntimeSource string
	MessagesCompiled        bool
	// Inferred says, for humans, what the rebuild assumed rather than read
	// from the session (empty for Pi's own request).
	Inferred []string
	// Rewritten is true when an extension's rewrite (RequestOptions.Forge,
	// or the Preset of RequestOptions.Preset) produced the request; false
	// when it is the request Pi alone built.
	Rewritten bool
	// SystemPrompt is Pi's system prompt replayed at the context, whose
	// sections split the system block when no rewrite attributed it
	// (session/compare's composition).
	SystemPrompt *SystemPrompt
}

// RequestOptions say how a request is rebuilt.
type RequestOptions struct {
	// Catalog decides how System messages are presented (nil: collapsed,
	// as for an unknown model).
	Catalog *catalog.Catalog
	// Forge reproduces an extension's rewrite of the context (nil: the
	// request as Pi alone built it).
	Forge Forge
	// Preset, when set, is compiled in place of the Preset in force: the
	// request that Preset would have sent (a preset reference). Its
	// Catalog defaults to the options' Catalog.
	Preset *PresetInput
}

// wireMessage is one request message, the entry it came from (-1 none)
// and what produced it when the session does not hold it.
type wireMessage struct {
	value  any
	entry  int
	role   string
	origin turndiff.Origin
}

// RequestAt rebuilds the request Pi alone would have sent for the entry
// with the given index (RequestWith without a Forge).
func RequestAt(s *session.Session, index int, cat *catalog.Catalog) (*Request, error) {
	return RequestWith(s, index, RequestOptions{Catalog: cat})
}

// RequestWith rebuilds the request of the entry with the given index: for
// an assistant message the request that produced it (the context at its
// parent, sent to the model that answered), otherwise the request Pi
// would send next from that entry. opts.Forge rewrites the context the
// way the extension did (pi-forge's Preset and capabilities); opts.Preset
// compiles another Preset instead of the one in force.
func RequestWith(s *session.Session, index int, opts RequestOptions) (*Request, error) {
	return requestOn(s, index, opts, nil)
}

// RequestOnBranch is RequestWith taking the context's path from paths
// when the entry is on that branch (a caller rebuilding many requests of
// one long branch shares its path instead of walking it for each).
func RequestOnBranch(s *session.Session, index int, opts RequestOptions, paths *session.BranchPaths) (*Request, error) {
	return requestOn(s, index, opts, paths)
}

// requestOn is RequestWith taking the context's path from paths when it
// can.
func requestOn(s *session.Session, index int, opts RequestOptions, paths *session.BranchPaths) (*Request, error) {
	if index < 0 || index >= len(s.Entries) {
		return nil, fmt.Errorf("request at entry %d of %d: %w", index, len(s.Entries), session.ErrUnknownEntry)
	}
	r := &Request{Entry: index, ContextIndex: index, CompactionIndex: -1}
	e := &s.Entries[index]
	if e.Type == session.TypeMessage && e.Role == session.RoleAssistant {
		r.ForAssistant = true
		r.ContextIndex = -1
		if p := s.ParentIndex(index); e.HasParent && p >= 0 {
			r.ContextIndex = p
		}
		r.Provider, _ = e.MessageProvider().Str()
		r.Model, _ = e.MessageModel().Str()
		if u, ok := usageOf(e, index); ok && opts.Preset == nil {
			r.Usage = &u
		}
	}
	ctx, err := s.ContextOn(r.ContextIndex, paths)
	if err != nil {
		return nil, fmt.Errorf("request at entry %d: %w", index, err)
	}
	r.Path = ctx.Path
	if len(ctx.Entries) > 0 && s.Entries[ctx.Entries[0].Index].Type == session.TypeCompaction {
		r.CompactionIndex = ctx.Entries[0].Index
	}
	if !r.ForAssistant && ctx.Model != nil {
		r.Provider, _ = ctx.Model.Provider.Str()
		r.Model, _ = ctx.Model.ModelID.Str()
	}
	r.ThinkingLevel, _ = ctx.ThinkingLevel.Str()
	sp := systemPromptOf(ctx, r.ContextIndex)
	r.SystemPrompt = sp
	rw, err := r.rewrite(s, ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("request at entry %s: %w", e.ID, err)
	}
	tools := sp.Tools
	if p := opts.Preset; p != nil {
		tools = allowedTools(sp, p)
	}
	systemEntry := -1
	if len(sp.Origins) > 0 {
		systemEntry = sp.Origins[len(sp.Origins)-1]
	}
	native := r.native(opts.Catalog)
	if rw == nil {
		var msgs []wireMessage
		for _, pe := range ctx.Entries {
			for _, m := range session.ConvertToLLM(pe.Messages) {
				obj, _ := m.(*jsonv.Object)
				msgs = append(msgs, wireMessage{value: m, entry: pe.Index, role: obj.GetString("role")})
			}
		}
		blockMsg := r.build(tools, sp.message, msgs, native)
		r.attribute(s, msgs, blockMsg, systemEntry)
		return r, nil
	}
	entryOf := make(map[any]int, len(ctx.Entries))
	for _, pe := range ctx.Entries {
		for _, m := range pe.Messages {
			entryOf[m] = pe.Index
		}
	}
	var systems []*jsonv.Object
	var msgs []wireMessage
	for _, m := range rw.Messages {
		obj, _ := m.(*jsonv.Object)
		if obj != nil && obj.GetString("role") == session.RoleSystem {
			systems = append(systems, obj)
		}
		entry, ok := entryOf[m]
		if !ok {
			entry = -1
		}
		for _, llm := range session.ConvertToLLM([]any{m}) {
			lo, _ := llm.(*jsonv.Object)
			msgs = append(msgs, wireMessage{value: llm, entry: entry, role: lo.GetString("role"), origin: rw.Origins[m]})
		}
	}
	blockMsg := r.build(tools, replaySystemMessages(systems), msgs, native)
	r.attribute(s, msgs, blockMsg, systemEntry)
	r.Rewritten = true
	r.PresetID, r.RuntimeSource, r.Inferred, r.MessagesCompiled = rw.PresetID, rw.RuntimeSource, rw.Inferred, rw.MessagesCompiled
	if rw.StackID != "" {
		r.Turn.Turn.StackID = rw.StackID
	}
	if len(rw.SystemSpans) > 0 && r.Turn.Turn.Blocks != nil {
		if _, ok := r.Payload.Get("system"); ok {
			r.Turn.Spans = map[string][]turndiff.Span{turndiff.KeySystem: rw.SystemSpans}
		}
	}
	return r, nil
}

// rewrite applies opts' Forge, or compiles opts.Preset without one; nil
// when the context goes out as Pi built it.
func (r *Request) rewrite(s *session.Session, ctx *session.Context, opts RequestOptions) (*ForgeOutput, error) {
	in := ForgeInput{Context: ctx, FirstOfTurn: FirstOfTurn(ctx), Preset: opts.Preset}
	if in.Preset != nil && in.Preset.Catalog == nil {
		p := *in.Preset
		p.Catalog = opts.Catalog
		in.Preset = &p
	}
	if opts.Forge == nil && in.Preset == nil {
		return nil, nil
	}
	in.Messages = ctx.AgentMessages()
	if opts.Forge != nil {
		return opts.Forge.Rewrite(s, in)
	}
	return CompilePreset(s, in)
}

// allowedTools are the tools declared at the context that p's tool policy
// allows.
func allowedTools(sp *SystemPrompt, p *PresetInput) []any {
	allowed := map[string]bool{}
	for _, name := range preset.ApplyResourcePolicy(sp.ToolNames(), p.Stack.Tools) {
		allowed[name] = true
	}
	var tools []any
	for _, t := range sp.Tools {
		o, _ := t.(*jsonv.Object)
		if allowed[toolName(o)] {
			tools = append(tools, t)
		}
	}
	return tools
}

// native reports whether the model takes mid-conversation system messages.
func (r *Request) native(cat *catalog.Catalog) bool {
	if cat == nil || r.Model == "" {
		return false
	}
	m, ok := cat.Lookup(r.Provider, r.Model)
	return ok && m.SupportsMidConvoSystemMessages()
}

// build assembles the payload and its blocks and returns, for each message
// block key, the index in msgs of the message it holds. replayed is the
// collapsed system message (nil when the context has none).
func (r *Request) build(tools []any, replayed *jsonv.Object, msgs []wireMessage, native bool) map[string]int {
	p := jsonv.NewObject()
	if r.Provider != "" || r.Model != "" {
		p.Set("model", r.Provider+"/"+r.Model)
	}
	if len(tools) > 0 {
		p.Set("tools", tools)
		for _, t := range tools {
			o, _ := t.(*jsonv.Object)
			r.Tools = append(r.Tools, toolName(o))
		}
	}
	var wire []any
	var wireFrom []int
	leading := ""
	hasLeading := false
	for i, m := range msgs {
		obj, _ := m.value.(*jsonv.Object)
		if m.role == session.RoleSystem {
			if !native {
				continue
			}
			if i == 0 {
				leading, hasLeading = systemMessageText(obj), true
				continue
			}
			text := systemMessageUpdateText(obj)
			if text == "" {
				continue // a tool-only update leaves no text to send in place
			}
			sys := jsonv.NewObject()
			sys.Set("role", session.RoleSystem)
			sys.Set("content", text)
			wire = append(wire, sys)
			wireFrom = append(wireFrom, i)
			continue
		}
		wire = append(wire, wireForm(obj))
		wireFrom = append(wireFrom, i)
	}
	if !native && replayed != nil {
		leading, hasLeading = systemMessageText(replayed), true
	}
	if hasLeading {
		p.Set("system", leading)
	}
	if wire == nil {
		wire = []any{}
	}
	p.Set("messages", wire)
	r.Payload = p

	turn := turndiff.ExtractPayload("", "", "", p, "")
	r.Turn = turndiff.Annotated{Turn: turn, Blocks: map[string]turndiff.Origin{}}
	r.EntryOf = map[string]string{}
	blockMsg := map[string]int{}
	k := 0
	for _, b := range turn.Blocks {
		if strings.HasPrefix(b.Key, turndiff.KeyMessage) && k < len(wireFrom) {
			blockMsg[b.Key] = wireFrom[k]
			k++
		}
	}
	return blockMsg
}

// attribute records the entry behind every block of a rebuilt request.
func (r *Request) attribute(s *session.Session, msgs []wireMessage, blockMsg map[string]int, systemEntry int) {
	for key, i := range blockMsg {
		if o := msgs[i].origin; o.Kind != "" {
			r.Turn.Blocks[key] = o
		}
		idx := msgs[i].entry
		if idx < 0 {
			continue
		}
		id := s.Entries[idx].ID
		r.EntryOf[key] = id
		if s.Entries[idx].Type == session.TypeCompaction {
			r.Turn.Blocks[key] = turndiff.Origin{Kind: turndiff.CauseCompaction, EntryID: id, Label: "compaction summary"}
		}
	}
	if systemEntry >= 0 {
		r.EntryOf[turndiff.KeySystem] = s.Entries[systemEntry].ID
	}
}

// wireForm keeps the fields of a provider message that reach the model.
func wireForm(m *jsonv.Object) any {
	if m == nil {
		return nil
	}
	out := jsonv.NewObject()
	for _, k := range []string{"role", "content", "toolCallId", "toolName", "isError"} {
		if v, ok := m.Get(k); ok {
			out.Set(k, v)
		}
	}
	return out
}

// usageOf reads an assistant message's recorded usage. ok is false when it
// recorded none (or only zeros, as aborted requests do).
func usageOf(e *session.Entry, index int) (turndiff.Usage, bool) {
	u, recorded := usageTokens(e, index)
	if !recorded {
		return turndiff.Usage{}, false
	}
	u.Provider, _ = e.MessageProvider().Str()
	u.Model, _ = e.MessageModel().Str()
	return u, requested(&u)
}

// requested is false for a usage of only zeros (an aborted request).
func requested(u *turndiff.Usage) bool {
	return !(u.Input+u.CacheRead+u.CacheWrite+u.Output == 0)
}

// usageTokens reads an assistant message's usage without the names of its
// model; recorded is false when the message has no usage object.
func usageTokens(e *session.Entry, index int) (u turndiff.Usage, recorded bool) {
	raw := e.UsageRaw()
	if len(raw) == 0 || raw[0] != '{' {
		return turndiff.Usage{}, false
	}
	var tokens catalog.Usage
	stats.ReadUsageTokens(raw, &tokens)
	return turndiff.Usage{
		EntryID: e.ID, Index: index,
		Input: tokens.Input, Output: tokens.Output,
		CacheRead: tokens.CacheRead, CacheWrite: tokens.CacheWrite,
	}, true
}
