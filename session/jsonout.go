package session

import (
	"errors"
	"fmt"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// ErrUnknownEntry reports a leaf id that names no entry of the session.
var ErrUnknownEntry = errors.New("unknown entry id")

// ContextJSON renders `session context --json` for the leaf with the given
// id ("" = Pi's default leaf, the last entry in file order):
//
//	{"leafId","thinkingLevel","model","projectedEntries","agentMessages","llmMessages"}
//
// leafId is the id actually used (null when the session has no entries or
// the leaf has no id). An explicit id that is not found is an error
// wrapping ErrUnknownEntry (Pi would silently fall back to the last entry).
func ContextJSON(s *Session, leafID string) ([]byte, error) {
	v, err := ContextValue(s, leafID)
	if err != nil {
		return nil, err
	}
	return []byte(jsonv.Stringify(v)), nil
}

// ContextValue is ContextJSON before stringification (a *jsonv.Object).
func ContextValue(s *Session, leafID string) (*jsonv.Object, error) {
	leaf := s.LeafIndex()
	if leafID != "" {
		i, ok := s.IndexOf(leafID)
		if !ok {
			return nil, fmt.Errorf("leaf %q: %w", leafID, ErrUnknownEntry)
		}
		leaf = i
	}
	c, err := s.Context(leaf)
	if err != nil {
		return nil, fmt.Errorf("build context: %w", err)
	}
	out := jsonv.NewObject()
	out.Set("leafId", entryIDValue(s, leaf))
	if tl, present, err := c.ThinkingLevel.Decode(); err != nil {
		return nil, fmt.Errorf("decode thinkingLevel: %w", err)
	} else if present {
		out.Set("thinkingLevel", tl)
	}
	model, err := c.ModelValue()
	if err != nil {
		return nil, err
	}
	out.Set("model", model)
	projected := make([]any, 0, len(c.Entries))
	for _, p := range c.Entries {
		e := &s.Entries[p.Index]
		pe := jsonv.NewObject()
		pe.Set("sourceEntryId", entryIDValue(s, p.Index))
		if e.Type != "" {
			pe.Set("type", e.Type)
		} else {
			pe.Set("type", nil)
		}
		roles := make([]any, 0, len(p.Messages))
		for _, m := range p.Messages {
			roles = append(roles, messageRole(m))
		}
		pe.Set("roles", roles)
		projected = append(projected, pe)
	}
	out.Set("projectedEntries", projected)
	agent := c.AgentMessages()
	out.Set("agentMessages", agent)
	out.Set("llmMessages", ConvertToLLM(agent))
	return out, nil
}

// ModelValue returns the model as {provider, modelId} or nil (null).
func (c *Context) ModelValue() (any, error) {
	if c.Model == nil {
		return nil, nil
	}
	m := jsonv.NewObject()
	for _, f := range []struct {
		key string
		raw RawValue
	}{{"provider", c.Model.Provider}, {"modelId", c.Model.ModelID}} {
		v, present, err := f.raw.Decode()
		if err != nil {
			return nil, fmt.Errorf("decode model %s: %w", f.key, err)
		}
		if present {
			m.Set(f.key, v)
		}
	}
	return m, nil
}

func entryIDValue(s *Session, i int) any {
	if i < 0 || i >= len(s.Entries) || !s.Entries[i].HasID {
		return nil
	}
	return s.Entries[i].ID
}

func messageRole(m any) any {
	if obj, ok := m.(*jsonv.Object); ok {
		if r, ok := obj.Get("role"); ok {
			return r
		}
	}
	return nil
}

// SummaryJSON renders `session show --json`:
//
//	{"header","entries","skippedLines","leafId","pathLength","contextMessages","name","labels"}
//
// header is the header object after in-memory migration (version 3 for
// migrated files); leafId, pathLength and contextMessages describe Pi's
// default leaf; name is null when unset; labels maps target id → label.
func SummaryJSON(s *Session) ([]byte, error) {
	v, err := SummaryValue(s)
	if err != nil {
		return nil, err
	}
	return []byte(jsonv.Stringify(v)), nil
}

// SummaryValue is SummaryJSON before stringification.
func SummaryValue(s *Session) (*jsonv.Object, error) {
	header, err := s.HeaderValue()
	if err != nil {
		return nil, err
	}
	c, err := s.Context(s.LeafIndex())
	if err != nil {
		return nil, fmt.Errorf("build context: %w", err)
	}
	out := jsonv.NewObject()
	out.Set("header", header)
	out.Set("entries", float64(len(s.Entries)))
	out.Set("skippedLines", float64(s.Diagnostics.SkippedLines()))
	out.Set("leafId", entryIDValue(s, s.LeafIndex()))
	out.Set("pathLength", float64(len(c.Path)))
	n := 0
	for _, p := range c.Entries {
		n += len(p.Messages)
	}
	out.Set("contextMessages", float64(n))
	if name, ok := s.Name(); ok {
		out.Set("name", name)
	} else {
		out.Set("name", nil)
	}
	labels := jsonv.NewObject()
	for _, l := range s.labels {
		labels.Set(l.TargetID, l.Label)
	}
	out.Set("labels", labels)
	return out, nil
}

// HeaderValue decodes the header with the in-memory migration applied.
func (s *Session) HeaderValue() (*jsonv.Object, error) {
	v, err := jsonv.Parse(s.Header.Raw)
	if err != nil {
		return nil, fmt.Errorf("decode header: %w", err)
	}
	obj, ok := v.(*jsonv.Object)
	if !ok {
		return nil, fmt.Errorf("decode header: %w", ErrNotSession)
	}
	if s.Migrated {
		obj.Set("version", float64(CurrentVersion))
	}
	return obj, nil
}
