package stats

import (
	"bytes"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/internal/scan"
)

// How a digest reads the entries it parses fully.

// digestEntry extracts what a digest keeps from a fully parsed entry.
func digestEntry(e *session.Entry) DigestEntry {
	if e.Role == session.RoleAssistant {
		var buf [24]scan.Span
		members, _, _ := scan.ScanMembers(e.MessageRaw(), 0, buf[:0])
		return assistantEntry(e, scannedMembers(members))
	}
	de := DigestEntry{
		Line: e.Line, Type: e.Type, Role: e.Role,
		ID: e.ID, HasID: e.HasID, ParentID: e.ParentID, HasParent: e.HasParent,
		TimestampMs: e.TimestampMs(),
		rec:         readStatRecord(e, nil),
	}
	switch e.Type {
	case session.TypeCustom, session.TypeCustomMessage:
		de.CustomType, _ = e.Field("customType").Str()
	case session.TypeMessage:
		switch e.Role {
		case session.RoleCustom:
			de.CustomType, _ = e.MessageField("customType").Str()
		case session.RoleToolResult:
			de.NestedCalls = nestedCallCount(e.MessageField("nestedCalls"))
		}
	}
	return de
}

// messageMembers looks up a member of a message whose members are scanned
// already: the digest's session.LineParser, or scannedMembers.
type messageMembers interface {
	MessageMember(name string) session.RawValue
}

// scannedMembers are the members of a message scanned by digestEntry.
type scannedMembers []scan.Span

// MessageMember is the last member named name (nil when absent).
func (m scannedMembers) MessageMember(name string) session.RawValue {
	return session.RawValue(scan.Lookup(m, name))
}

// assistantEntry reads an assistant message from its scanned members in one
// pass: what readStatRecord counts plus the model, stop reason and
// thinking level.
func assistantEntry(e *session.Entry, msg messageMembers) DigestEntry {
	de := DigestEntry{
		Line: e.Line, Type: e.Type, Role: e.Role,
		ID: e.ID, HasID: e.HasID, ParentID: e.ParentID, HasParent: e.HasParent,
		TimestampMs: e.TimestampMs(),
	}
	r := &de.rec
	r.isMessage, r.role = true, session.RoleAssistant
	provider, model := msg.MessageMember("provider"), msg.MessageMember("model")
	responseModel := msg.MessageMember("responseModel")
	de.Provider, _ = provider.Str()
	de.Model, _ = model.Str()
	de.ResponseModel, _ = responseModel.Str()
	de.StopReason, _ = msg.MessageMember("stopReason").Str()
	de.ThinkingLevel, _ = msg.MessageMember("thinkingLevel").Str()
	if de.ThinkingLevel == "" {
		de.ThinkingLevel, _ = msg.MessageMember("providerThinkingLevel").Str()
	}
	r.toolCalls = countToolCalls(msg.MessageMember("content"))
	keyModel := responseModel
	if responseModel.Nullish() {
		keyModel = model
	}
	p, m := jsStringOf(provider), jsStringOf(model)
	r.readUsage(msg.MessageMember("usage"), p+"/"+jsStringOf(keyModel), p, m)
	return de
}

// countToolCalls counts the blocks of a validated content array whose type
// is "toolCall" (the type is normally the first member of a block).
func countToolCalls(content session.RawValue) int {
	if len(content) == 0 || content[0] != '[' {
		return 0
	}
	n := 0
	i := scan.SkipWS(content, 1)
	var buf [8]scan.Span
	for i < len(content) && content[i] != ']' {
		end, ok := scan.SkipValue(content, i)
		if !ok {
			return n
		}
		block := content[i:end]
		if len(block) > 0 && block[0] == '{' {
			var typ session.RawValue
			if k := scan.SkipWS(block, 1); k < len(block) && bytes.HasPrefix(block[k:], []byte(`"type"`)) {
				members, _, ok := scanFirstMember(block, k)
				if ok {
					typ = members
				}
			}
			if typ == nil {
				members, _, _ := scan.ScanMembers(block, 0, buf[:0])
				typ = session.RawValue(scan.Lookup(members, "type"))
			}
			if t, _ := typ.Str(); t == session.BlockToolCall {
				n++
			}
		}
		i = scan.SkipWS(content, end)
		if i < len(content) && content[i] == ',' {
			i = scan.SkipWS(content, i+1)
		}
	}
	return n
}

// scanFirstMember reads the value of the member whose key starts at
// block[k] when it is a scalar followed by "," or "}".
func scanFirstMember(block []byte, k int) (session.RawValue, int, bool) {
	keyEnd, _, ok := scan.SkipString(block, k)
	if !ok {
		return nil, 0, false
	}
	i := scan.SkipWS(block, keyEnd)
	if i >= len(block) || block[i] != ':' {
		return nil, 0, false
	}
	i = scan.SkipWS(block, i+1)
	if i >= len(block) || block[i] == '{' || block[i] == '[' {
		return nil, 0, false
	}
	end, ok := scan.SkipScalar(block, i)
	if !ok {
		return nil, 0, false
	}
	return session.RawValue(block[i:end]), end, true
}

// nestedCallCount is len(nestedCalls.calls) when it is an array.
func nestedCallCount(raw session.RawValue) int {
	if len(raw) == 0 || raw[0] != '{' {
		return 0
	}
	var buf [8]scan.Span
	members, _, ok := scan.ScanMembers(raw, 0, buf[:0])
	if !ok {
		return 0
	}
	calls := scan.Lookup(members, "calls")
	if len(calls) == 0 || calls[0] != '[' {
		return 0
	}
	n := 0
	i := scan.SkipWS(calls, 1)
	if i < len(calls) && calls[i] == ']' {
		return 0
	}
	for i < len(calls) {
		end, ok := scan.SkipValue(calls, i)
		if !ok {
			return n
		}
		n++
		i = scan.SkipWS(calls, end)
		if i >= len(calls) || calls[i] != ',' {
			break
		}
		i++
	}
	return n
}
