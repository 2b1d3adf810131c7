package session

import (
	"fmt"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// ModelRef is the model selected by the path (spec §7 step 2). The fields
// are raw values because Pi copies them without checking their type; an
// absent field is omitted from JSON output.
type ModelRef struct {
	Provider RawValue
	ModelID  RawValue
}

// ProjectedEntry is one context entry and the agent messages it contributes.
type ProjectedEntry struct {
	// Index is the entry's index in Session.Entries.
	Index int
	// Messages are the agent messages (jsonv values) after context edits.
	Messages []any
}

// Context is the model context at one leaf (spec §7): Pi's
// buildSessionProjection plus the session settings.
type Context struct {
	// LeafIndex is the entry the path ends at (-1 for an empty session).
	LeafIndex int
	// Path is the root→leaf path (entry indexes).
	Path []int
	// ThinkingLevel is the raw thinking level ("off" by default; nil when a
	// thinking_level_change entry has no thinkingLevel).
	ThinkingLevel RawValue
	// Model is the selected model, or nil (JSON null).
	Model *ModelRef
	// Entries are the context entries in order with their messages.
	Entries []ProjectedEntry
}

// AgentMessages flattens the projection into Pi's agent message list.
func (c *Context) AgentMessages() []any {
	n := 0
	for _, p := range c.Entries {
		n += len(p.Messages)
	}
	out := make([]any, 0, n)
	for _, p := range c.Entries {
		out = append(out, p.Messages...)
	}
	return out
}

// LLMMessages returns ConvertToLLM(AgentMessages()).
func (c *Context) LLMMessages() []any { return ConvertToLLM(c.AgentMessages()) }

// Context builds the context at the entry with index leaf (use LeafIndex()
// for Pi's default leaf). Message bodies are decoded only for the entries
// that end up in the context.
func (s *Session) Context(leaf int) (*Context, error) { return s.ContextOn(leaf, nil) }

// ContextOn is Context taking the path to leaf from paths when it can
// (a caller building many contexts on one branch shares its path).
func (s *Session) ContextOn(leaf int, paths *BranchPaths) (*Context, error) {
	c := &Context{LeafIndex: leaf, ThinkingLevel: RawValue(`"off"`)}
	if leaf < 0 || leaf >= len(s.Entries) {
		c.LeafIndex = -1
		return c, nil
	}
	c.Path = paths.to(s, leaf)
	s.ApplySettings(c)
	ctxEntries := s.ContextEntries(c.Path)
	edits := map[string]*Entry{}
	for _, i := range ctxEntries {
		e := &s.Entries[i]
		if e.Type == TypeContextEdit {
			if target, ok := e.Field("targetId").Str(); ok {
				edits[target] = e
			}
		}
	}
	c.Entries = make([]ProjectedEntry, len(ctxEntries))
	for k, i := range ctxEntries {
		e := &s.Entries[i]
		msgs, err := s.entryMessages(e, i, k == 0, paths)
		if err != nil {
			return nil, err
		}
		if edit, ok := edits[e.ID]; ok && e.HasID && len(msgs) > 0 {
			if msgs, err = applyEdit(msgs, edit); err != nil {
				return nil, err
			}
		}
		c.Entries[k] = ProjectedEntry{Index: i, Messages: msgs}
	}
	return c, nil
}

// ApplySettings computes thinking level and model over the full path: the
// last thinking_level_change and the last model_change or assistant
// message win, so the path is read backwards until both are found.
func (s *Session) ApplySettings(c *Context) {
	haveThinking, haveModel := false, false
	for k := len(c.Path) - 1; k >= 0 && !(haveThinking && haveModel); k-- {
		e := &s.Entries[c.Path[k]]
		switch {
		case e.Type == TypeThinkingLevelChange:
			if !haveThinking {
				c.ThinkingLevel, haveThinking = e.Field("thinkingLevel"), true
			}
		case e.Type == TypeModelChange:
			if !haveModel {
				c.Model, haveModel = &ModelRef{Provider: e.Field("provider"), ModelID: e.Field("modelId")}, true
			}
		case e.Type == TypeMessage && e.Role == RoleAssistant:
			if !haveModel {
				c.Model, haveModel = &ModelRef{Provider: e.provider.in(e.Raw), ModelID: e.model.in(e.Raw)}, true
			}
		}
	}
}

// ContextEntries applies compaction trimming (spec §7 step 3): the last
// compaction on the path, the entries from its firstKeptEntryId to it
// (system messages left out), and the entries after it.
func (s *Session) ContextEntries(path []int) []int {
	ci := -1
	for k := len(path) - 1; k >= 0; k-- {
		if s.Entries[path[k]].Type == TypeCompaction {
			ci = k
			break
		}
	}
	if ci < 0 {
		return path
	}
	comp := &s.Entries[path[ci]]
	firstKept, hasFirstKept := comp.FirstKeptEntryID()
	keptFrom := ci // no kept entries before the compaction
	if hasFirstKept {
		keptFrom = s.firstOnPath(path[:ci], firstKept)
	}
	out := make([]int, 0, len(path)-keptFrom)
	out = append(out, path[ci])
	for _, i := range path[keptFrom:ci] {
		if e := &s.Entries[i]; !(e.Type == TypeMessage && e.Role == RoleSystem) {
			out = append(out, i)
		}
	}
	return append(out, path[ci+1:]...)
}

// firstOnPath returns the position of the first entry of path with the
// given id, or len(path). Without duplicate ids the id names one entry,
// found from the end of the path (a compaction keeps recent entries).
func (s *Session) firstOnPath(path []int, id string) int {
	if s.Diagnostics.DuplicateIDs == 0 {
		target, ok := s.byID[id]
		if !ok {
			return len(path)
		}
		for k := len(path) - 1; k >= 0; k-- {
			if path[k] == target {
				return k
			}
		}
		return len(path)
	}
	for k, i := range path {
		if e := &s.Entries[i]; e.HasID && e.ID == id {
			return k
		}
	}
	return len(path)
}

// entryMessages is sessionEntryToContextMessages (spec §7 step 5).
func (s *Session) entryMessages(e *Entry, i int, first bool, paths *BranchPaths) ([]any, error) {
	switch e.Type {
	case TypeMessage:
		if e.MessageRaw().Nullish() {
			return nil, nil
		}
		v, err := paths.message(s, i)
		if err != nil {
			return nil, err
		}
		if obj, ok := v.(*jsonv.Object); ok {
			content, has := obj.Get("content")
			if has && content != nil {
				return []any{obj}, nil
			}
			switch e.Role {
			case RoleSystem:
				obj = shallowCopy(obj)
				obj.Set("content", "")
			case RoleUser, RoleAssistant, RoleToolResult:
				obj = shallowCopy(obj)
				obj.Set("content", []any{})
			}
			return []any{obj}, nil
		}
		return []any{v}, nil
	case TypeCustomMessage:
		m := jsonv.NewObject()
		m.Set("role", RoleCustom)
		if err := copyField(m, e, "customType"); err != nil {
			return nil, err
		}
		content, err := decodeField(e, "content")
		if err != nil {
			return nil, err
		}
		if content == nil {
			content = []any{}
		}
		m.Set("content", content)
		if err := copyField(m, e, "display"); err != nil {
			return nil, err
		}
		if err := copyField(m, e, "details"); err != nil {
			return nil, err
		}
		m.Set("timestamp", e.timestampMs)
		return []any{m}, nil
	case TypeBranchSummary:
		if !e.Field("summary").Truthy() {
			return nil, nil
		}
		m := jsonv.NewObject()
		m.Set("role", RoleBranchSummary)
		for _, f := range []string{"summary", "fromId"} {
			if err := copyField(m, e, f); err != nil {
				return nil, err
			}
		}
		m.Set("timestamp", e.timestampMs)
		return []any{m}, nil
	case TypeCompaction:
		if !first {
			return nil, nil
		}
		var out []any
		if sys := e.Field("systemMessage"); sys.Truthy() {
			v, _, err := sys.Decode()
			if err != nil {
				return nil, fmt.Errorf("decode systemMessage on line %d: %w", e.Line, err)
			}
			out = append(out, v)
		}
		m := jsonv.NewObject()
		m.Set("role", RoleCompactionSummary)
		for _, f := range []string{"summary", "tokensBefore"} {
			if err := copyField(m, e, f); err != nil {
				return nil, err
			}
		}
		m.Set("timestamp", e.timestampMs)
		return append(out, m), nil
	}
	return nil, nil
}

// applyEdit applies a context_edit to the messages of its target entry.
func applyEdit(msgs []any, edit *Entry) ([]any, error) {
	repl := edit.Field("replacement")
	if !repl.Present() {
		return msgs, nil
	}
	if repl.IsNull() {
		return nil, nil
	}
	rv, _, err := repl.Decode()
	if err != nil {
		return nil, fmt.Errorf("decode replacement on line %d: %w", edit.Line, err)
	}
	// replacement.content of a string, number, boolean or array is
	// undefined in JavaScript, exactly like a missing content key.
	var content any
	hasContent := false
	if ro, ok := rv.(*jsonv.Object); ok {
		content, hasContent = ro.Get("content")
	}
	out := make([]any, len(msgs))
	for k, m := range msgs {
		out[k] = m
		obj, ok := m.(*jsonv.Object)
		if !ok {
			continue
		}
		role, _ := obj.Get("role")
		switch role {
		case RoleUser, RoleAssistant, RoleToolResult, RoleCustom:
		default:
			continue
		}
		c := shallowCopy(obj)
		switch {
		case !hasContent:
			c.Set("content", nil)
			c.Delete("content")
		case (role == RoleAssistant || role == RoleToolResult):
			if text, isStr := content.(string); isStr {
				block := jsonv.NewObject()
				block.Set("type", "text")
				block.Set("text", text)
				c.Set("content", []any{block})
				break
			}
			c.Set("content", content)
		default:
			c.Set("content", content)
		}
		out[k] = c
	}
	return out, nil
}

// copyField copies a present top-level field of e into m.
func copyField(m *jsonv.Object, e *Entry, name string) error {
	v, err := decodeField(e, name)
	if err != nil {
		return err
	}
	if e.Field(name).Present() {
		m.Set(name, v)
	}
	return nil
}

func decodeField(e *Entry, name string) (any, error) {
	v, _, err := e.Field(name).Decode()
	if err != nil {
		return nil, fmt.Errorf("decode %s on line %d: %w", name, e.Line, err)
	}
	return v, nil
}

// shallowCopy is the object spread {...o}.
func shallowCopy(o *jsonv.Object) *jsonv.Object {
	c := jsonv.NewObject()
	o.Range(func(k string, v any) bool {
		c.Set(k, v)
		return true
	})
	return c
}
