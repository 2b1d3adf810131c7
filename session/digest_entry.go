package session

import (
	"bytes"

	"github.com/forgebench/forgebench/session/internal/scan"
)

// How a digest reads the entries it parses fully.

// digestEntry extracts what a digest keeps from a fully parsed entry.
func digestEntry(e *Entry) DigestEntry {
	if e.Role == RoleAssistant {
		var buf [24]scan.Span
		members, _, _ := scan.ScanMembers(e.MessageRaw(), 0, buf[:0])
		return assistantEntry(e, members)
	}
	de := DigestEntry{
		Line: e.Line, Type: e.Type, Role: e.Role,
		ID: e.ID, HasID: e.HasID, ParentID: e.ParentID, HasParent: e.HasParent,
		TimestampMs: e.timestampMs,
		rec:         readStatRecord(e, nil),
	}
	switch e.Type {
	case TypeCustom, TypeCustomMessage:
		de.CustomType, _ = e.Field("customType").Str()
	case TypeMessage:
		switch e.Role {
		case RoleCustom:
			de.CustomType, _ = e.MessageField("customType").Str()
		case RoleToolResult:
			de.NestedCalls = nestedCallCount(e.MessageField("nestedCalls"))
		}
	}
	return de
}

// assistantEntry reads an assistant message from its scanned members in one
// pass: what readStatRecord counts plus the model, stop reason and
// thinking level.
func assistantEntry(e *Entry, msg []scan.Span) DigestEntry {
	de := DigestEntry{
		Line: e.Line, Type: e.Type, Role: e.Role,
		ID: e.ID, HasID: e.HasID, ParentID: e.ParentID, HasParent: e.HasParent,
		TimestampMs: e.timestampMs,
	}
	r := &de.rec
	r.isMessage, r.role = true, RoleAssistant
	provider, model := lookup(msg, "provider"), lookup(msg, "model")
	responseModel := lookup(msg, "responseModel")
	de.Provider, _ = provider.Str()
	de.Model, _ = model.Str()
	de.ResponseModel, _ = responseModel.Str()
	de.StopReason, _ = lookup(msg, "stopReason").Str()
	de.ThinkingLevel, _ = lookup(msg, "thinkingLevel").Str()
	if de.ThinkingLevel == "" {
		de.ThinkingLevel, _ = lookup(msg, "providerThinkingLevel").Str()
	}
	r.toolCalls = countToolCalls(lookup(msg, "content"))
	keyModel := responseModel
	if responseModel.Nullish() {
		keyModel = model
	}
	p, m := jsStringOf(provider), jsStringOf(model)
	r.readUsage(lookup(msg, "usage"), p+"/"+jsStringOf(keyModel), p, m)
	return de
}

// countToolCalls counts the blocks of a validated content array whose type
// is "toolCall" (the type is normally the first member of a block).
func countToolCalls(content RawValue) int {
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
			var typ RawValue
			if k := scan.SkipWS(block, 1); k < len(block) && bytes.HasPrefix(block[k:], []byte(`"type"`)) {
				members, _, ok := scanFirstMember(block, k)
				if ok {
					typ = members
				}
			}
			if typ == nil {
				members, _, _ := scan.ScanMembers(block, 0, buf[:0])
				typ = lookup(members, "type")
			}
			if t, _ := typ.Str(); t == BlockToolCall {
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
func scanFirstMember(block []byte, k int) (RawValue, int, bool) {
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
	return RawValue(block[i:end]), end, true
}

// nestedCallCount is len(nestedCalls.calls) when it is an array.
func nestedCallCount(raw RawValue) int {
	if len(raw) == 0 || raw[0] != '{' {
		return 0
	}
	var buf [8]scan.Span
	members, _, ok := scan.ScanMembers(raw, 0, buf[:0])
	if !ok {
		return 0
	}
	calls := lookup(members, "calls")
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
