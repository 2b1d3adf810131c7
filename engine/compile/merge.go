package compile

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// mergeConsecutive merges runs of adjacent text-only user (or assistant)
// messages that both come from stack items. History and custom messages are
// hard boundaries. The first merge of a run reports an info diagnostic.
func mergeConsecutive(messages []any, sources []MessageSource, separator string, diags *[]Diagnostic) ([]any, []MessageSource) {
	outMessages := make([]any, 0, len(messages))
	outSources := make([]MessageSource, 0, len(sources))
	for i, message := range messages {
		role := messageRole(message)
		var source MessageSource
		hasSource := i < len(sources)
		if hasSource {
			source = sources[i]
		}
		last := len(outMessages) - 1
		canMerge := last >= 0 && hasSource &&
			outSources[last].Kind == SourceStackItem && mergeableRole(messageRole(outMessages[last])) &&
			source.Kind == SourceStackItem && mergeableRole(role) &&
			role == messageRole(outMessages[last]) &&
			isTextOnly(outMessages[last]) && isTextOnly(message)
		if !canMerge {
			outMessages = append(outMessages, message)
			if !hasSource {
				source = MessageSource{Kind: SourceImplicitHistory, Role: role}
			}
			outSources = append(outSources, source)
			continue
		}
		previous := outSources[last]
		prior := previous.MergedItems
		if prior == nil {
			prior = []MergedItem{{ItemID: previous.ItemID, ItemName: previous.ItemName}}
		}
		merged := make([]MergedItem, 0, len(prior)+1)
		merged = append(merged, prior...)
		merged = append(merged, MergedItem{ItemID: source.ItemID, ItemName: source.ItemName})
		if len(prior) == 1 {
			*diags = append(*diags, newDiagnostic(levelInfo, "Merged consecutive "+role+" stack items into one message.", previous.ItemID))
		}
		outMessages[last] = appendMessageText(outMessages[last], message, separator)
		names := make([]string, len(merged))
		for j, item := range merged {
			names[j] = mergedItemLabel(item)
		}
		name := strings.Join(names, " + ")
		outSources[last] = MessageSource{Kind: SourceStackItem, ItemID: previous.ItemID, ItemName: &name, Role: role, MergedItems: merged}
	}
	return outMessages, outSources
}

func mergeableRole(role string) bool {
	return role == "user" || role == "assistant"
}

// mergedItemLabel is `itemName?.trim() || itemId || "item"`.
func mergedItemLabel(item MergedItem) string {
	if item.ItemName != nil {
		if name := jsonv.TrimJS(*item.ItemName); name != "" {
			return name
		}
	}
	if item.ItemID != "" {
		return item.ItemID
	}
	return "item"
}

// appendMessageText joins the text of two text-only messages into one text
// part on a copy of base.
func appendMessageText(base, addition any, separator string) any {
	baseContent, _ := field(base, "content")
	additionContent, _ := field(addition, "content")
	obj := messageObject(base)
	if obj == nil {
		return base
	}
	return withContent(obj, textContent(textOfParts(baseContent)+separator+textOfParts(additionContent)))
}
