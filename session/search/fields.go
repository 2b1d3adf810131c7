package search

import (
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/internal/rawjson"
)

// Roles of a hit: what kind of text matched. --role filters on the first
// five; custom messages are searched but have no filter of their own.
const (
	RoleUser      = "user"      // a user message
	RoleAssistant = "assistant" // assistant text and error messages
	RoleTool      = "tool"      // tool calls (name, argument values), tool results, bash commands and output
	RoleThinking  = "thinking"  // assistant thinking
	RoleSummary   = "summary"   // compaction and branch summaries
	RoleCustom    = "custom"    // custom messages (extensions, pi-subagent inbox deliveries)
)

// FilterRoles are the values --role accepts.
var FilterRoles = []string{RoleUser, RoleAssistant, RoleTool, RoleThinking, RoleSummary}

// maxArgDepth bounds how deep tool-call arguments are walked for strings.
const maxArgDepth = 64

// field is one searchable text of an entry: the body of a JSON string
// token (between its quotes) and where that body starts in the line.
type field struct {
	role string
	raw  []byte
	off  int
}

// fieldCollector gathers the searchable strings of one line.
type fieldCollector struct {
	line   []byte
	fields []field
}

// addString records a string value (with its quotes) as a field.
func (fc *fieldCollector) addString(role string, v []byte) {
	if len(v) < 2 || v[0] != '"' {
		return
	}
	off := cap(fc.line) - cap(v) + 1
	fc.fields = append(fc.fields, field{role: role, raw: v[1 : len(v)-1], off: off})
}

// entryFields lists the searchable texts of an entry line in file order.
// e is the line's eager decoding (session.ParseEntryLine); the line itself
// must be the slice the entry was parsed from, so offsets can be computed.
func entryFields(line []byte, e *session.Entry, dst []field) []field {
	fc := fieldCollector{line: line, fields: dst[:0]}
	if e.NotObject {
		return fc.fields
	}
	switch e.Type {
	case session.TypeMessage:
		msg := lastMember(line, "message")
		fc.message(e.Role, msg)
	case session.TypeCompaction, session.TypeBranchSummary:
		fc.addString(RoleSummary, lastMember(line, "summary"))
	case session.TypeCustomMessage:
		fc.content(RoleCustom, lastMember(line, "content"))
	}
	return fc.fields
}

// lastMember returns the last member named key of the object (JSON.parse
// keeps the last duplicate), as a slice of obj.
func lastMember(obj []byte, key string) []byte {
	var v [1][]byte
	lastMembers(obj, v[:], key)
	return v[0]
}

// lastMembers puts the last member named keys[i] of the object into
// out[i] (nil when absent), in one pass over obj.
func lastMembers(obj []byte, out [][]byte, keys ...string) {
	rawjson.EachMember(obj, func(k, v []byte) bool {
		for i, key := range keys {
			if rawjson.KeyEquals(k, key) {
				out[i] = v
				break
			}
		}
		return true
	})
}

func (fc *fieldCollector) message(role string, msg []byte) {
	if len(msg) == 0 || msg[0] != '{' {
		return
	}
	switch role {
	case session.RoleUser:
		fc.content(RoleUser, lastMember(msg, "content"))
	case session.RoleAssistant:
		var m [2][]byte
		lastMembers(msg, m[:], "content", "errorMessage")
		fc.assistantBlocks(m[0])
		fc.addString(RoleAssistant, m[1])
	case session.RoleToolResult:
		fc.content(RoleTool, lastMember(msg, "content"))
	case session.RoleBashExecution:
		var m [2][]byte
		lastMembers(msg, m[:], "command", "output")
		fc.addString(RoleTool, m[0])
		fc.addString(RoleTool, m[1])
	case session.RoleCustom, session.RoleHookMessage:
		fc.content(RoleCustom, lastMember(msg, "content"))
	case session.RoleBranchSummary, session.RoleCompactionSummary:
		fc.addString(RoleSummary, lastMember(msg, "summary"))
	}
}

// content records user-like content: a string, or the text of its text
// blocks.
func (fc *fieldCollector) content(role string, v []byte) {
	if len(v) == 0 {
		return
	}
	if v[0] == '"' {
		fc.addString(role, v)
		return
	}
	rawjson.EachElement(v, func(block []byte) bool {
		typ, text := blockMembers(block, "text")
		if typ == "text" {
			fc.addString(role, text)
		}
		return true
	})
}

// blockMembers returns a content block's type and the member named key.
func blockMembers(block []byte, key string) (string, []byte) {
	var m [2][]byte
	lastMembers(block, m[:], "type", key)
	s, _ := rawjson.String(m[0])
	return s, m[1]
}

// assistantBlocks records text, thinking and tool calls of an assistant
// message's content.
func (fc *fieldCollector) assistantBlocks(v []byte) {
	if len(v) > 0 && v[0] == '"' {
		fc.addString(RoleAssistant, v)
		return
	}
	rawjson.EachElement(v, func(block []byte) bool {
		var m [5][]byte // type, text, thinking, name, arguments
		lastMembers(block, m[:], "type", "text", "thinking", "name", "arguments")
		switch t, _ := rawjson.String(m[0]); t {
		case session.BlockText:
			fc.addString(RoleAssistant, m[1])
		case session.BlockThinking:
			fc.addString(RoleThinking, m[2])
		case session.BlockToolCall:
			fc.addString(RoleTool, m[3])
			fc.values(RoleTool, m[4], 0)
		}
		return true
	})
}

// values records every string value inside v (never an object key).
func (fc *fieldCollector) values(role string, v []byte, depth int) {
	if len(v) == 0 || depth > maxArgDepth {
		return
	}
	switch v[0] {
	case '"':
		fc.addString(role, v)
	case '{':
		// JSON.parse keeps the last of duplicated keys.
		var keys [][]byte
		var vals [][]byte
		rawjson.EachMember(v, func(k, m []byte) bool {
			for i, seen := range keys {
				if sameKey(seen, k) {
					vals[i] = m
					return true
				}
			}
			keys, vals = append(keys, k), append(vals, m)
			return true
		})
		for _, m := range vals {
			fc.values(role, m, depth+1)
		}
	case '[':
		rawjson.EachElement(v, func(el []byte) bool {
			fc.values(role, el, depth+1)
			return true
		})
	}
}

// sameKey compares two raw (still escaped) object keys.
func sameKey(a, b []byte) bool {
	if string(a) == string(b) {
		return true
	}
	sa, okA := rawjson.Unquote(a)
	sb, okB := rawjson.Unquote(b)
	return okA && okB && sa == sb
}
