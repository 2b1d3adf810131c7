package replay

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// Sources of a SystemPrompt.
const (
	// SystemPromptFromSession: the prompt was replayed from the system
	// messages recorded in the session (Pi ≥ 0.86).
	SystemPromptFromSession = "session"
	// SystemPromptNone: the context holds no system message, as in sessions
	// written before Pi 0.86 (the prompt that was sent is not in the file).
	SystemPromptNone = "none: pre-0.86 session"
)

// PromptSection is one named section of the system prompt.
type PromptSection struct {
	Name  string
	Value string
}

// SystemPrompt is the system prompt in force at one entry (spec §8, §12.1):
// the replay of the system messages of the model context at that entry.
// A compaction's systemMessage stands for every system message before it,
// because the context starts at the latest compaction.
type SystemPrompt struct {
	// Source is SystemPromptFromSession or SystemPromptNone.
	Source string
	// EntryIndex is the entry the context was built at.
	EntryIndex int
	// Content is the system messages' own text, joined with "\n\n".
	Content string
	// Sections are the replayed sections in prompt order.
	Sections []PromptSection
	// Tools are the tool declarations in force (jsonv values, usually
	// *jsonv.Object {name, description, parameters, …}) in Pi's order.
	Tools []any
	// Text is the rendered prompt: Content then each section value, joined
	// with "\n\n", empty parts dropped.
	Text string
	// Timestamp is the first replayed system message's timestamp.
	Timestamp any
	// Origins are the entry indexes that contributed system messages (a
	// compaction entry when its systemMessage was used), in context order.
	Origins []int
	// Provider and ModelID are the model selected at the entry ("" if none).
	Provider string
	ModelID  string

	message  *jsonv.Object
	messages []any
}

// SystemPromptAt replays the system prompt in force at the entry with the
// given index, the way Pi's getCurrentSystemMessage does on the context it
// would send from there.
func SystemPromptAt(s *session.Session, index int) (*SystemPrompt, error) {
	if index < 0 || index >= len(s.Entries) {
		return nil, fmt.Errorf("system prompt at entry %d of %d: %w", index, len(s.Entries), session.ErrUnknownEntry)
	}
	ctx, err := s.Context(index)
	if err != nil {
		return nil, fmt.Errorf("system prompt at entry %d: %w", index, err)
	}
	return systemPromptOf(ctx, index), nil
}

// systemPromptOf replays the system prompt of a context already built at
// the entry with the given index.
func systemPromptOf(ctx *session.Context, index int) *SystemPrompt {
	p := &SystemPrompt{Source: SystemPromptNone, EntryIndex: index}
	if ctx.Model != nil {
		p.Provider, _ = ctx.Model.Provider.Str()
		p.ModelID, _ = ctx.Model.ModelID.Str()
	}
	var systems []*jsonv.Object
	for _, pe := range ctx.Entries {
		for _, mv := range pe.Messages {
			if m, ok := mv.(*jsonv.Object); ok && m.GetString("role") == session.RoleSystem {
				systems = append(systems, m)
				p.Origins = append(p.Origins, pe.Index)
			}
		}
	}
	p.messages = session.ConvertToLLM(ctx.AgentMessages())
	p.message = replaySystemMessages(systems)
	if p.message == nil {
		return p
	}
	p.Source = SystemPromptFromSession
	p.Content = p.message.GetString("content")
	p.Timestamp, _ = p.message.Get("timestamp")
	if sec, ok := p.message.Get("sections"); ok {
		so, _ := sec.(*jsonv.Object)
		for _, name := range so.Keys() {
			v, _ := so.Get(name)
			p.Sections = append(p.Sections, PromptSection{Name: name, Value: jsonv.ToString(v)})
		}
	}
	if tv, ok := p.message.Get("toolsAdded"); ok {
		p.Tools, _ = tv.([]any)
	}
	p.Text = systemMessageText(p.message)
	return p
}

// Message returns the replayed system message {role, content, sections?,
// toolsAdded?, timestamp} (nil when the context has none).
func (p *SystemPrompt) Message() *jsonv.Object { return p.message }

// ToolNames lists the names of the tools in force.
func (p *SystemPrompt) ToolNames() []string {
	names := make([]string, 0, len(p.Tools))
	for _, t := range p.Tools {
		o, _ := t.(*jsonv.Object)
		names = append(names, toolName(o))
	}
	return names
}

// orderedStrings is a JavaScript Map keyed by string: set keeps an existing
// key's position, delete forgets it.
type orderedStrings[V any] struct {
	keys []string
	vals map[string]V
}

func newOrdered[V any]() *orderedStrings[V] {
	return &orderedStrings[V]{vals: map[string]V{}}
}

func (m *orderedStrings[V]) set(k string, v V) {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

func (m *orderedStrings[V]) delete(k string) {
	if _, ok := m.vals[k]; !ok {
		return
	}
	delete(m.vals, k)
	for i, key := range m.keys {
		if key == k {
			m.keys = append(m.keys[:i], m.keys[i+1:]...)
			break
		}
	}
}

// replaySystemMessages is pi-ai's getCurrentSystemMessage: content texts
// appended, sections patched by name (null deletes), tools removed then
// added by name. Nil when there is neither a system message nor a tool.
func replaySystemMessages(systems []*jsonv.Object) *jsonv.Object {
	var content []string
	sections := newOrdered[any]()
	tools := newOrdered[any]()
	// timestamp ??= message.timestamp: the first non-null timestamp, else
	// the last message's null or absent one (absent = undefined).
	var timestamp any
	timestampDefined := false
	for _, m := range systems {
		if timestamp == nil {
			timestamp, timestampDefined = m.Get("timestamp")
		}
		cv, _ := m.Get("content")
		if text := contentText(cv); text != "" {
			content = append(content, text)
		}
		if sv, ok := m.Get("sections"); ok {
			so, _ := sv.(*jsonv.Object)
			for _, name := range so.Keys() {
				v, _ := so.Get(name)
				if v == nil {
					sections.delete(name)
				} else {
					sections.set(name, v)
				}
			}
		}
	}
	for _, m := range systems {
		removed, _ := m.Get("toolsRemoved")
		for _, t := range asArray(removed) {
			o, _ := t.(*jsonv.Object)
			tools.delete(toolName(o))
		}
		added, _ := m.Get("toolsAdded")
		for _, t := range asArray(added) {
			o, _ := t.(*jsonv.Object)
			tools.set(toolName(o), t)
		}
	}
	if !timestampDefined && len(tools.keys) == 0 {
		return nil
	}
	out := jsonv.NewObject()
	out.Set("role", session.RoleSystem)
	out.Set("content", strings.Join(content, "\n\n"))
	if len(sections.keys) > 0 {
		so := jsonv.NewObject()
		for _, k := range sections.keys {
			so.Set(k, sections.vals[k])
		}
		out.Set("sections", so)
	}
	if len(tools.keys) > 0 {
		list := make([]any, 0, len(tools.keys))
		for _, k := range tools.keys {
			list = append(list, tools.vals[k])
		}
		out.Set("toolsAdded", list)
	}
	if timestamp == nil {
		timestamp = 0.0
	}
	out.Set("timestamp", timestamp)
	return out
}

func asArray(v any) []any {
	a, _ := v.([]any)
	return a
}

// toolName is String(tool.name) ("undefined" when missing).
func toolName(o *jsonv.Object) string {
	if o == nil {
		return "undefined"
	}
	v, ok := o.Get("name")
	if !ok {
		return "undefined"
	}
	return jsonv.ToString(v)
}

// contentText is pi-ai's contentText: a string as is, or the text blocks
// joined with "\n"; null or other values give "".
func contentText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var parts []string
	for _, bv := range asArray(v) {
		b, _ := bv.(*jsonv.Object)
		if b.GetString("type") != session.BlockText {
			continue
		}
		t, _ := b.Get("text")
		if t == nil {
			parts = append(parts, "")
		} else {
			parts = append(parts, jsonv.ToString(t))
		}
	}
	return strings.Join(parts, "\n")
}

// systemMessageText is pi-ai's getSystemMessageText: the content, then each
// non-null section value, joined with "\n\n", keeping only parts whose
// JavaScript .length is positive (non-empty strings and arrays; numbers,
// booleans and objects have no length and are dropped).
func systemMessageText(m *jsonv.Object) string {
	cv, _ := m.Get("content")
	var kept []string
	if text := contentText(cv); text != "" {
		kept = append(kept, text)
	}
	if sv, ok := m.Get("sections"); ok {
		so, _ := sv.(*jsonv.Object)
		for _, name := range so.Keys() {
			switch v, _ := so.Get(name); t := v.(type) {
			case string:
				if t != "" {
					kept = append(kept, t)
				}
			case []any:
				if len(t) > 0 {
					kept = append(kept, jsonv.ToString(t))
				}
			}
		}
	}
	return strings.Join(kept, "\n\n")
}

// systemMessageUpdateText is pi-ai's renderSystemMessageUpdate: the text,
// then one paragraph per section change.
func systemMessageUpdateText(m *jsonv.Object) string {
	var parts []string
	cv, _ := m.Get("content")
	if text := contentText(cv); text != "" {
		parts = append(parts, text)
	}
	if sv, ok := m.Get("sections"); ok {
		so, _ := sv.(*jsonv.Object)
		for _, name := range so.Keys() {
			v, _ := so.Get(name)
			if v == nil {
				parts = append(parts, `Removed system prompt section "`+name+`".`)
			} else {
				parts = append(parts, `Updated system prompt section "`+name+"\":\n\n"+jsonv.ToString(v))
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// Presentation is how the system prompt reaches the provider (spec §8).
type Presentation struct {
	// Native is true when later system messages are sent in place (the
	// model's compat.supportsMidConvoSystemMessages); otherwise they are
	// collapsed into one leading system message holding the replay.
	Native bool
	// Messages are the provider messages (convertToLlm output) after that
	// choice.
	Messages []any
	// System describes each system message of Messages.
	System []PresentedSystem
}

// PresentedSystem is one system message as the provider receives it.
type PresentedSystem struct {
	// Position is the message's index in Presentation.Messages.
	Position int
	// Leading is true for a system message at position 0, rendered as the
	// complete prompt; later ones are rendered as updates.
	Leading bool
	// Text is the rendered text.
	Text string
}

// Presentation resolves the transcript for model (nil: an unknown model,
// which never accepts mid-conversation system messages), like pi-ai's
// resolveTranscript. Only the system-message step of the provider
// transforms is applied: error/aborted assistants, foreign thinking blocks
// and missing tool results are left as convertToLlm produced them.
func (p *SystemPrompt) Presentation(model *catalog.Model) Presentation {
	pr := Presentation{Native: model != nil && model.SupportsMidConvoSystemMessages()}
	if pr.Native {
		pr.Messages = append([]any(nil), p.messages...)
	} else {
		pr.Messages = make([]any, 0, len(p.messages)+1)
		if p.message != nil {
			pr.Messages = append(pr.Messages, p.message)
		}
		for _, mv := range p.messages {
			if m, ok := mv.(*jsonv.Object); ok && m.GetString("role") == session.RoleSystem {
				continue
			}
			pr.Messages = append(pr.Messages, mv)
		}
	}
	for i, mv := range pr.Messages {
		m, ok := mv.(*jsonv.Object)
		if !ok || m.GetString("role") != session.RoleSystem {
			continue
		}
		ps := PresentedSystem{Position: i, Leading: i == 0}
		if ps.Leading {
			ps.Text = systemMessageText(m)
		} else {
			ps.Text = systemMessageUpdateText(m)
		}
		pr.System = append(pr.System, ps)
	}
	return pr
}

// PresentationIn looks the prompt's model up in cat and resolves the
// transcript for it.
func (p *SystemPrompt) PresentationIn(cat *catalog.Catalog) Presentation {
	var m *catalog.Model
	if cat != nil && p.ModelID != "" {
		m, _ = cat.Lookup(p.Provider, p.ModelID)
	}
	return p.Presentation(m)
}
