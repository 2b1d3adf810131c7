package turndiff

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Recovery describes what a saved payload that is not valid JSON still
// holds. pi-forge cuts the display text after MaxDisplayChars characters and
// appends TruncationNote; the diff then sees one payload-text block, while
// Recover reads the JSON prefix as far as it goes.
type Recovery struct {
	// Noted is true when the text ends with pi-forge's truncation note.
	Noted bool
	// KeptChars is the length (UTF-16 code units) of the JSON prefix read.
	KeptChars int
	// Value is the recovered value: complete members kept, a member cut in
	// the middle kept as far as it goes (strings cut, containers closed),
	// half-read numbers, literals and keys dropped. nil when nothing could
	// be read.
	Value any
	// Fields lists the top-level keys whose values were read whole.
	Fields []string
	// CutField is the top-level key being read when the text ended ("" when
	// it ended between members or at the top level).
	CutField string
	// Messages counts the messages read whole; CutMessage describes the
	// message being read when the text ended (nil if none).
	Messages   int
	CutMessage *CutMessage
	// SyntaxError is set when the prefix is not the start of any JSON text
	// (the file was not a payload capture); Value then holds what was read
	// before the error.
	SyntaxError string
}

// CutMessage is the message a truncated payload ends in.
type CutMessage struct {
	// Index is its position in "messages" (0-based).
	Index int
	// Role is its role when the role was read whole ("" otherwise).
	Role string
	// TextChars is how much of its text survived (UTF-16 code units).
	TextChars int
}

// Recover reads as much of a payload text as it can. It never fails: what
// could not be read is described in the result.
func Recover(text string) Recovery {
	r := Recovery{}
	body := text
	if strings.HasSuffix(body, TruncationNote) {
		r.Noted = true
		body = strings.TrimSuffix(body, TruncationNote)
	}
	p := &partialParser{data: body}
	p.skipSpace()
	v, _, err := p.value(0)
	if err != nil {
		r.SyntaxError = err.Error()
	}
	r.KeptChars = jsonv.UTF16Len(body[:p.pos])
	r.Value = v
	if obj, ok := v.(*jsonv.Object); ok {
		r.Fields = append(r.Fields, p.topComplete...)
		r.CutField = p.topCut
		if msgs, ok := obj.Get("messages"); ok {
			list, _ := msgs.([]any)
			r.Messages = len(list)
			if p.topCut == "messages" && p.messagesCut && len(list) > 0 {
				r.Messages--
				cm := &CutMessage{Index: len(list) - 1}
				if mo, ok := list[len(list)-1].(*jsonv.Object); ok {
					if role, ok := mo.Get("role"); ok && p.roleWhole {
						cm.Role, _ = role.(string)
					}
				}
				cm.TextChars = jsonv.UTF16Len(MessageText(list[len(list)-1]))
				r.CutMessage = cm
			}
		}
	}
	return r
}

// partialParser reads a JSON prefix. value returns complete=false when the
// data ended inside the value.
type partialParser struct {
	data string
	pos  int
	// top-level bookkeeping for the report
	topComplete []string
	topCut      string
	messagesCut bool // the messages array ended inside an element
	roleWhole   bool // that element's "role" member was read whole
}

type syntaxError struct {
	what string
	pos  int
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%s at byte %d", e.what, e.pos) }

func (p *partialParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

const maxRecoverDepth = 10000

// value parses one value. ok=false with a nil error means the data ended.
func (p *partialParser) value(depth int) (v any, complete bool, err error) {
	if depth > maxRecoverDepth {
		return nil, false, &syntaxError{"nesting too deep", p.pos}
	}
	if p.pos >= len(p.data) {
		return nil, false, nil
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number(depth)
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	}
	return nil, false, &syntaxError{fmt.Sprintf("unexpected %q", p.data[p.pos]), p.pos}
}

func (p *partialParser) literal(word string, v any) (any, bool, error) {
	rest := p.data[p.pos:]
	if strings.HasPrefix(rest, word) {
		p.pos += len(word)
		return v, true, nil
	}
	if strings.HasPrefix(word, rest) {
		p.pos = len(p.data)
		return nil, false, nil
	}
	return nil, false, &syntaxError{"invalid literal", p.pos}
}

func (p *partialParser) number(depth int) (any, bool, error) {
	start := p.pos
	for p.pos < len(p.data) && strings.IndexByte("+-0123456789.eE", p.data[p.pos]) >= 0 {
		p.pos++
	}
	if p.pos >= len(p.data) && depth > 0 {
		// A nested number at the very end may have lost digits: drop it.
		return nil, false, nil
	}
	v, err := jsonv.Parse([]byte(p.data[start:p.pos]))
	if err != nil {
		return nil, false, &syntaxError{"invalid number", start}
	}
	return v, true, nil
}

// str reads a string; at the end of the data it returns the text read so
// far (a half-read escape dropped).
func (p *partialParser) str() (any, bool, error) {
	start := p.pos
	i := p.pos + 1
	for i < len(p.data) {
		switch p.data[i] {
		case '"':
			v, err := jsonv.Parse([]byte(p.data[start : i+1]))
			if err != nil {
				return nil, false, &syntaxError{"invalid string", start}
			}
			p.pos = i + 1
			return v, true, nil
		case '\\':
			i += 2
			continue
		}
		i++
	}
	body := p.data[start+1:]
	// Drop a half-read escape: a trailing backslash, or \u with < 4 digits.
	if k := strings.LastIndexByte(body, '\\'); k >= 0 && trailingBackslashes(body[:k+1])%2 == 1 {
		if tail := body[k:]; len(tail) < 6 && (len(tail) == 1 || tail[1] == 'u') {
			body = body[:k]
		}
	}
	p.pos = len(p.data)
	v, err := jsonv.Parse([]byte(`"` + body + `"`))
	if err != nil {
		return nil, false, &syntaxError{"invalid string", start}
	}
	return v, false, nil
}

func trailingBackslashes(s string) int {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n
}

func (p *partialParser) array(depth int) (any, bool, error) {
	p.pos++
	out := []any{}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return out, false, nil
		}
		if p.data[p.pos] == ']' && len(out) == 0 {
			p.pos++
			return out, true, nil
		}
		v, complete, err := p.value(depth + 1)
		if err != nil {
			return out, false, err
		}
		if !complete {
			if v != nil {
				out = append(out, v)
			}
			return out, false, nil
		}
		out = append(out, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return out, false, nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return out, true, nil
		default:
			return out, false, &syntaxError{"expected , or ]", p.pos}
		}
	}
}

func (p *partialParser) object(depth int) (any, bool, error) {
	p.pos++
	out := jsonv.NewObject()
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return out, false, nil
		}
		if p.data[p.pos] == '}' && out.Len() == 0 {
			p.pos++
			return out, true, nil
		}
		if p.data[p.pos] != '"' {
			return out, false, &syntaxError{"expected a key", p.pos}
		}
		kv, complete, err := p.str()
		if err != nil || !complete {
			return out, false, err
		}
		key := kv.(string)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return out, false, nil
		}
		if p.data[p.pos] != ':' {
			return out, false, &syntaxError{"expected :", p.pos}
		}
		p.pos++
		p.skipSpace()
		v, complete, err := p.member(depth, key)
		if err != nil {
			return out, false, err
		}
		if !complete {
			if v != nil {
				out.Set(key, v)
			}
			return out, false, nil
		}
		out.Set(key, v)
		if depth == 0 {
			p.topComplete = append(p.topComplete, key)
		}
		if depth == 2 && key == "role" {
			p.roleWhole = true
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return out, false, nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return out, true, nil
		default:
			return out, false, &syntaxError{"expected , or }", p.pos}
		}
	}
}

// member parses an object member's value, tracking the top-level member
// and the messages array for the report.
func (p *partialParser) member(depth int, key string) (any, bool, error) {
	if depth != 0 {
		return p.value(depth + 1)
	}
	if key == "messages" && p.pos < len(p.data) && p.data[p.pos] == '[' {
		return p.messages(depth + 1)
	}
	v, complete, err := p.value(depth + 1)
	if !complete && err == nil {
		p.topCut = key
	}
	return v, complete, err
}

// messages is array() for the top-level "messages" member: it notes whether
// the data ended inside an element and whether that element's role was
// read whole.
func (p *partialParser) messages(depth int) (any, bool, error) {
	p.pos++
	out := []any{}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			p.topCut = "messages"
			return out, false, nil
		}
		if p.data[p.pos] == ']' && len(out) == 0 {
			p.pos++
			return out, true, nil
		}
		p.roleWhole = false
		v, complete, err := p.value(depth + 1)
		if err != nil {
			return out, false, err
		}
		if !complete {
			p.topCut = "messages"
			if v != nil {
				out = append(out, v)
				p.messagesCut = true
			}
			return out, false, nil
		}
		out = append(out, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			p.topCut = "messages"
			return out, false, nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return out, true, nil
		default:
			return out, false, &syntaxError{"expected , or ]", p.pos}
		}
	}
}
