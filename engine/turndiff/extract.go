package turndiff

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Block keys and roles of pi-forge's extractTurnSnapshot.
const (
	KeySystem       = "system"
	KeyPayloadText  = "payload-text"
	KeyPayload      = "payload"
	KeyRequestField = "request-" // + the field name
	KeyMessage      = "message-" // + role part + "-" + 8 hex digits [+ "-n"]

	RoleSystem  = "system"
	RoleRequest = "request"
	RolePayload = "payload"
	RoleMessage = "message" // a message without a usable role
)

// Capture is what extractTurnSnapshot reads from one captured request.
type Capture struct {
	// TurnID names the turn; empty means CapturedAt (JavaScript's
	// `turnId ?? capturedAt`).
	TurnID     string
	CapturedAt string
	StackID    string
	// Payload is the (display) payload as a jsonv value; nil when absent.
	Payload any
	// SerializedPayload is the faithful JSON text (nil when absent); when it
	// parses it wins over Payload.
	SerializedPayload *string
	// Text is the display rendering, the whole block when the payload is
	// not a JSON object.
	Text string
}

// ExtractTurnSnapshot is pi-forge's extractTurnSnapshot: the request split
// into blocks, in the payload's key order.
func ExtractTurnSnapshot(c Capture) Turn {
	id := c.TurnID
	if id == "" {
		id = c.CapturedAt
	}
	return Turn{TurnID: id, CapturedAt: c.CapturedAt, StackID: c.StackID, Blocks: extractBlocks(c)}
}

// ExtractPayload is ExtractTurnSnapshot for a capture whose payload is v
// and that has no serialized form: the snapshot a saved payload file (or a
// rebuilt request) gives. text is only used when v is not an object.
func ExtractPayload(turnID, capturedAt, stackID string, v any, text string) Turn {
	return ExtractTurnSnapshot(Capture{TurnID: turnID, CapturedAt: capturedAt, StackID: stackID, Payload: v, Text: text})
}

func extractBlocks(c Capture) []Block {
	payload := c.Payload
	if c.SerializedPayload != nil {
		if v, err := jsonv.Parse([]byte(*c.SerializedPayload)); err == nil {
			payload = v
		}
	}
	obj, ok := payload.(*jsonv.Object)
	if !ok {
		if c.SerializedPayload == nil {
			return []Block{NewBlock(KeyPayloadText, RolePayload, c.Text)}
		}
		ser := jsonv.NewObject()
		ser.Set("section", "payload")
		ser.Set("serializedPayload", *c.SerializedPayload)
		return []Block{NewBlockSerialized(KeyPayloadText, RolePayload, c.Text, ser)}
	}
	blocks := make([]Block, 0, obj.Len()+8)
	seen := map[string]int{}
	obj.Range(func(key string, value any) bool {
		blocks = MemberBlocks(blocks, key, value, seen, false)
		return true
	})
	if len(blocks) > 0 {
		return blocks
	}
	return []Block{NewBlockSerialized(KeyPayload, RolePayload, jsonv.Stringify(obj), section("payload", "", obj))}
}

// MemberBlocks appends the blocks extractTurnSnapshot makes of one member
// of a request object, taken in the object's key order: the system block,
// a block per message, or a request-field block. seen counts the message
// keys used so far in the turn. textOnly leaves out the hash and wire
// value of request-field blocks, which showing a request does not need
// (a request of two million fields is shown one block at a time).
func MemberBlocks(blocks []Block, key string, value any, seen map[string]int, textOnly bool) []Block {
	if key == "system" {
		return append(blocks, systemBlock(value))
	}
	if list, isList := value.([]any); key == "messages" && isList && len(list) > 0 {
		for _, m := range list {
			blocks = append(blocks, MessageBlock(m, seen))
		}
		return blocks
	}
	if textOnly {
		text := requestFieldText(key, value)
		chars := jsonv.UTF16Len(text)
		return append(blocks, Block{Key: KeyRequestField + key, Role: RoleRequest, Text: text, Chars: chars, ApproxTokens: max(1, (chars+3)/4)})
	}
	return append(blocks, RequestFieldBlock(key, value))
}

// section builds the serialized hash input {section, field?, value}.
func section(name, field string, value any) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("section", name)
	if field != "" {
		o.Set("field", field)
	}
	o.Set("value", value)
	return o
}

// RequestFieldBlock is the block of a request field other than system and
// messages: key "request-<field>", text JSON.stringify({field: value}, null, 2).
func RequestFieldBlock(field string, value any) Block {
	o := jsonv.NewObject()
	o.Set("section", "request")
	o.Set("field", field)
	o.Set("value", value)
	return NewBlockSerialized(KeyRequestField+field, RoleRequest, requestFieldText(field, value), o)
}

// requestFieldText is a request field's block text:
// JSON.stringify({field: value}, null, 2).
func requestFieldText(field string, value any) string {
	switch value.(type) {
	case *jsonv.Object, []any:
		wrapped := jsonv.NewObject()
		wrapped.Set(field, value)
		return jsonv.StringifyIndent(wrapped, "  ")
	}
	// A scalar prints as it does compact, after the one key.
	b := make([]byte, 0, len(field)+24)
	b = append(b, "{\n  "...)
	b = jsonv.AppendQuote(b, field)
	b = append(b, ": "...)
	b = jsonv.AppendStringify(b, value)
	return string(append(b, "\n}"...))
}

func systemBlock(value any) Block {
	var text string
	switch v := value.(type) {
	case string:
		text = v
	case []any:
		text = contentBlocksToText(v)
		if text == "" {
			text = jsonv.Stringify(v)
		}
	default:
		text = jsonv.Stringify(v)
	}
	return NewBlockSerialized(KeySystem, RoleSystem, text, section("system", "", value))
}

// MessageBlock is the block of one request message. seen counts the base
// keys already used in this turn, so repeats get "-2", "-3" … appended.
func MessageBlock(message any, seen map[string]int) Block {
	text := MessageText(message)
	role := RoleMessage
	if o, ok := message.(*jsonv.Object); ok {
		if r, _ := o.Get("role"); r != nil {
			if rs, isStr := r.(string); isStr && rs != "" {
				role = rs
			}
		}
	}
	// The key hashes role+"\x00"+text and the block hash covers the
	// quoted text: one pass over the text feeds both chains.
	pass := textPass{s: text, key: newFNV().raw(role).unit(0), block: hashInputHead(role)}
	pass.finish()
	base := KeyMessage + keyPart(role) + "-" + pass.key.hex()
	n := seen[base]
	seen[base] = n + 1
	key := base
	if n > 0 {
		key = base + "-" + itoa(n+1)
	}
	o := jsonv.NewObject()
	o.Set("section", "messages")
	o.Set("value", message)
	b := newBlockChars(key, role, text, pass.units, hashInputTail(pass.block, o))
	b.Wire = o
	return b
}

// MessageText is pi-forge's messageToText: a string message as is, else its
// string content, its content parts joined (and trimmed), or the message
// as compact JSON.
func MessageText(message any) string {
	switch m := message.(type) {
	case string:
		return m
	case *jsonv.Object:
		content, _ := m.Get("content")
		switch c := content.(type) {
		case string:
			return c
		case []any:
			return contentBlocksToText(c)
		}
		return jsonv.Stringify(m)
	}
	return jsonv.Stringify(message)
}

// contentBlocksToText joins text parts with "\n" ("[image content]" for an
// image, other parts as compact JSON, null parts skipped) and trims the
// result the JavaScript way.
func contentBlocksToText(parts []any) string {
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		switch v := p.(type) {
		case *jsonv.Object:
			if t, _ := v.Get("text"); t != nil {
				if ts, ok := t.(string); ok {
					out = append(out, ts)
					continue
				}
			}
			if typ, _ := v.Get("type"); typ == "image" {
				out = append(out, "[image content]")
				continue
			}
			out = append(out, jsonv.Stringify(v))
		case string:
			out = append(out, v)
		case nil:
		default:
			out = append(out, jsonv.Stringify(v))
		}
	}
	return jsonv.TrimJS(strings.Join(out, "\n"))
}

// keyPart replaces runs of characters outside [A-Za-z0-9_-] with "-" and
// trims dashes; empty becomes "message".
func keyPart(value string) string {
	var b strings.Builder
	dash := false
	for i := 0; i < len(value); i++ {
		c := value[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			if dash {
				b.WriteByte('-')
				dash = false
			}
			b.WriteByte(c)
			continue
		}
		dash = true
	}
	if dash {
		b.WriteByte('-')
	}
	part := strings.Trim(b.String(), "-")
	if part == "" {
		return RoleMessage
	}
	return part
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}
