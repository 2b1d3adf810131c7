package session

import (
	"fmt"
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session/internal/scan"
)

// Entry types written by Pi 1.6.0 (spec §3.3). Unknown types are kept as is.
const (
	TypeSession             = "session"
	TypeMessage             = "message"
	TypeModelChange         = "model_change"
	TypeThinkingLevelChange = "thinking_level_change"
	TypeUsage               = "usage"
	TypeCompaction          = "compaction"
	TypeBranchSummary       = "branch_summary"
	TypeCustom              = "custom"
	TypeCustomMessage       = "custom_message"
	TypeContextEdit         = "context_edit"
	TypeLabel               = "label"
	TypeSessionInfo         = "session_info"
)

// Message roles (spec §4.3). RoleHookMessage only exists in v2 files and is
// renamed to RoleCustom by migration.
const (
	RoleSystem            = "system"
	RoleUser              = "user"
	RoleAssistant         = "assistant"
	RoleToolResult        = "toolResult"
	RoleBashExecution     = "bashExecution"
	RoleCustom            = "custom"
	RoleBranchSummary     = "branchSummary"
	RoleCompactionSummary = "compactionSummary"
	RoleHookMessage       = "hookMessage"
)

// CurrentVersion is the session format version Pi 1.6.0 writes.
const CurrentVersion = 3

// Header is the first line of a session file (spec §3.1).
type Header struct {
	// Line is the 1-based line number of the header in the file.
	Line int
	// ID is the session id (authoritative; never parse the file name).
	ID string
	// Timestamp is the ISO creation time ("" when missing).
	Timestamp string
	// Cwd is the working directory ("" when missing in very old files).
	Cwd string
	// ParentSession is the absolute path of the file this one was forked from.
	ParentSession string
	// FileVersion is the version stored in the file (1 when absent).
	FileVersion float64
	// Raw is the header line exactly as read.
	Raw []byte
}

// Entry is one non-header line of a session file that parsed as JSON. The
// common fields are decoded eagerly; everything else stays in Raw and is
// decoded on demand (Field, Value, Payload).
type Entry struct {
	// Line is the 1-based line number in the file.
	Line int
	// Type is the entry type ("" when missing or not a string).
	Type string
	// ID is the entry id (after migration for v1 files).
	ID string
	// ParentID is the parent id ("" for a root).
	ParentID string
	// Timestamp is the ISO-8601 entry timestamp ("" when not a string).
	Timestamp string
	// Role is message.role for message entries ("" otherwise), after migration.
	Role string
	// Raw is the line exactly as read (the original, pre-migration JSON).
	Raw []byte

	timestampMs float64 // new Date(timestamp).getTime(), NaN when invalid
	message     rawSpan // the "message" member of message entries
	provider    rawSpan // assistant message provider
	model       rawSpan // assistant message model
	usage       rawSpan // message.usage of message entries
	// firstKept holds a firstKeptEntryId produced by migration (nil otherwise).
	firstKept *string

	// The flags sit together so the struct packs tightly: a session holds
	// one Entry per line.

	// HasID is false when the id is missing or not a string.
	HasID bool
	// HasParent is false for null, missing or non-string parents (a root).
	HasParent bool
	// NotObject marks a line holding a truthy JSON value that is not an
	// object; Pi keeps such values as entries without type or id.
	NotObject bool
	// Migrated marks entries whose id/parentId (and compaction
	// firstKeptEntryId) were assigned by the v1→v2 migration.
	Migrated bool

	roleRenamed bool // hookMessage → custom
	// firstKeptUndefined: migration set firstKeptEntryId to undefined (the
	// index named an entry after the compaction, which had no id yet).
	firstKeptUndefined bool
	// firstKeptIndexDeleted: migration converted and deleted a numeric
	// firstKeptEntryIndex.
	firstKeptIndexDeleted bool
}

// rawSpan locates a value inside Entry.Raw; the zero span means absent
// (a member value never ends at offset 0).
type rawSpan struct{ start, end uint32 }

func spanOf(raw []byte, v RawValue) rawSpan {
	if v == nil {
		return rawSpan{}
	}
	// v is a sub-slice of raw, so their capacities differ by v's offset.
	off := cap(raw) - cap(v)
	return rawSpan{start: uint32(off), end: uint32(off + len(v))}
}

func (sp rawSpan) in(raw []byte) RawValue {
	if sp.end == 0 {
		return nil
	}
	return RawValue(raw[sp.start:sp.end:sp.end])
}

// Field returns the raw value of a top-level member of the entry as stored
// in the file (last duplicate wins); nil when absent. Migrated id/parentId
// values are not reflected here; use Value for the migrated object.
func (e *Entry) Field(name string) RawValue {
	if e.NotObject {
		return nil
	}
	var buf [16]scan.Span
	members, _, ok := scan.ScanMembers(e.Raw, scan.SkipWS(e.Raw, 0), buf[:0])
	if !ok {
		return nil
	}
	return lookup(members, name)
}

// TimestampMs returns new Date(timestamp).getTime() for the entry (NaN
// when the timestamp is missing or unparsable).
func (e *Entry) TimestampMs() float64 { return e.timestampMs }

// MessageRaw returns the raw "message" member of a message entry.
func (e *Entry) MessageRaw() RawValue { return e.message.in(e.Raw) }

// MessageProvider returns message.provider of an assistant message entry,
// located when the line was read (nil when absent or another entry).
func (e *Entry) MessageProvider() RawValue { return e.provider.in(e.Raw) }

// MessageModel returns message.model of an assistant message entry,
// located when the line was read (nil when absent or another entry).
func (e *Entry) MessageModel() RawValue { return e.model.in(e.Raw) }

// MessageField returns a top-level member of the entry's message object.
func (e *Entry) MessageField(name string) RawValue {
	msg := e.message.in(e.Raw)
	if len(msg) == 0 || msg[0] != '{' {
		return nil
	}
	if name == "role" && e.roleRenamed {
		return RawValue(`"custom"`)
	}
	var buf [16]scan.Span
	members, _, ok := scan.ScanMembers(msg, 0, buf[:0])
	if !ok {
		return nil
	}
	return lookup(members, name)
}

// FirstKeptEntryID returns a compaction's firstKeptEntryId (after migration).
func (e *Entry) FirstKeptEntryID() (string, bool) {
	if e.firstKept != nil {
		return *e.firstKept, true
	}
	if e.firstKeptUndefined {
		return "", false
	}
	return e.Field("firstKeptEntryId").Str()
}

// Value decodes the whole entry into the jsonv model with the in-memory
// migration applied (v1 ids, firstKeptEntryId, hookMessage → custom).
func (e *Entry) Value() (any, error) {
	v, err := jsonv.Parse(e.Raw)
	if err != nil {
		return nil, fmt.Errorf("decode entry on line %d: %w", e.Line, err)
	}
	obj, ok := v.(*jsonv.Object)
	if !ok {
		return v, nil
	}
	if e.Migrated {
		obj.Set("id", e.ID)
		if e.HasParent {
			obj.Set("parentId", e.ParentID)
		} else {
			obj.Set("parentId", nil)
		}
		if e.firstKeptIndexDeleted {
			switch {
			case e.firstKept != nil:
				obj.Set("firstKeptEntryId", *e.firstKept)
			case e.firstKeptUndefined:
				obj.Delete("firstKeptEntryId")
			}
			obj.Delete("firstKeptEntryIndex")
		}
	}
	if e.roleRenamed {
		if m, ok := obj.Get("message"); ok {
			if mo, ok := m.(*jsonv.Object); ok {
				mo.Set("role", RoleCustom)
			}
		}
	}
	return obj, nil
}

// MessageValue decodes the message of a message entry (migration applied).
func (e *Entry) MessageValue() (any, error) {
	msg := e.message.in(e.Raw)
	if msg == nil {
		return nil, nil
	}
	v, err := jsonv.Parse(msg)
	if err != nil {
		return nil, fmt.Errorf("decode message on line %d: %w", e.Line, err)
	}
	if e.roleRenamed {
		if mo, ok := v.(*jsonv.Object); ok {
			mo.Set("role", RoleCustom)
		}
	}
	return v, nil
}

// LineKind is what Pi's loader makes of one physical line.
type LineKind uint8

// The kinds of line; Pi skips all but LineEntry (counted in Diagnostics).
const (
	LineBlank     LineKind = iota // empty or JavaScript whitespace only
	LineMalformed                 // not valid JSON
	LineFalsy                     // valid JSON whose value is falsy (skipped by Pi)
	LineEntry                     // an entry (object or truthy non-object value)
)

// lineScratch holds per-worker buffers reused across lines.
type lineScratch struct {
	members []scan.Span
	message []scan.Span
}

// parseLine validates one line and decodes its eager fields.
func parseLine(line []byte, no int, sc *lineScratch) (LineKind, Entry) {
	i := scan.SkipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		end, ok := scan.SkipValue(line, i)
		if !ok || scan.SkipWS(line, end) != len(line) {
			return classifyBad(line), Entry{}
		}
		if !RawValue(line[i:end]).Truthy() {
			return LineFalsy, Entry{}
		}
		return LineEntry, Entry{Line: no, Raw: line, NotObject: true, timestampMs: math.NaN()}
	}
	sc.message = sc.message[:0]
	members, message, end, ok := scan.ScanObject(line, i, sc.members[:0], "message", sc.message[:0])
	sc.members, sc.message = members, message
	if !ok || scan.SkipWS(line, end) != len(line) {
		return classifyBad(line), Entry{}
	}
	e := Entry{Line: no, Raw: line}
	e.Type, _ = lookup(members, "type").Str()
	e.Type = internType(e.Type)
	e.ID, e.HasID = lookup(members, "id").Str()
	e.ParentID, e.HasParent = lookup(members, "parentId").Str()
	tsRaw := lookup(members, "timestamp")
	e.Timestamp, _ = tsRaw.Str()
	e.timestampMs = DateMs(tsRaw)
	if e.Type == TypeMessage {
		msg := lookup(members, "message")
		e.message = spanOf(line, msg)
		if len(msg) > 0 && msg[0] == '{' {
			e.Role, _ = lookup(sc.message, "role").Str()
			e.Role = internRole(e.Role)
			e.usage = spanOf(line, lookup(sc.message, "usage"))
			if e.Role == RoleAssistant {
				e.provider = spanOf(line, lookup(sc.message, "provider"))
				e.model = spanOf(line, lookup(sc.message, "model"))
			}
		}
	}
	return LineEntry, e
}

// internType returns the package constant equal to a known entry type, so
// the type strings of a session share one copy (equal pointers compare
// without reading memory) instead of pointing into the file.
func internType(t string) string {
	switch t {
	case TypeMessage:
		return TypeMessage
	case TypeModelChange:
		return TypeModelChange
	case TypeThinkingLevelChange:
		return TypeThinkingLevelChange
	case TypeUsage:
		return TypeUsage
	case TypeCompaction:
		return TypeCompaction
	case TypeBranchSummary:
		return TypeBranchSummary
	case TypeCustom:
		return TypeCustom
	case TypeCustomMessage:
		return TypeCustomMessage
	case TypeContextEdit:
		return TypeContextEdit
	case TypeLabel:
		return TypeLabel
	case TypeSessionInfo:
		return TypeSessionInfo
	case TypeSession:
		return TypeSession
	}
	return t
}

// internRole is internType for message roles.
func internRole(r string) string {
	switch r {
	case RoleUser:
		return RoleUser
	case RoleAssistant:
		return RoleAssistant
	case RoleToolResult:
		return RoleToolResult
	case RoleSystem:
		return RoleSystem
	case RoleBashExecution:
		return RoleBashExecution
	case RoleCustom:
		return RoleCustom
	case RoleBranchSummary:
		return RoleBranchSummary
	case RoleCompactionSummary:
		return RoleCompactionSummary
	}
	return r
}

// UsageRaw returns message.usage of a message entry (its place is
// recorded when the line is read), as MessageField("usage") would.
func (e *Entry) UsageRaw() RawValue { return e.usage.in(e.Raw) }

// classifyBad tells a blank line (skipped by Pi's trim check) from a
// malformed one (skipped after JSON.parse fails).
func classifyBad(line []byte) LineKind {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f' {
			if c < 0x80 {
				return LineMalformed
			}
			if jsonv.TrimJS(string(line)) == "" {
				return LineBlank
			}
			return LineMalformed
		}
	}
	return LineBlank
}
