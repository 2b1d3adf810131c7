package compile

import (
	"fmt"
	"math"
	"slices"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// historyOptions reads chat-history slot options with pi-forge's loose
// JavaScript checks (`=== false`, `=== true`, positive integers only).
type historyOptions struct {
	raw *jsonv.Object
}

func (o historyOptions) get(key string) (any, bool) {
	if o.raw == nil {
		return nil, false
	}
	return o.raw.Get(key)
}

func (o historyOptions) isFalse(key string) bool {
	v, ok := o.get(key)
	b, isBool := v.(bool)
	return ok && isBool && !b
}

func (o historyOptions) isTrue(key string) bool {
	v, ok := o.get(key)
	b, isBool := v.(bool)
	return ok && isBool && b
}

// positiveInt returns the option when it is a positive integral number.
func (o historyOptions) positiveInt(key string) (float64, bool) {
	v, ok := o.get(key)
	f, isNumber := v.(float64)
	if !ok || !isNumber || math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) || f <= 0 {
		return 0, false
	}
	return f, true
}

// stringList returns the option when it is an array of strings.
func (o historyOptions) stringList(key string) ([]string, bool) {
	v, ok := o.get(key)
	arr, isArray := v.([]any)
	if !ok || !isArray {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, isString := e.(string)
		if !isString {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// historyFilter applies the chat-history options of one slot item to the
// incoming messages (pi-forge getChatHistoryMessages, spec §4.4).
type historyFilter struct {
	itemID string
	diags  *[]Diagnostic
}

func (h historyFilter) info(message string) {
	*h.diags = append(*h.diags, newDiagnostic(levelInfo, message, h.itemID))
}

func (h historyFilter) apply(messages []any, options historyOptions) []any {
	result := messages
	repair := false

	if options.isFalse("includeLastUserMessage") {
		last := -1
		for i := len(result) - 1; i >= 0; i-- {
			if role, _ := stringField(result[i], "role"); role == "user" {
				last = i
				break
			}
		}
		if last != -1 {
			next := make([]any, 0, len(result)-1)
			next = append(next, result[:last]...)
			result = append(next, result[last+1:]...)
		}
	}

	if options.isFalse("includeSummaries") {
		next := keepMessages(result, func(m any) bool {
			role := messageRole(m)
			return isControlMessage(m) || (role != "branchSummary" && role != "compactionSummary")
		})
		h.filtered("summary", len(result), len(next))
		result = next
	}

	if roles, ok := options.stringList("roles"); ok && len(roles) > 0 {
		allowed := make(map[string]bool, len(roles))
		for _, r := range roles {
			allowed[r] = true
		}
		next := keepMessages(result, func(m any) bool { return isControlMessage(m) || allowed[messageRole(m)] })
		h.filtered("role", len(result), len(next))
		result = next
		repair = true
	}

	toolMode, hasToolMode := options.get("toolMode")
	dropTools := hasToolMode && toolMode == "drop"
	if dropTools {
		result = h.dropToolHistory(result)
	} else if hasToolMode && toolMode != "keep" {
		*h.diags = append(*h.diags, newDiagnostic(levelWarning,
			"Unsupported chat-history toolMode: "+jsToString(toolMode)+".", h.itemID))
	}

	if options.isTrue("stripAssistantThinking") {
		result = h.stripThinking(result)
	}

	if limited, changed := h.limit(result, options); changed {
		result = limited
		repair = true
	}

	if repair && !dropTools {
		result = h.repairToolPairs(result)
	}
	return result
}

// jsToString is String(v), with undefined handled by the caller.
func jsToString(v any) string {
	return jsonv.ToString(v)
}

func keepMessages(messages []any, keep func(any) bool) []any {
	next := make([]any, 0, len(messages))
	for _, m := range messages {
		if keep(m) {
			next = append(next, m)
		}
	}
	return next
}

func (h historyFilter) filtered(by string, before, after int) {
	if before == after {
		return
	}
	h.info(fmt.Sprintf("Filtered %d chat-history message(s) by %s.", before-after, by))
}

func (h historyFilter) limit(messages []any, options historyOptions) ([]any, bool) {
	result := messages
	changed := false
	if maxMessages, ok := options.positiveInt("maxMessages"); ok {
		next := takeRecentByCount(result, maxMessages)
		if len(next) < len(result) {
			h.info(fmt.Sprintf("Trimmed chat history from %d to %d message(s) by maxMessages.", len(result), len(next)))
			result = next
			changed = true
		}
	}
	if maxChars, ok := options.positiveInt("maxChars"); ok {
		next := takeRecentByChars(result, maxChars)
		if len(next) < len(result) {
			h.info(fmt.Sprintf("Trimmed chat history from %d to %d message(s) by maxChars.", len(result), len(next)))
			result = next
			changed = true
		}
	}
	return result, changed
}

func takeRecentByCount(messages []any, maxMessages float64) []any {
	keep := make([]bool, len(messages))
	kept := 0
	ordinary := 0.0
	for i := len(messages) - 1; i >= 0; i-- {
		if isControlMessage(messages[i]) || ordinary < maxMessages {
			if !isControlMessage(messages[i]) {
				ordinary++
			}
			keep[i] = true
			kept++
		}
	}
	return selectKept(messages, keep, kept)
}

func takeRecentByChars(messages []any, maxChars float64) []any {
	keep := make([]bool, len(messages))
	kept := 0
	chars := 0.0
	count := 0
	exceeded := false
	for i := len(messages) - 1; i >= 0; i-- {
		if isControlMessage(messages[i]) {
			keep[i] = true
			kept++
			continue
		}
		if exceeded {
			continue
		}
		size := float64(jsonv.UTF16Len(PreviewText(messages[i])))
		if count > 0 && chars+size > maxChars {
			exceeded = true
			continue
		}
		keep[i] = true
		kept++
		count++
		chars += size
		if chars >= maxChars {
			exceeded = true
		}
	}
	return selectKept(messages, keep, kept)
}

func selectKept(messages []any, keep []bool, kept int) []any {
	if kept == len(messages) {
		return messages
	}
	next := make([]any, 0, kept)
	for i, m := range messages {
		if keep[i] {
			next = append(next, m)
		}
	}
	return next
}

// firstNonEmptyString is the first argument that is a non-empty string.
func firstNonEmptyString(values ...any) (string, bool) {
	for _, v := range values {
		if s, ok := v.(string); ok && s != "" {
			return s, true
		}
	}
	return "", false
}

func fieldOrNil(value any, key string) any {
	v, _ := field(value, key)
	return v
}

// toolCallPartID is the id of a content part (id, toolCallId or callId).
func toolCallPartID(part any) (string, bool) {
	if messageObject(part) == nil {
		return "", false
	}
	return firstNonEmptyString(fieldOrNil(part, "id"), fieldOrNil(part, "toolCallId"), fieldOrNil(part, "callId"))
}

// toolResultID is the call id a toolResult message answers.
func toolResultID(message any) (string, bool) {
	if messageRole(message) != "toolResult" {
		return "", false
	}
	return firstNonEmptyString(fieldOrNil(message, "toolCallId"), fieldOrNil(message, "id"), fieldOrNil(message, "callId"))
}

// stripToolCalls removes toolCall parts that keep rejects. dropped reports a
// message left with no content at all.
func stripToolCalls(message any, keep func(id string, ok bool) bool) (out any, removed int, dropped bool) {
	parts, ok := contentParts(message)
	if !ok {
		return message, 0, false
	}
	drop := func(part any) bool {
		return partType(part) == "toolCall" && messageObject(part) != nil && !keep(toolCallPartID(part))
	}
	return dropParts(message, parts, drop)
}

// dropParts removes the content parts drop selects. The message is copied
// only when a part goes; dropped reports a message left with no content.
func dropParts(message any, parts []any, drop func(part any) bool) (out any, removed int, dropped bool) {
	first := slices.IndexFunc(parts, drop)
	if first < 0 {
		return message, 0, false // nothing to strip: no copy
	}
	next := append(make([]any, 0, len(parts)-1), parts[:first]...)
	for _, part := range parts[first+1:] {
		if !drop(part) {
			next = append(next, part)
		}
	}
	removed = len(parts) - len(next)
	if len(next) == 0 {
		return nil, removed, true
	}
	return withContent(messageObject(message), next), removed, false
}

func emptyMessagesSuffix(dropped int) string {
	if dropped > 0 {
		return fmt.Sprintf(", and dropped %d empty message(s).", dropped)
	}
	return "."
}

func (h historyFilter) dropToolHistory(messages []any) []any {
	result, n, changed := filterToolHistory(messages,
		func(any) bool { return false },
		func(string, bool) bool { return false })
	if !changed {
		return messages
	}
	h.info(fmt.Sprintf("Dropped tool history from chat-history: removed %d tool call(s), dropped %d tool result message(s)",
		n.calls, n.results) + emptyMessagesSuffix(n.empty))
	return result
}

func (h historyFilter) repairToolPairs(messages []any) []any {
	calls := map[string]bool{}
	results := map[string]bool{}
	for _, m := range messages {
		if isControlMessage(m) {
			continue
		}
		parts, _ := contentParts(m)
		for _, part := range parts {
			if id, ok := toolCallPartID(part); ok {
				calls[id] = true
			}
		}
		if id, ok := toolResultID(m); ok {
			results[id] = true
		}
	}
	result, n, changed := filterToolHistory(messages,
		func(m any) bool { id, ok := toolResultID(m); return ok && calls[id] },
		func(id string, ok bool) bool { return ok && results[id] })
	if !changed {
		return messages
	}
	h.info(fmt.Sprintf("Repaired tool history after chat-history filtering: removed %d dangling tool call(s), dropped %d dangling tool result message(s)",
		n.calls, n.results) + emptyMessagesSuffix(n.empty))
	return result
}

// toolCounts tallies what filterToolHistory removed.
type toolCounts struct{ calls, results, empty int }

// filterToolHistory keeps control messages, the tool results keepResult
// accepts and the tool calls keepCall accepts (by call id); a message left
// with no content by removed calls is dropped. changed is false when
// nothing was removed, so callers can return the input unchanged.
func filterToolHistory(messages []any, keepResult func(any) bool, keepCall func(id string, ok bool) bool) ([]any, toolCounts, bool) {
	var n toolCounts
	changed := false
	result := make([]any, 0, len(messages))
	for _, m := range messages {
		if isControlMessage(m) {
			result = append(result, m)
			continue
		}
		if messageRole(m) == "toolResult" {
			if keepResult(m) {
				result = append(result, m)
			} else {
				n.results++
				changed = true
			}
			continue
		}
		out, removed, dropped := stripToolCalls(m, keepCall)
		n.calls += removed
		changed = changed || removed > 0
		if dropped {
			n.empty++
			continue
		}
		result = append(result, out)
	}
	return result, n, changed
}

func (h historyFilter) stripThinking(messages []any) []any {
	blocks, changedMessages, droppedMessages := 0, 0, 0
	changed := false
	result := make([]any, 0, len(messages))
	for _, m := range messages {
		if isControlMessage(m) {
			result = append(result, m)
			continue
		}
		out, removed, dropped := stripThinkingParts(m)
		if removed > 0 {
			changed = true
			blocks += removed
			changedMessages++
		}
		if dropped {
			droppedMessages++
			continue
		}
		result = append(result, out)
	}
	if !changed {
		return messages
	}
	suffix := "."
	if droppedMessages > 0 {
		suffix = fmt.Sprintf(" and dropped %d empty assistant message(s).", droppedMessages)
	}
	h.info(fmt.Sprintf("Stripped %d assistant thinking block(s) from %d chat-history message(s)", blocks, changedMessages) + suffix)
	return result
}

func stripThinkingParts(message any) (out any, removed int, dropped bool) {
	role, _ := stringField(message, "role")
	if role != "assistant" {
		return message, 0, false
	}
	parts, ok := contentParts(message)
	if !ok {
		return message, 0, false
	}
	drop := func(part any) bool { return messageObject(part) != nil && partType(part) == "thinking" }
	return dropParts(message, parts, drop)
}
