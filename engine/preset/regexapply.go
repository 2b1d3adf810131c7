package preset

import (
	"errors"
	"math"
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/jsregex"
)

// CompiledRule is a runnable regex rule (pi-forge's compileRuntimeRule).
type CompiledRule struct {
	// ID is the trimmed rule id; Name its display name ("" when none).
	ID, Name  string
	Stage     RegexStage
	Effect    RegexEffect
	Frequency RegexFrequency
	// Targets: nil = both; otherwise only the valid listed targets.
	Targets []RegexTarget
	// Roles: nil = all roles.
	Roles []string
	// MaxMessages, MaxChars: 0 = unlimited. MinDepth, MaxDepth: -1 = unset.
	MaxMessages, MaxChars, MinDepth, MaxDepth int
	// Regexp is the compiled pattern.
	Regexp *jsregex.Regexp
	// Replace is the replacement template.
	Replace string
	// TrimStrings: nil = absent.
	TrimStrings []string
}

// TransformResult is the outcome of running one rule over one string.
type TransformResult struct {
	Text    string
	Matches int
	Changed bool
}

// CompileRule compiles one raw rule object. It returns nil when the rule is
// not runnable; a pattern that fails to compile also yields the error
// diagnostic `Regex rule <id> failed to compile: <msg>`.
func CompileRule(raw *jsonv.Object) (*CompiledRule, Diagnostics) {
	var d Diagnostics
	rawID, isString := getString(raw, "id")
	id := jsonv.TrimJS(rawID)
	if !isString || id == "" {
		return nil, d
	}
	stage, _ := getString(raw, "stage")
	if stage != string(StageHistory) && stage != string(StageCompiled) {
		return nil, d
	}
	effect := ruleEffect(raw)
	if effect != EffectOutgoing && effect != EffectFinalize {
		return nil, d
	}
	pattern, _ := getString(raw, "pattern")
	if pattern == "" {
		return nil, d
	}
	flags, _ := getString(raw, "flags")
	if flagsProblem(flags, "") != "" {
		return nil, d
	}
	re, err := jsregex.Compile(pattern, flags)
	if err != nil {
		d.addError("Regex rule " + rawID + " failed to compile: " + err.Error())
		return nil, d
	}
	rule := &CompiledRule{
		ID: id, Stage: RegexStage(stage), Effect: effect, Frequency: FrequencyTurn,
		MaxMessages: positiveInt(get(raw, "maxMessages")), MaxChars: positiveInt(get(raw, "maxChars")),
		MinDepth: nonNegativeInt(get(raw, "minDepth")), MaxDepth: nonNegativeInt(get(raw, "maxDepth")),
		Regexp: re,
	}
	if f := get(raw, "frequency"); f == "request" {
		rule.Frequency = FrequencyRequest
	}
	if targets := get(raw, "targets"); isStringArray(targets) {
		rule.Targets = []RegexTarget{}
		for _, t := range stringList(targets) {
			if t == string(TargetSystem) || t == string(TargetMessages) {
				rule.Targets = append(rule.Targets, RegexTarget(t))
			}
		}
	}
	if roles := get(raw, "roles"); isStringArray(roles) {
		rule.Roles = stringList(roles)
	}
	rule.Name, _ = getString(raw, "name")
	rule.Replace, _ = getString(raw, "replace")
	if ts := get(raw, "trimStrings"); isStringArray(ts) {
		rule.TrimStrings = stringList(ts)
	}
	return rule, d
}

// ruleEffect is rawRule.effect ?? "outgoing" (non-string values stay invalid).
func ruleEffect(raw *jsonv.Object) RegexEffect {
	v, present := raw.Get("effect")
	if !present || v == nil {
		return EffectOutgoing
	}
	s, _ := v.(string)
	if s == "" {
		return "invalid"
	}
	return RegexEffect(s)
}

func positiveInt(x any) int {
	if !isPositiveInteger(x) {
		return 0
	}
	return int(math.Min(x.(float64), math.MaxInt32))
}

func nonNegativeInt(x any) int {
	if !isNonNegativeInteger(x) {
		return -1
	}
	return int(math.Min(x.(float64), math.MaxInt32))
}

// Transform runs the rule over one string (pi-forge's transformString):
// only the last MaxChars UTF-16 units are transformed; trimStrings switch to
// pi-forge's own expander, otherwise JavaScript replacement patterns apply
// with "$0" meaning the whole match.
func (r *CompiledRule) Transform(text string) (TransformResult, error) {
	return r.TransformWithin(text, nil)
}

// TransformWithin is Transform with every match run within budget (nil:
// jsregex.MatchTimeout only). A timeout or a spent budget returns the text
// unchanged with the error.
func (r *CompiledRule) TransformWithin(text string, budget *RegexBudget) (TransformResult, error) {
	head, body := jsregex.UTF16Split(text, r.MaxChars)
	var res jsregex.ReplaceResult
	var err error
	if len(r.TrimStrings) > 0 {
		res, err = r.Regexp.Replace(body, budget, func(s []rune, m *jsregex.Match) string {
			return r.Regexp.ExpandTrimmed(s, m, r.Replace, r.TrimStrings)
		})
	} else {
		replace := jsregex.ConvertDollarZero(r.Replace)
		res, err = r.Regexp.Replace(body, budget, func(s []rune, m *jsregex.Match) string {
			return r.Regexp.Substitute(s, m, replace)
		})
	}
	if err != nil {
		return TransformResult{Text: text}, err
	}
	out := head + res.Text
	return TransformResult{Text: out, Matches: res.Matches, Changed: out != text}, nil
}

// rawRules returns the raw rule objects of stack.regex.rules.
func rawRules(stack *Stack) []*jsonv.Object {
	if stack == nil || stack.Regex == nil {
		return nil
	}
	list, _ := get(stack.Regex, "rules").([]any)
	out := make([]*jsonv.Object, 0, len(list))
	for _, r := range list {
		if obj, ok := r.(*jsonv.Object); ok && get(obj, "enabled") != false {
			out = append(out, obj)
		}
	}
	return out
}

// excludedByTargets mirrors: stage compiled, targets is an array and does
// not include target.
func excludedByTargets(raw *jsonv.Object, target RegexTarget) bool {
	if get(raw, "stage") != string(StageCompiled) {
		return false
	}
	list, isArr := get(raw, "targets").([]any)
	if !isArr {
		return false
	}
	for _, t := range list {
		if t == string(target) {
			return false
		}
	}
	return true
}

// RulesFor compiles the enabled rules of one stage, target and effect in
// order (regexRulesFor); compile failures are reported in the diagnostics.
func RulesFor(stack *Stack, stage RegexStage, target RegexTarget, effect RegexEffect) ([]*CompiledRule, Diagnostics) {
	var d Diagnostics
	var out []*CompiledRule
	for _, raw := range rawRules(stack) {
		if ruleEffect(raw) != effect || get(raw, "stage") != string(stage) {
			continue
		}
		if stage == StageCompiled && excludedByTargets(raw, target) {
			continue
		}
		rule, diags := CompileRule(raw)
		d = append(d, diags...)
		if rule != nil {
			out = append(out, rule)
		}
	}
	return out, d
}

// requestRules are the outgoing frequency "request" rules that reach
// messages, history-stage rules first.
func requestRules(stack *Stack) ([]*CompiledRule, Diagnostics) {
	var d Diagnostics
	var history, compiled []*CompiledRule
	for _, raw := range rawRules(stack) {
		if get(raw, "frequency") != string(FrequencyRequest) || ruleEffect(raw) != EffectOutgoing {
			continue
		}
		if excludedByTargets(raw, TargetMessages) {
			continue
		}
		rule, diags := CompileRule(raw)
		d = append(d, diags...)
		if rule == nil {
			continue
		}
		if rule.Stage == StageHistory {
			history = append(history, rule)
		} else {
			compiled = append(compiled, rule)
		}
	}
	return append(history, compiled...), d
}

// HasRequestFrequencyRules reports whether the stack has outgoing message
// rules with frequency "request".
func HasRequestFrequencyRules(stack *Stack) bool {
	rules, _ := requestRules(stack)
	return len(rules) > 0
}

// ruleStats is the stats info of one rule run (only when it matched).
func ruleStats(d *Diagnostics, id, stage string, target RegexTarget, matches, changed int) {
	if matches == 0 {
		return
	}
	d.add(LevelInfo, "Regex rule "+id+" matched "+strconv.Itoa(matches)+" time(s) and changed "+strconv.Itoa(changed)+" text segment(s) in "+stage+"/"+string(target)+".", "")
}

// failure reports a rule that could not run: a match timeout gets its own
// error diagnostic; a rule not run because the compile's budget was spent
// is only recorded, for the budget's one summary diagnostic.
func failure(d *Diagnostics, budget *RegexBudget, id string, err error) {
	budget.record(id, err)
	if errors.Is(err, jsregex.ErrBudgetSpent) {
		return
	}
	d.addError("Regex rule " + id + " failed: " + err.Error())
}

// ApplyRegexToString applies the outgoing rules of stage/target to one
// string, e.g. the compiled system prompt (stage compiled, target system).
func ApplyRegexToString(stack *Stack, text string, stage RegexStage, target RegexTarget) (string, Diagnostics) {
	return ApplyRegexToStringWithin(stack, text, stage, target, nil)
}

// ApplyRegexToStringWithin is ApplyRegexToString with the rules run within
// budget (nil: jsregex.MatchTimeout per match only).
func ApplyRegexToStringWithin(stack *Stack, text string, stage RegexStage, target RegexTarget, budget *RegexBudget) (string, Diagnostics) {
	return ApplyRegexToStringSteps(stack, text, stage, target, budget, nil)
}

// ApplyRegexToStringSteps is ApplyRegexToStringWithin that calls step
// (when not nil) after each rule that changed the text, with the rule and
// the text it left: what a cause needs to name the rule that rewrote it.
func ApplyRegexToStringSteps(stack *Stack, text string, stage RegexStage, target RegexTarget, budget *RegexBudget, step func(rule *CompiledRule, text string)) (string, Diagnostics) {
	rules, d := RulesFor(stack, stage, target, EffectOutgoing)
	for _, rule := range rules {
		res, err := rule.TransformWithin(text, budget)
		if err != nil {
			failure(&d, budget, rule.ID, err)
			continue
		}
		text = res.Text
		changed := 0
		if res.Changed {
			changed = 1
			if step != nil {
				step(rule, text)
			}
		}
		ruleStats(&d, rule.ID, string(stage), target, res.Matches, changed)
	}
	return text, d
}
