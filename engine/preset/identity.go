package preset

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// maxToolNameLength is the UTF-16 length limit of a concrete tool name (§1.4).
const maxToolNameLength = 128

// IsValidResourceID reports whether id matches ^[A-Za-z0-9][A-Za-z0-9._-]*$ (§1.1).
func IsValidResourceID(id string) bool {
	if id == "" || !isASCIIAlnum(id[0]) {
		return false
	}
	for i := 1; i < len(id); i++ {
		c := id[i]
		if !isASCIIAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// invalidResourceIDMessage is the selector error for a malformed id part.
func invalidResourceIDMessage(id string) string {
	return "Invalid resource id: " + id + ". Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."
}

// ParseSelector parses "<id>", "project:<id>" or "global:<id>" (after a
// JavaScript trim) with pi-forge's exact error messages (§1.1). The error
// string is "" on success.
func ParseSelector(input string) (Selector, string) {
	trimmed := jsonv.TrimJS(input)
	if trimmed == "" {
		return Selector{}, "Resource selector must not be empty."
	}
	colon := strings.IndexByte(trimmed, ':')
	if colon < 0 {
		if !IsValidResourceID(trimmed) {
			return Selector{}, invalidResourceIDMessage(trimmed)
		}
		return Selector{ID: trimmed}, ""
	}
	scopePart, idPart := trimmed[:colon], trimmed[colon+1:]
	if scopePart != string(ScopeProject) && scopePart != string(ScopeGlobal) {
		return Selector{}, "Unknown scope prefix: " + scopePart + `. Expected "project" or "global".`
	}
	if !IsValidResourceID(idPart) {
		return Selector{}, invalidResourceIDMessage(idPart)
	}
	return Selector{Scope: Scope(scopePart), ID: idPart}, ""
}

// String formats the selector as "scope:id" or the bare id.
func (s Selector) String() string {
	if s.Scope == "" {
		return s.ID
	}
	return string(s.Scope) + ":" + s.ID
}

// IsValidToolName reports whether name is a concrete tool name (§1.4): 1..128
// UTF-16 code units, no JavaScript whitespace, no control characters
// [\x00-\x1F\x7F] and no wildcard * or ?.
func IsValidToolName(name string) bool {
	n := jsonv.UTF16Len(name)
	if n == 0 || n > maxToolNameLength {
		return false
	}
	return toolNameFault(name) == ""
}

// toolNameFault classifies the first problem of a non-empty tool name in the
// order pi-forge checks it: "whitespace", "control", "wildcard" or "".
func toolNameFault(name string) string {
	for _, r := range name {
		if jsonv.IsJSSpace(r) {
			return "whitespace"
		}
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return "control"
		}
	}
	if strings.ContainsAny(name, "*?") {
		return "wildcard"
	}
	return ""
}
