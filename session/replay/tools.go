package replay

import (
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// ToolDeclarations is what a branch records about Pi's tool selection: the
// tool declarations of its system messages (Pi ≥ 0.86).
type ToolDeclarations struct {
	// Recorded is false when the branch up to the entry holds no system
	// message and no compaction systemMessage (InForce is then unknown).
	Recorded bool
	// InForce are the tools declared in force at the entry, in Pi's order
	// (the toolsAdded/toolsRemoved replay of the context's system messages).
	InForce []string
	// Ever are all tool names the branch ever declared, first seen first.
	Ever []string
	// LastIndex is the entry index of the latest declaring entry (-1).
	LastIndex int
}

// ToolsAt replays only the tool declarations of the branch ending at the
// entry with the given index. It reads no message bodies except system
// messages and compaction systemMessages, so it stays cheap on very large
// sessions.
func ToolsAt(s *session.Session, index int) ToolDeclarations {
	d := ToolDeclarations{LastIndex: -1}
	if index < 0 || index >= len(s.Entries) {
		return d
	}
	path := s.PathTo(index)
	seen := map[string]bool{}
	note := func(names []string) {
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				d.Ever = append(d.Ever, n)
			}
		}
	}
	for _, i := range path {
		e := &s.Entries[i]
		if m := systemToolsOf(e); m != nil {
			added, _ := toolNames(m, "toolsAdded")
			note(added)
			d.Recorded = true
			d.LastIndex = i
		}
	}
	tools := newOrdered[bool]()
	for k, i := range s.ContextEntries(path) {
		e := &s.Entries[i]
		if e.Type == session.TypeCompaction && k != 0 {
			continue // an older compaction inside the kept range contributes nothing
		}
		m := systemToolsOf(e)
		if m == nil {
			continue
		}
		removed, _ := toolNames(m, "toolsRemoved")
		for _, n := range removed {
			tools.delete(n)
		}
		added, _ := toolNames(m, "toolsAdded")
		for _, n := range added {
			tools.set(n, true)
		}
	}
	d.InForce = append([]string{}, tools.keys...)
	return d
}

// systemToolsOf returns the system message object of a system message
// entry or of a compaction's systemMessage, or nil.
func systemToolsOf(e *session.Entry) *jsonv.Object {
	var raw session.RawValue
	switch {
	case e.Type == session.TypeMessage && e.Role == session.RoleSystem:
		raw = e.MessageRaw()
	case e.Type == session.TypeCompaction:
		raw = e.Field("systemMessage")
	default:
		return nil
	}
	if raw.Nullish() {
		return nil
	}
	v, err := jsonv.Parse(raw)
	if err != nil {
		return nil
	}
	o, _ := v.(*jsonv.Object)
	return o
}

// toolNames lists String(tool.name) of a toolsAdded / toolsRemoved array.
func toolNames(m *jsonv.Object, key string) ([]string, bool) {
	v, ok := m.Get(key)
	if !ok {
		return nil, false
	}
	list := asArray(v)
	out := make([]string, 0, len(list))
	for _, t := range list {
		o, _ := t.(*jsonv.Object)
		out = append(out, toolName(o))
	}
	return out, true
}
