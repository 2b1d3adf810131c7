package session

import (
	"strconv"

	"github.com/forgebench/forgebench/session/internal/scan"
)

// The summaries of the small entry types whose text is a few string
// fields (thinking_level_change, session_info, label, custom,
// branch_summary, usage) are read from the raw line, as a message's are
// (summary_raw.go), instead of through encoding/json: a tree describes
// every entry, and the decoder cost as much for these few as the raw
// reading for all messages. The reading takes only the shapes it can
// vouch for and leaves every other to describeDecoded;
// FuzzDescribeEntryRawTypes compares the two on arbitrary lines.

// entryReads is, per entry type read raw, the JSON names of its struct's
// fields (encoding/json matches a key to any of them case-insensitively)
// and the fields its summary reads, in the order describeEntryRaw takes
// them.
var entryReads = map[string]struct {
	fields *fieldSet
	reads  []string
}{
	TypeThinkingLevelChange: {fieldNames(`thinkingLevel`), []string{"thinkingLevel"}},
	TypeSessionInfo:         {fieldNames(`name`), []string{"name"}},
	TypeLabel:               {fieldNames(`targetId label`), []string{"targetId", "label"}},
	TypeCustom:              {fieldNames(`customType data`), []string{"customType"}},
	TypeBranchSummary:       {fieldNames(`fromId summary details usage fromHook`), []string{"summary"}},
	TypeUsage:               {fieldNames(`kind provider model usage note`), []string{"kind", "provider", "model", "usage"}},
}

// describeEntryRaw describes an entry of a type in entryReads from its raw
// line, its text clipped to runes; ok is false for any other entry and
// for a line the decoder could read differently (a key in another letter
// case or escaped, a field the summary reads given twice or with a value
// of another type, nesting deeper than the decoder takes).
func describeEntryRaw(e *Entry, runes int) (EntrySummary, bool) {
	r, ok := entryReads[e.Type]
	if !ok {
		return EntrySummary{}, false
	}
	var v [4]RawValue
	if !readMembers(e.Raw, r.fields, r.reads, v[:]) {
		return EntrySummary{}, false
	}
	s := EntrySummary{Kind: e.Type}
	switch e.Type {
	case TypeThinkingLevelChange, TypeCustom, TypeBranchSummary:
		s.Text, ok = stringField(v[0])
	case TypeSessionInfo:
		var name string
		var set bool
		if name, set, ok = pointerField(v[0]); set {
			s.Text = "name " + strconv.Quote(name)
		} else {
			s.Text = "name cleared"
		}
	case TypeLabel:
		target, ok1 := stringField(v[0])
		label, set, ok2 := pointerField(v[1])
		ok = ok1 && ok2
		if set {
			s.Text = target + " → " + strconv.Quote(label)
		} else {
			s.Text = target + " (label cleared)"
		}
	case TypeUsage:
		kind, ok1 := stringField(v[0])
		provider, ok2 := stringField(v[1])
		model, ok3 := stringField(v[2])
		ok = ok1 && ok2 && ok3
		s.Text = kind + " · " + provider + "/" + model
		s.Tokens = totalTokens(v[3])
	}
	if !ok {
		return EntrySummary{}, false
	}
	return finish(s, runes), true
}

// readMembers puts the values of the entry object's members named in
// reads into out (nil when absent). It refuses an object the decoder
// could read differently: a key it could match in another way (fieldOf),
// a member read given twice, nesting deeper than the decoder's limit.
func readMembers(raw []byte, fields *fieldSet, reads []string, out []RawValue) bool {
	i := scan.SkipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' || deeperThanDecoder(raw) {
		return false
	}
	var buf [16]scan.Span
	members, _ := scan.MembersOf(raw, i, buf[:0])
	for _, sp := range members {
		name, ok := fieldOf(sp, fields)
		if !ok {
			return false
		}
		for k, want := range reads {
			if name == want {
				if out[k] != nil {
					return false
				}
				out[k] = RawValue(sp.Value)
			}
		}
	}
	return true
}

// stringField is a string field as the decoder leaves it: "" when absent
// or null; ok is false for a value of another type.
func stringField(v RawValue) (string, bool) {
	if v == nil || v.IsNull() {
		return "", true
	}
	return decodedString(v)
}

// decodedString is a JSON string value as encoding/json decodes it (each
// invalid byte, each unpaired surrogate a U+FFFD: summaryText.str).
func decodedString(v RawValue) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	t := summaryText{max: 3 * len(v)} // a byte of the value is at most three of the text
	t.str(v)
	return string(t.b), true
}

// pointerField is a *string field: set when it holds a string; ok is false
// for a value of another type.
func pointerField(v RawValue) (s string, set, ok bool) {
	if v == nil || v.IsNull() {
		return "", false, true
	}
	s, ok = decodedString(v)
	return s, ok, ok
}
