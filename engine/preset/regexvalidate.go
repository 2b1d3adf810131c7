package preset

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/jsregex"
)

// matchPlaceholder detects the SillyTavern-style {{match}} in a replacement.
var matchPlaceholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\{\{[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]*match[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]*\}\}`)
})

// ValidateRegexConfig validates a Preset's raw "regex" object (§6.2); nil
// means absent and yields nothing.
func ValidateRegexConfig(regex *jsonv.Object) Diagnostics {
	var d Diagnostics
	if regex == nil {
		return d
	}
	if sv, present := regex.Get("schemaVersion"); present && sv != float64(1) {
		d.addWarning("Missing or unsupported regex.schemaVersion; assuming 1.")
	}
	rawRules, present := regex.Get("rules")
	if !present {
		return d
	}
	rules, ok := rawRules.([]any)
	if !ok {
		d.addError("regex.rules must be an array when provided.")
		return d
	}
	seen := make(map[string]bool, len(rules))
	for i, rule := range rules {
		validateRegexRule(rule, i, seen, &d)
	}
	return d
}

// regexRuleLabel is "Regex rule <id>" or, without an id, "regex rule <n>".
func regexRuleLabel(id string, index int) string {
	if id != "" {
		return "Regex rule " + id
	}
	return "regex rule " + strconv.Itoa(index+1)
}

func validateRegexRule(raw any, index int, seen map[string]bool, d *Diagnostics) {
	rule, ok := raw.(*jsonv.Object)
	if !ok {
		d.addError("regex rule " + strconv.Itoa(index+1) + " must be an object.")
		return
	}
	rawID, _ := getString(rule, "id")
	id := jsonv.TrimJS(rawID)
	switch {
	case id == "":
		d.addError("regex rule " + strconv.Itoa(index+1) + " must have a non-empty id.")
	case seen[id]:
		d.addError("Duplicate regex rule id: " + id + ".")
	default:
		seen[id] = true
	}
	label := regexRuleLabel(id, index)
	if x, present := rule.Get("enabled"); present {
		if _, isBool := x.(bool); !isBool {
			d.addWarning(label + " enabled must be a boolean when provided.")
		}
	}
	stage := get(rule, "stage")
	if stage != "history" && stage != "compiled" {
		d.addError(label + ` stage must be "history" or "compiled".`)
	}
	effect, _ := getString(rule, "effect")
	if x, present := rule.Get("effect"); present {
		if x != "outgoing" && x != "finalize" {
			d.addError(label + ` effect must be "outgoing" or "finalize".`)
		} else if x == "finalize" {
			d.addWarning(label + ` effect "finalize" rewrites stored assistant/tool-result messages at completion time; the original content is not preserved in the transcript.`)
		}
	}
	if x, present := rule.Get("frequency"); present {
		targets := get(rule, "targets")
		switch {
		case x != "turn" && x != "request":
			d.addError(label + ` frequency must be "turn" or "request".`)
		case effect == "finalize":
			d.addWarning(label + ` frequency has no effect for "finalize" rules; finalize runs when each message completes.`)
		case x == "request" && stage == "compiled" && isStringArray(targets) && !containsString(stringList(targets), "messages"):
			d.addWarning(label + ` frequency "request" has no effect: the rule does not target messages.`)
		}
	}
	if effect == "finalize" && stage != "compiled" {
		d.addError(label + ` effect "finalize" requires stage "compiled".`)
	}
	if pattern, isString := getString(rule, "pattern"); !isString || pattern == "" {
		d.addError(label + " pattern must be a non-empty string.")
	} else if flagsMsg := validateRegexFlags(rule, label); flagsMsg != "" {
		d.addError(flagsMsg)
	} else {
		flags, _ := getString(rule, "flags")
		if _, err := jsregex.Compile(pattern, flags); err != nil {
			d.addError(label + " pattern failed to compile: " + err.Error())
		}
	}
	if x, present := rule.Get("replace"); present {
		if s, isString := x.(string); !isString {
			d.addError(label + " replace must be a string when provided.")
		} else if matchPlaceholder().MatchString(s) {
			d.addWarning(label + " replacement contains {{match}}; use JavaScript $& or $0 for the full match.")
		}
	}
	for _, key := range []string{"trimStrings", "roles"} {
		if x, present := rule.Get(key); present && !isStringArray(x) {
			d.addError(label + " " + key + " must be an array of strings when provided.")
		}
	}
	if x, present := rule.Get("targets"); present {
		if !isStringArray(x) {
			d.addError(label + " targets must be an array of strings when provided.")
		} else {
			for _, target := range stringList(x) {
				if target != "system" && target != "messages" {
					d.addError(label + ` target must be "system" or "messages": ` + target + ".")
				} else if effect == "finalize" && target != "messages" {
					d.addError(label + ` effect "finalize" only supports target "messages": ` + target + ".")
				}
			}
		}
	}
	if roles := get(rule, "roles"); effect == "finalize" && isStringArray(roles) {
		var runnable, unsupported []string
		for _, role := range stringList(roles) {
			if role == "assistant" || role == "toolResult" {
				runnable = append(runnable, role)
			} else {
				unsupported = append(unsupported, role)
			}
		}
		if len(runnable) == 0 {
			d.addWarning(label + ` effect "finalize" only runs for finalized assistant and tool-result messages, but roles includes neither.`)
		} else if len(unsupported) > 0 {
			d.addWarning(label + ` effect "finalize" ignores unsupported roles: ` + strings.Join(unsupported, ", ") + " (only assistant and tool-result messages are finalized).")
		}
	}
	for _, key := range []string{"maxMessages", "maxChars"} {
		if x, present := rule.Get(key); present && !isPositiveInteger(x) {
			d.addError(label + " " + key + " must be a positive integer when provided.")
		}
	}
	for _, key := range []string{"minDepth", "maxDepth"} {
		if x, present := rule.Get(key); present && !isNonNegativeInteger(x) {
			d.addError(label + " " + key + " must be a non-negative integer when provided.")
		}
	}
	minDepth, maxDepth := get(rule, "minDepth"), get(rule, "maxDepth")
	if isNonNegativeInteger(minDepth) && isNonNegativeInteger(maxDepth) && maxDepth.(float64) < minDepth.(float64) {
		d.addError(label + " maxDepth must be greater than or equal to minDepth.")
	}
}

// validateRegexFlags returns the flags message of a rule, or "".
func validateRegexFlags(rule *jsonv.Object, label string) string {
	value, present := rule.Get("flags")
	if !present {
		return ""
	}
	flags, ok := value.(string)
	if !ok {
		return label + " flags must be a string when provided."
	}
	return flagsProblem(flags, label)
}

func flagsProblem(flags, label string) string {
	seen := map[rune]bool{}
	for _, f := range flags {
		if !strings.ContainsRune("gimsu", f) {
			return label + " has unsupported regex flag: " + string(f) + "."
		}
		if seen[f] {
			return label + " has duplicate regex flag: " + string(f) + "."
		}
		seen[f] = true
	}
	return ""
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
