package stats

import (
	"bytes"
	"strings"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/internal/scan"
)

// The digest's fast path: message entries whose content a digest never
// needs are framed by their structure instead of being validated byte by
// byte.

// Roles whose content a digest never needs (tool results only for usage
// and nested calls, which send the line to the full parser).
var sniffRoles = map[string]string{
	session.RoleUser: session.RoleUser, session.RoleToolResult: session.RoleToolResult, session.RoleBashExecution: session.RoleBashExecution,
	session.RoleSystem: session.RoleSystem, session.RoleBranchSummary: session.RoleBranchSummary, session.RoleCompactionSummary: session.RoleCompactionSummary,
}

var sniffKeys = [...]string{"type", "id", "parentId", "timestamp"}

// sniffMessage frames a message entry whose role needs no content, in any
// key order: every key of the entry and of its message is read exactly; the
// four header fields must be valid scalars, message.role a valid string and
// "message" an object; every other value is skipped by structure only
// (skipLoose), which is the documented difference from Pi's loader (see
// Digest). ok is false for anything else (another type or role, a usage or
// nestedCalls member, a duplicate key, an escaped key, a malformed frame);
// the caller then parses the line fully.
func sniffMessage(line []byte) (DigestEntry, bool) {
	var e DigestEntry
	n := len(line)
	for n > 0 && (line[n-1] == ' ' || line[n-1] == '\t' || line[n-1] == '\r') {
		n--
	}
	if n == 0 || line[n-1] != '}' {
		return e, false
	}
	var raws [len(sniffKeys)]session.RawValue
	var role string
	seenMessage := false
	i, ok := eachKey(line[:n], scan.SkipWS(line, 0), func(key []byte, at int) (int, bool) {
		for k, name := range sniffKeys {
			if string(key) == name {
				if raws[k] != nil || line[at] == '{' || line[at] == '[' {
					return 0, false
				}
				end, ok := scan.SkipScalar(line, at)
				if !ok {
					return 0, false
				}
				raws[k] = session.RawValue(line[at:end])
				return end, true
			}
		}
		if string(key) != "message" {
			return skipLoose(line[:n], at)
		}
		if seenMessage || line[at] != '{' {
			return 0, false
		}
		seenMessage = true
		return eachKey(line[:n], at, func(mkey []byte, mat int) (int, bool) {
			switch string(mkey) {
			case "usage", "nestedCalls":
				return 0, false
			case "role":
				if role != "" || line[mat] != '"' {
					return 0, false
				}
				end, _, ok := scan.SkipString(line, mat)
				if !ok {
					return 0, false
				}
				r, _ := session.RawValue(line[mat:end]).Str()
				role = r
				return end, role != ""
			}
			return skipLoose(line[:n], mat)
		})
	})
	if !ok || scan.SkipWS(line, i) != len(line) {
		return e, false
	}
	typ, _ := raws[0].Str()
	canonical, fast := sniffRoles[role]
	if typ != session.TypeMessage || !fast || raws[3] == nil {
		return e, false
	}
	e.Type, e.Role = session.TypeMessage, canonical
	e.ID, e.HasID = raws[1].Str()
	e.ParentID, e.HasParent = raws[2].Str()
	e.ID, e.ParentID = strings.Clone(e.ID), strings.Clone(e.ParentID)
	e.TimestampMs = session.DateMs(raws[3])
	e.rec = statRecord{isMessage: true, role: canonical}
	return e, true
}

// eachKey walks the object starting at d[i] == '{': for each member it
// reads the key exactly (escaped keys stop the walk) and lets value skip
// the value starting at the given index, returning where it ends. It
// returns the index after the closing brace.
func eachKey(d []byte, i int, value func(key []byte, at int) (int, bool)) (int, bool) {
	if i >= len(d) || d[i] != '{' {
		return 0, false
	}
	i = scan.SkipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return 0, false
		}
		keyEnd, escaped, ok := scan.SkipString(d, i)
		if !ok || escaped {
			return 0, false
		}
		key := d[i+1 : keyEnd-1]
		i = scan.SkipWS(d, keyEnd)
		if i >= len(d) || d[i] != ':' {
			return 0, false
		}
		i = scan.SkipWS(d, i+1)
		if i >= len(d) {
			return 0, false
		}
		if i, ok = value(key, i); !ok {
			return 0, false
		}
		i = scan.SkipWS(d, i)
		if i >= len(d) {
			return 0, false
		}
		if d[i] == '}' {
			return i + 1, true
		}
		if d[i] != ',' {
			return 0, false
		}
		i = scan.SkipWS(d, i+1)
	}
}

// skipLoose skips the JSON value at d[i] by its structure only: strings
// end at the next unescaped quote (found with IndexByte), and scalars at the
// next delimiter. It is for content a digest never reads.
func skipLoose(d []byte, i int) (int, bool) {
	if i >= len(d) {
		return 0, false
	}
	switch d[i] {
	case '"':
		return skipStringLoose(d, i)
	case '{', '[':
	default:
		for i < len(d) {
			switch d[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i, true
			case '"', '{', '[', ':':
				return 0, false
			}
			i++
		}
		return 0, false
	}
	depth := 0
	for i < len(d) {
		switch d[i] {
		case '"':
			end, ok := skipStringLoose(d, i)
			if !ok {
				return 0, false
			}
			i = end
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return 0, false
}

// skipStringLoose returns the index after the string starting at d[i] ==
// '"': the first quote preceded by an even number of backslashes.
func skipStringLoose(d []byte, i int) (int, bool) {
	j := i + 1
	for {
		k := bytes.IndexByte(d[j:], '"')
		if k < 0 {
			return 0, false
		}
		q := j + k
		b := 0
		for p := q - 1; p > i && d[p] == '\\'; p-- {
			b++
		}
		if b%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
}
