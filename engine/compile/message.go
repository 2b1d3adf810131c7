package compile

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// capabilityDeliveryType marks pi-forge's capability delivery custom messages.
const capabilityDeliveryType = "pi-forge-capability-delivery"

// messageObject returns the message as an object, or nil for any other value.
func messageObject(message any) *jsonv.Object {
	obj, _ := message.(*jsonv.Object)
	return obj
}

// field reads one property of an object-valued JSON value.
func field(value any, key string) (any, bool) {
	obj, ok := value.(*jsonv.Object)
	if !ok || obj == nil {
		return nil, false
	}
	return obj.Get(key)
}

// stringField reads a property that must be a string.
func stringField(value any, key string) (string, bool) {
	v, ok := field(value, key)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	return s, ok
}

// messageRole is String(message.role ?? "").
func messageRole(message any) string {
	v, ok := field(message, "role")
	if !ok || v == nil {
		return ""
	}
	return jsonv.ToString(v)
}

// isControlMessage reports System messages and capability delivery markers:
// they are never filtered, counted or trimmed by chat-history options.
func isControlMessage(message any) bool {
	if messageObject(message) == nil {
		return false
	}
	role, _ := stringField(message, "role")
	if role == "system" {
		return true
	}
	customType, _ := stringField(message, "customType")
	return role == "custom" && customType == capabilityDeliveryType
}

// withContent is `{...message, content}`: a shallow copy whose content key
// keeps its position.
func withContent(message *jsonv.Object, content any) *jsonv.Object {
	copied := message.ShallowClone()
	copied.Set("content", content)
	return copied
}

// contentParts returns the content array, or nil when content is not one.
func contentParts(message any) ([]any, bool) {
	v, ok := field(message, "content")
	if !ok {
		return nil, false
	}
	parts, ok := v.([]any)
	return parts, ok
}

// partType is part.type when the part is an object with a string type.
func partType(part any) string {
	t, _ := stringField(part, "type")
	return t
}

// contentToText mirrors pi-forge's preview text of message content.
func contentToText(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	parts, ok := content.([]any)
	if !ok {
		return ""
	}
	var buf [8]string // on the stack for the usual content
	pieces := buf[:0]
	for _, part := range parts {
		if messageObject(part) == nil {
			continue
		}
		var piece string
		switch partType(part) {
		case "text":
			piece, _ = stringField(part, "text")
		case "thinking":
			if thinking, ok := stringField(part, "thinking"); ok {
				piece = "<thinking>\n" + thinking + "\n</thinking>"
			}
		case "toolCall":
			name := "unknown"
			if v, ok := field(part, "name"); ok && v != nil {
				name = jsonv.ToString(v)
			}
			piece = "[toolCall: " + name + "]"
		case "image":
			piece = "[image]"
		}
		if piece != "" {
			pieces = append(pieces, piece)
		}
	}
	return strings.Join(pieces, "\n")
}

// optionalText is `value ?? ""` followed by string interpolation.
func optionalText(message any, key string) string {
	v, ok := field(message, key)
	if !ok || v == nil {
		return ""
	}
	return jsonv.ToString(v)
}

// PreviewText is pi-forge's agentMessageToPreviewText: the text measured by
// the maxChars chat-history limit.
func PreviewText(message any) string {
	content, _ := field(message, "content")
	text := contentToText(content)
	switch messageRole(message) {
	case "bashExecution":
		text += "Ran " + optionalText(message, "command") + "\n" + optionalText(message, "output")
	case "branchSummary", "compactionSummary":
		text += optionalText(message, "summary")
	}
	return text
}

// LatestUserMessage is pi-forge's getLatestUserMessage: the text of the last
// user message whose text is not blank. ok is false when there is none.
func LatestUserMessage(messages []any) (text string, ok bool) {
	for i := len(messages) - 1; i >= 0; i-- {
		if messageRole(messages[i]) != "user" {
			continue
		}
		content, _ := field(messages[i], "content")
		t := contentToText(content)
		if jsonv.TrimJS(t) != "" {
			return t, true
		}
	}
	return "", false
}

// isTextOnly reports string content or content made only of text parts.
func isTextOnly(message any) bool {
	content, ok := field(message, "content")
	if !ok {
		return false
	}
	if _, isString := content.(string); isString {
		return true
	}
	parts, isArray := content.([]any)
	if !isArray {
		return false
	}
	for _, part := range parts {
		if partType(part) != "text" {
			return false
		}
		if _, ok := stringField(part, "text"); !ok {
			return false
		}
	}
	return true
}

// textOfParts joins the text parts without a separator.
func textOfParts(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	parts, _ := content.([]any)
	var b strings.Builder
	for _, part := range parts {
		if partType(part) == "text" {
			t, _ := stringField(part, "text")
			b.WriteString(t)
		}
	}
	return b.String()
}

// textContent builds `[{type:"text", text}]`.
func textContent(text string) []any {
	part := jsonv.NewObject()
	part.Set("type", "text")
	part.Set("text", text)
	return []any{part}
}
