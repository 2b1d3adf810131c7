package preset

import "github.com/forgebench/forgebench/engine/jsonv"

// capabilityDeliveryType marks in-memory capability delivery messages.
const capabilityDeliveryType = "pi-forge-capability-delivery"

// IsControlMessage reports whether a message is structural history that regex
// rules, role filters and budgets skip: any role "system" message and any
// custom capability-delivery marker (§4.4).
func IsControlMessage(message any) bool {
	obj, ok := message.(*jsonv.Object)
	if !ok {
		return false
	}
	role := get(obj, "role")
	return role == "system" || (role == "custom" && get(obj, "customType") == capabilityDeliveryType)
}

// messageRole is String(message.role).
func messageRole(message any) string {
	obj, ok := message.(*jsonv.Object)
	if !ok {
		return "undefined"
	}
	role, present := obj.Get("role")
	if !present {
		return "undefined"
	}
	return jsonv.ToString(role)
}

type regexStats struct{ matches, changed int }

// transformMessages runs one rule over the eligible messages; the input is
// never mutated and is returned as is when nothing changed.
func (r *CompiledRule) transformMessages(messages []any, stats *regexStats, budget *RegexBudget) ([]any, bool, error) {
	var eligible []int
	for i, m := range messages {
		if IsControlMessage(m) {
			continue
		}
		if r.Roles != nil && !containsString(r.Roles, messageRole(m)) {
			continue
		}
		depth := len(messages) - 1 - i
		if r.MinDepth >= 0 && depth < r.MinDepth || r.MaxDepth >= 0 && depth > r.MaxDepth {
			continue
		}
		eligible = append(eligible, i)
	}
	if r.MaxMessages > 0 && len(eligible) > r.MaxMessages {
		eligible = eligible[len(eligible)-r.MaxMessages:]
	}
	var out []any
	for _, i := range eligible {
		next, changed, err := r.transformMessage(messages[i], stats, budget)
		if err != nil {
			return messages, false, err
		}
		if changed {
			if out == nil {
				out = append([]any(nil), messages...)
			}
			out[i] = next
		}
	}
	if out == nil {
		return messages, false, nil
	}
	return out, true, nil
}

// transformMessage transforms string content or {type:"text"} parts.
func (r *CompiledRule) transformMessage(message any, stats *regexStats, budget *RegexBudget) (any, bool, error) {
	obj, ok := message.(*jsonv.Object)
	if !ok || IsControlMessage(message) {
		return message, false, nil
	}
	switch content := get(obj, "content").(type) {
	case string:
		res, err := r.TransformWithin(content, budget)
		if err != nil {
			return message, false, err
		}
		stats.add(res)
		if !res.Changed {
			return message, false, nil
		}
		return withKey(obj, "content", res.Text), true, nil
	case []any:
		var next []any
		for i, part := range content {
			p, isObj := part.(*jsonv.Object)
			if !isObj || get(p, "type") != "text" {
				continue
			}
			text, isString := getString(p, "text")
			if !isString {
				continue
			}
			res, err := r.TransformWithin(text, budget)
			if err != nil {
				return message, false, err
			}
			stats.add(res)
			if !res.Changed {
				continue
			}
			if next == nil {
				next = append([]any(nil), content...)
			}
			next[i] = withKey(p, "text", res.Text)
		}
		if next == nil {
			return message, false, nil
		}
		return withKey(obj, "content", next), true, nil
	}
	return message, false, nil
}

func (s *regexStats) add(res TransformResult) {
	s.matches += res.Matches
	if res.Changed {
		s.changed++
	}
}

// withKey returns a shallow copy of obj with key set to v (same position).
func withKey(obj *jsonv.Object, key string, v any) *jsonv.Object {
	out := jsonv.NewObject()
	obj.Range(func(k string, x any) bool {
		out.Set(k, x)
		return true
	})
	out.Set(key, v)
	return out
}

// ApplyRegexToMessages applies the outgoing rules of one stage that target
// messages (stage "history" on inserted chat history, stage "compiled" on
// the whole compiled list). Messages are jsonv values; changed messages
// are copied, the input is never mutated.
func ApplyRegexToMessages(stack *Stack, messages []any, stage RegexStage) ([]any, Diagnostics) {
	return ApplyRegexToMessagesWithin(stack, messages, stage, nil)
}

// ApplyRegexToMessagesWithin is ApplyRegexToMessages with the rules run
// within budget (nil: jsregex.MatchTimeout per match only).
func ApplyRegexToMessagesWithin(stack *Stack, messages []any, stage RegexStage, budget *RegexBudget) ([]any, Diagnostics) {
	rules, d := RulesFor(stack, stage, TargetMessages, EffectOutgoing)
	return runMessageRules(rules, messages, func(r *CompiledRule) string { return string(stage) }, d, budget)
}

// ApplyRequestFrequencyRegex applies the frequency "request" rules to Pi's
// natural context on a tool-result follow-up request (history-stage rules
// first, then compiled-stage rules that target messages).
func ApplyRequestFrequencyRegex(stack *Stack, messages []any) ([]any, Diagnostics) {
	return ApplyRequestFrequencyRegexWithin(stack, messages, nil)
}

// ApplyRequestFrequencyRegexWithin is ApplyRequestFrequencyRegex with the
// rules run within budget (nil: jsregex.MatchTimeout per match only).
func ApplyRequestFrequencyRegexWithin(stack *Stack, messages []any, budget *RegexBudget) ([]any, Diagnostics) {
	rules, d := requestRules(stack)
	return runMessageRules(rules, messages, func(r *CompiledRule) string { return string(r.Stage) }, d, budget)
}

func runMessageRules(rules []*CompiledRule, messages []any, stage func(*CompiledRule) string, d Diagnostics, budget *RegexBudget) ([]any, Diagnostics) {
	for _, rule := range rules {
		var stats regexStats
		next, _, err := rule.transformMessages(messages, &stats, budget)
		if err != nil {
			failure(&d, budget, rule.ID, err)
			continue
		}
		messages = next
		ruleStats(&d, rule.ID, stage(rule), TargetMessages, stats.matches, stats.changed)
	}
	return messages, d
}

// ApplyFinalizeRegex applies the finalize rules to a completed assistant or
// toolResult message (message_end). It returns the rewritten message and
// true when the stored message must be replaced; toolResult messages are
// only touched by rules whose roles list "toolResult".
func ApplyFinalizeRegex(stack *Stack, message any) (any, bool, Diagnostics) {
	role := messageRole(message)
	if role != "assistant" && role != "toolResult" {
		return nil, false, nil
	}
	rules, d := RulesFor(stack, StageCompiled, TargetMessages, EffectFinalize)
	result, replaced := message, false
	for _, rule := range rules {
		if role == "toolResult" && !containsString(rule.Roles, "toolResult") {
			continue
		}
		var stats regexStats
		next, changed, err := rule.transformMessages([]any{result}, &stats, nil)
		if err != nil {
			failure(&d, nil, rule.ID, err)
			continue
		}
		if changed {
			result, replaced = next[0], true
		}
		ruleStats(&d, rule.ID, "finalize", TargetMessages, stats.matches, stats.changed)
	}
	if !replaced {
		return nil, false, d
	}
	d.addWarning("Finalize regex replaced stored message content; the original content is not preserved in the transcript.")
	return result, true, d
}

// RegexRules returns the typed view of the raw rules (all rules, including
// disabled and invalid ones; invalid field values read as absent).
func (s *Stack) RegexRules() []RegexRule {
	if s.Regex == nil {
		return nil
	}
	list, _ := get(s.Regex, "rules").([]any)
	out := make([]RegexRule, 0, len(list))
	for _, r := range list {
		raw, ok := r.(*jsonv.Object)
		if !ok {
			continue
		}
		id, _ := getString(raw, "id")
		rule := RegexRule{ID: jsonv.TrimJS(id), Enabled: get(raw, "enabled") != false, Effect: ruleEffect(raw), Frequency: FrequencyTurn,
			MaxMessages: positiveInt(get(raw, "maxMessages")), MaxChars: positiveInt(get(raw, "maxChars")),
			MinDepth: nonNegativeInt(get(raw, "minDepth")), MaxDepth: nonNegativeInt(get(raw, "maxDepth"))}
		rule.Name, _ = getString(raw, "name")
		stage, _ := getString(raw, "stage")
		rule.Stage = RegexStage(stage)
		if get(raw, "frequency") == "request" {
			rule.Frequency = FrequencyRequest
		}
		rule.Pattern, _ = getString(raw, "pattern")
		rule.Flags, _ = getString(raw, "flags")
		rule.Replace, _ = getString(raw, "replace")
		if v := get(raw, "trimStrings"); isStringArray(v) {
			rule.TrimStrings = stringList(v)
		}
		if v := get(raw, "roles"); isStringArray(v) {
			rule.Roles = stringList(v)
		}
		if v := get(raw, "targets"); isStringArray(v) {
			for _, t := range stringList(v) {
				rule.Targets = append(rule.Targets, RegexTarget(t))
			}
		}
		out = append(out, rule)
	}
	return out
}
