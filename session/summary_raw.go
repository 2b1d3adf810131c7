package session

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session/internal/scan"
)

// A summary shows at most summaryRunes runes of an entry's text, so the
// text is built from the raw line up to a byte budget instead of decoding
// the whole body: the budget grows only while the folded text is too
// short to decide the clip. Clip(Fold(prefix)) equals Clip(Fold(text))
// once the prefix folds to more than summaryRunes runes (sanitize's
// filters are streaming, so the prefix's output is a prefix of the
// text's), and clipSummary tells when that is the case.
//
// The result must be exactly what decoding the message with
// encoding/json (Entry.Message) gives, so the raw reading only takes the
// shapes it can vouch for and leaves everything else to the decoder:
// FuzzDescribeEntryRaw compares the two on arbitrary lines.

// summaryFirstBudget is the first byte budget of a summary's text.
const summaryFirstBudget = 1 << 10

// describeMessageRaw describes a message entry from its raw line, its text
// clipped to runes (1 … summaryRunes), reading first bytes of its text and
// more only when needed; Tokens and ToolCalls only when counts is true.
// ok is false when the message takes a shape only the decoder reads
// exactly.
func describeMessageRaw(e *Entry, first, runes int, counts bool) (EntrySummary, bool) {
	msg := e.MessageRaw()
	if e.Role == RoleSystem || len(msg) == 0 || msg[0] != '{' || deeperThanDecoder(msg) {
		return EntrySummary{}, false
	}
	var buf [16]scan.Span
	var blockBuf [8]rawBlock
	members, blocks, ok := scanMessage(msg, buf[:0], blockBuf[:0])
	if !ok {
		return EntrySummary{}, false
	}
	var m rawMessage
	if !m.read(members) {
		return EntrySummary{}, false
	}
	s := EntrySummary{Kind: e.Role}
	if counts {
		s.Tokens = totalTokens(m.usage)
		switch e.Role {
		case RoleToolResult, RoleBashExecution, RoleBranchSummary, RoleCompactionSummary:
		default: // the roles whose summary lists content blocks
			for _, b := range blocks {
				if b.is(BlockToolCall) {
					s.ToolCalls++
				}
			}
		}
	}
	text := textBuffers.Get().(*[]byte)
	defer func() {
		if cap(*text) <= 16*summaryFirstBudget { // a text that was all white space may have grown it
			textBuffers.Put(text)
		}
	}()
	// Folded and clipped while it is decoded, up to the rune past the
	// clip: the text needs no more than that unless it holds something
	// only the whole sanitiser handles.
	t := summaryText{folding: true}
	t.clip.Reset(runes, *text)
	m.text(e.Role, blocks, &t)
	*text = t.clip.Buffer()
	if clipped, ok := t.clip.Result(); ok {
		s.Text = clipped
		return s, true
	}
	for budget := max(first, 1); ; budget *= 4 {
		t := summaryText{b: (*text)[:0], max: budget}
		m.text(e.Role, blocks, &t)
		*text = t.b
		if clipped, done := clipSummary(string(t.b), t.cut, runes); done {
			s.Text = clipped
			return s, true
		}
	}
}

// textBuffers holds the buffers summaries are collected in.
var textBuffers = sync.Pool{New: func() any { b := make([]byte, 0, summaryFirstBudget); return &b }}

// totalTokens is int(Usage.TotalTokens) of a message's usage member as
// the decoder gives it: a number that fits a float64, else 0. A usage
// whose totalTokens the decoder could match differently goes to it.
func totalTokens(usage RawValue) int {
	if len(usage) == 0 || usage[0] != '{' {
		return 0
	}
	var buf [16]scan.Span
	members, _ := scan.MembersOf(usage, 0, buf[:0])
	var total RawValue
	for _, sp := range members {
		if name, ok := fieldOf(sp, usageFields); !ok || name == "totalTokens" && total != nil {
			var u Usage
			_ = lenientUnmarshal(usage, &u)
			return int(u.TotalTokens)
		} else if name == "totalTokens" {
			total = RawValue(sp.Value)
		}
	}
	if len(total) == 0 || total[0] != '-' && !scan.IsDigit(total[0]) {
		return 0
	}
	f, err := strconv.ParseFloat(string(total), 64)
	if err != nil {
		return 0
	}
	return int(f)
}

// usageFields are the JSON names of Usage's fields.
var usageFields = fieldNames(`input output cacheRead cacheWrite cacheWrite1h reasoning totalTokens cost`)

// clipSummary clips a prefix of a summary's text to runes (≥ 1; cut says
// the text went on) and reports whether the clip is the whole text's:
// always when nothing was cut, else when the clip ends in "…" at full
// length — the prefix folded to more runes than fit, or to exactly as
// many ending in "…", which is then also the whole text's clip.
func clipSummary(prefix string, cut bool, runes int) (string, bool) {
	out := sanitize.Clip(prefix, runes)
	if !cut {
		return out, true
	}
	return out, strings.HasSuffix(out, "…") && utf8.RuneCountInString(out) == runes
}

// rawMessage holds the members of a message object that its summary
// reads (nil when absent).
type rawMessage struct {
	content, toolName, isError, command, summary, stopReason, errorMessage, usage RawValue
}

// messageFields are the JSON names of Message's fields: encoding/json
// matches a key to one of them case-insensitively.
var messageFields = fieldNames(`role content timestamp sections toolsAdded toolsRemoved api provider model
	responseModel responseId providerThinkingLevel thinkingLevel diagnostics usage stopReason deferred
	errorMessage rawStopReason endTurn durationMs toolCallId toolName details nestedCalls isError command
	output exitCode cancelled truncated fullOutputPath excludeFromContext customType display summary fromId
	tokensBefore`)

// read picks the summary's members. It refuses a key the decoder could
// match differently (escaped, not ASCII, another case of a field name), a
// member the summary reads given twice, and a member of the wrong type.
func (m *rawMessage) read(members []scan.Span) bool {
	for _, sp := range members {
		name, ok := fieldOf(sp, messageFields)
		if !ok {
			return false
		}
		v := RawValue(sp.Value)
		var dst *RawValue
		kind := kindString
		switch name {
		case "":
			continue
		case "content":
			dst, kind = &m.content, kindAny
		case "toolName":
			dst = &m.toolName
		case "isError":
			dst, kind = &m.isError, kindBool
		case "command":
			dst = &m.command
		case "summary":
			dst = &m.summary
		case "stopReason":
			dst = &m.stopReason
		case "errorMessage":
			dst = &m.errorMessage
		case "usage":
			dst, kind = &m.usage, kindAny
		default:
			continue
		}
		if *dst != nil || !kind.fits(v) {
			return false
		}
		*dst = v
	}
	return true
}

// rawBlock is one element of a content array: its type, text, name and
// arguments (nil when absent; the whole block nil for a null element).
type rawBlock struct {
	typ, text, name, arguments RawValue
}

func (b rawBlock) is(typ string) bool {
	if len(b.typ) == len(typ)+2 && string(b.typ[1:len(b.typ)-1]) == typ {
		return b.typ[0] == '"'
	}
	return bytes.IndexByte(b.typ, '\\') >= 0 && b.typ.StrOr("") == typ
}

// blockFields are the JSON names of ContentBlock's fields and the types
// that decode without error (a type error inside a content array stops
// the decoder at the content, so every field counts).
var blockFields = fieldNames(`type text textSignature thinking thinkingSignature redacted data mimeType id name
	arguments thoughtSignature namespace argumentsError`)

// scanMessage lists the members of a message object (the reader
// validated it as JSON, so it is walked with membersOf's helpers) and
// reads the blocks of a content array on the way instead of skipping it
// first; ok is false when a content array holds what readBlocks does not
// take.
func scanMessage(msg []byte, members []scan.Span, blocks []rawBlock) ([]scan.Span, []rawBlock, bool) {
	i := scan.SkipWS(msg, 1)
	if i < len(msg) && msg[i] == '}' {
		return members, blocks, true
	}
	for i < len(msg) {
		keyEnd := scan.EndOfString(msg, i)
		key := msg[i+1 : keyEnd-1]
		escaped := bytes.IndexByte(key, '\\') >= 0
		i = scan.SkipWS(msg, scan.SkipWS(msg, keyEnd)+1) // past the colon
		start := i
		if !escaped && string(key) == "content" && msg[i] == '[' {
			var ok bool
			if blocks, i, ok = readBlocks(msg, i, blocks[:0]); !ok {
				return nil, nil, false
			}
		} else {
			i = scan.EndOfValue(msg, i)
		}
		members = append(members, scan.Span{Key: key, Escaped: escaped, Value: msg[start:i]})
		i = scan.SkipWS(msg, i)
		if i >= len(msg) || msg[i] == '}' {
			break
		}
		i = scan.SkipWS(msg, i+1) // past the comma
	}
	return members, blocks, true
}

// readBlocks appends the blocks of the content array at d[i] (valid
// JSON) when its elements are objects or null and their fields all have
// the types ContentBlock declares; it returns the index after the array.
func readBlocks(d []byte, i int, blocks []rawBlock) ([]rawBlock, int, bool) {
	var buf [8]scan.Span
	i = scan.SkipWS(d, i+1)
	if i < len(d) && d[i] == ']' {
		return blocks, i + 1, true
	}
	for {
		var b rawBlock
		switch {
		case bytes.HasPrefix(d[i:], []byte("null")):
			i += 4
		case d[i] == '{':
			members, end := scan.MembersOf(d, i, buf[:0])
			if !b.read(members) {
				return nil, 0, false
			}
			i = end
		default:
			return nil, 0, false
		}
		blocks = append(blocks, b)
		i = scan.SkipWS(d, i)
		if i >= len(d) {
			return nil, 0, false
		}
		if d[i] == ']' {
			return blocks, i + 1, true
		}
		i = scan.SkipWS(d, i+1) // past the comma
	}
}

func (b *rawBlock) read(members []scan.Span) bool {
	for _, sp := range members {
		name, ok := fieldOf(sp, blockFields)
		if !ok {
			return false
		}
		v := RawValue(sp.Value)
		var dst *RawValue
		switch name {
		case "":
			continue
		case "type":
			dst = &b.typ
		case "text":
			dst = &b.text
		case "name":
			dst = &b.name
		case "arguments":
			dst = &b.arguments
		case "redacted":
			if !kindBool.fits(v) {
				return false
			}
			continue
		default:
			if !kindString.fits(v) {
				return false
			}
			continue
		}
		if *dst != nil || (name != "arguments" && !kindString.fits(v)) {
			return false
		}
		*dst = v
	}
	return true
}

// fieldSet is the JSON names of a struct's fields by length (encoding/json
// matches a key to a field case-insensitively).
type fieldSet [32][]string

// fieldNames makes the set of a list of JSON field names (ASCII, shorter
// than 32 bytes).
func fieldNames(list string) *fieldSet {
	var set fieldSet
	for _, f := range strings.Fields(list) {
		set[len(f)] = append(set[len(f)], f)
	}
	return &set
}

// fieldOf names the field a member's key decodes into: the field itself,
// "" for a key that matches no field, ok false for a key the decoder could
// match in a way this reading does not follow (escaped, not ASCII, or
// another letter case of a field name).
func fieldOf(sp scan.Span, fields *fieldSet) (string, bool) {
	if sp.Escaped {
		return "", false
	}
	key := sp.Key
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return "", false
		}
	}
	if len(key) >= len(fields) {
		return "", true
	}
	for _, f := range fields[len(key)] {
		if string(key) == f {
			return f, true
		}
	}
	for _, f := range fields[len(key)] {
		if asciiEqualFold(key, f) {
			return f, false
		}
	}
	return "", true
}

// asciiEqualFold compares ASCII text ignoring letter case.
func asciiEqualFold(b []byte, s string) bool {
	for i := range len(b) {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// valueKind is the JSON type a Go field decodes from without a type error.
type valueKind uint8

const (
	kindAny valueKind = iota
	kindString
	kindBool
)

// fits reports whether v decodes into a field of the kind without a type
// error (null leaves any field as it is).
func (k valueKind) fits(v RawValue) bool {
	switch {
	case k == kindAny, v.IsNull():
		return true
	case k == kindString:
		return len(v) > 0 && v[0] == '"'
	}
	return string(v) == "true" || string(v) == "false"
}

// text writes the summary text of the message (messageSummary's) into t.
func (m *rawMessage) text(role string, blocks []rawBlock, t *summaryText) {
	switch role {
	case RoleToolResult:
		t.str(m.toolName)
		if string(m.isError) == "true" {
			t.lit(" (error)")
		}
		t.lit(": ")
		if len(m.content) > 0 && m.content[0] == '"' {
			t.str(m.content)
			return
		}
		first := true
		for _, b := range blocks {
			if b.is(BlockText) {
				if !first {
					t.lit(" ")
				}
				t.str(b.text)
				first = false
			}
		}
		return
	case RoleBashExecution:
		t.lit("$ ")
		t.str(m.command)
		return
	case RoleBranchSummary, RoleCompactionSummary:
		t.str(m.summary)
		return
	}
	if stop := m.stopReason.StrOr(""); stop == "error" || stop == "aborted" {
		t.lit("[" + stop + "] ")
		t.str(m.errorMessage)
		t.lit(" ")
	}
	first := true
	part := func() {
		if !first {
			t.lit(" ")
		}
		first = false
	}
	for _, b := range blocks {
		switch {
		case b.is(BlockText):
			part()
			t.str(b.text)
		case b.is(BlockToolCall):
			part()
			t.lit("→ ")
			t.str(b.name)
			t.lit("(")
			t.raw(b.arguments)
			t.lit(")")
		case b.is(BlockImage):
			part()
			t.lit("[image]")
		}
	}
	if len(m.content) > 0 && m.content[0] == '"' {
		part()
		t.str(m.content)
	}
}

// deeperThanDecoder reports whether encoding/json would refuse v for
// nesting deeper than its limit (10,000): such a message is left to the
// decoder, which says so.
func deeperThanDecoder(v RawValue) bool {
	const limit = 10000
	if len(v) <= 2*limit || bytes.Count(v, []byte{'['})+bytes.Count(v, []byte{'{'}) <= limit {
		return false
	}
	depth := 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			i = scan.EndOfString(v, i) - 1
		case '{', '[':
			if depth++; depth > limit {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}
