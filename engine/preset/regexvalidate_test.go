package preset

import (
	"strings"
	"testing"
)

var regexRuleCases = []struct {
	name, regex string
	want        Diagnostics
}{
	{"valid", `{"schemaVersion":1,"rules":[{"id":"r","stage":"history","pattern":"a","flags":"gi","replace":"$&"}]}`, nil},
	{"schemaVersion", `{"schemaVersion":2}`, Diagnostics{d(LevelWarning, "Missing or unsupported regex.schemaVersion; assuming 1.", "")}},
	{"rules not array", `{"rules":{}}`, Diagnostics{d(LevelError, "regex.rules must be an array when provided.", "")}},
	{"rule not object", `{"rules":[1]}`, Diagnostics{d(LevelError, "regex rule 1 must be an object.", "")}},
	{"missing id uses index label", `{"rules":[{"stage":"x","pattern":""}]}`, Diagnostics{
		d(LevelError, "regex rule 1 must have a non-empty id.", ""),
		d(LevelError, `regex rule 1 stage must be "history" or "compiled".`, ""),
		d(LevelError, "regex rule 1 pattern must be a non-empty string.", ""),
	}},
	{"duplicate id", `{"rules":[{"id":"r","stage":"history","pattern":"a"},{"id":" r ","stage":"history","pattern":"a"}]}`, Diagnostics{
		d(LevelError, "Duplicate regex rule id: r.", ""),
	}},
	{"enabled effect frequency", `{"rules":[{"id":"r","enabled":1,"stage":"history","effect":"display","frequency":"always","pattern":"a"}]}`, Diagnostics{
		d(LevelWarning, "Regex rule r enabled must be a boolean when provided.", ""),
		d(LevelError, `Regex rule r effect must be "outgoing" or "finalize".`, ""),
		d(LevelError, `Regex rule r frequency must be "turn" or "request".`, ""),
	}},
	{"finalize on history", `{"rules":[{"id":"r","stage":"history","effect":"finalize","frequency":"turn","pattern":"a"}]}`, Diagnostics{
		d(LevelWarning, `Regex rule r effect "finalize" rewrites stored assistant/tool-result messages at completion time; the original content is not preserved in the transcript.`, ""),
		d(LevelWarning, `Regex rule r frequency has no effect for "finalize" rules; finalize runs when each message completes.`, ""),
		d(LevelError, `Regex rule r effect "finalize" requires stage "compiled".`, ""),
	}},
	{"request without messages", `{"rules":[{"id":"r","stage":"compiled","frequency":"request","targets":["system"],"pattern":"a"}]}`, Diagnostics{
		d(LevelWarning, `Regex rule r frequency "request" has no effect: the rule does not target messages.`, ""),
	}},
	{"flags", `{"rules":[{"id":"r","stage":"history","pattern":"a","flags":"gy"},{"id":"s","stage":"history","pattern":"a","flags":"gig"},{"id":"t","stage":"history","pattern":"a","flags":1}]}`, Diagnostics{
		d(LevelError, "Regex rule r has unsupported regex flag: y.", ""),
		d(LevelError, "Regex rule s has duplicate regex flag: g.", ""),
		d(LevelError, "Regex rule t flags must be a string when provided.", ""),
	}},
	{"compile error", `{"rules":[{"id":"r","stage":"history","pattern":"(a","flags":"g"}]}`, Diagnostics{
		d(LevelError, "Regex rule r pattern failed to compile: Invalid regular expression: /(a/g: Unterminated group", ""),
	}},
	{"replace", `{"rules":[{"id":"r","stage":"history","pattern":"a","replace":1},{"id":"s","stage":"history","pattern":"a","replace":"<{{ MATCH }}>"}]}`, Diagnostics{
		d(LevelError, "Regex rule r replace must be a string when provided.", ""),
		d(LevelWarning, "Regex rule s replacement contains {{match}}; use JavaScript $& or $0 for the full match.", ""),
	}},
	{"arrays", `{"rules":[{"id":"r","stage":"compiled","pattern":"a","trimStrings":"x","roles":[1],"targets":"system"}]}`, Diagnostics{
		d(LevelError, "Regex rule r trimStrings must be an array of strings when provided.", ""),
		d(LevelError, "Regex rule r roles must be an array of strings when provided.", ""),
		d(LevelError, "Regex rule r targets must be an array of strings when provided.", ""),
	}},
	{"targets values", `{"rules":[{"id":"r","stage":"compiled","effect":"finalize","pattern":"a","targets":["system","chat","messages"],"roles":["user"]}]}`, Diagnostics{
		d(LevelWarning, `Regex rule r effect "finalize" rewrites stored assistant/tool-result messages at completion time; the original content is not preserved in the transcript.`, ""),
		d(LevelError, `Regex rule r effect "finalize" only supports target "messages": system.`, ""),
		d(LevelError, `Regex rule r target must be "system" or "messages": chat.`, ""),
		d(LevelWarning, `Regex rule r effect "finalize" only runs for finalized assistant and tool-result messages, but roles includes neither.`, ""),
	}},
	{"finalize mixed roles", `{"rules":[{"id":"r","stage":"compiled","effect":"finalize","pattern":"a","roles":["assistant","user","system"]}]}`, Diagnostics{
		d(LevelWarning, `Regex rule r effect "finalize" rewrites stored assistant/tool-result messages at completion time; the original content is not preserved in the transcript.`, ""),
		d(LevelWarning, `Regex rule r effect "finalize" ignores unsupported roles: user, system (only assistant and tool-result messages are finalized).`, ""),
	}},
	{"numbers", `{"rules":[{"id":"r","stage":"history","pattern":"a","maxMessages":0,"maxChars":2.5,"minDepth":-1,"maxDepth":"1"}]}`, Diagnostics{
		d(LevelError, "Regex rule r maxMessages must be a positive integer when provided.", ""),
		d(LevelError, "Regex rule r maxChars must be a positive integer when provided.", ""),
		d(LevelError, "Regex rule r minDepth must be a non-negative integer when provided.", ""),
		d(LevelError, "Regex rule r maxDepth must be a non-negative integer when provided.", ""),
	}},
	{"huge integers are integers", `{"rules":[{"id":"r","stage":"history","pattern":"a","maxChars":1e300,"maxDepth":1e300}]}`, nil},
	{"depth order", `{"rules":[{"id":"r","stage":"history","pattern":"a","minDepth":3,"maxDepth":1}]}`, Diagnostics{
		d(LevelError, "Regex rule r maxDepth must be greater than or equal to minDepth.", ""),
	}},
}

func TestRegexRuleDiagnostics(t *testing.T) {
	for _, c := range regexRuleCases {
		_, got := Parse([]byte(`{"id":"a","regex":`+c.regex+`,"items":[`+chatItem+`]}`), "a.json")
		checkDiags(t, c.name, got, c.want)
	}
}

func TestRegexRulesView(t *testing.T) {
	s, _ := Parse([]byte(`{"id":"a","regex":{"rules":[{"id":" r ","name":"N","enabled":false,"stage":"compiled","frequency":"request","pattern":"p","flags":"g","replace":"x","trimStrings":["t"],"roles":["user"],"targets":["system"],"maxMessages":2,"minDepth":0},1]},"items":[]}`), "a.json")
	rules := s.RegexRules()
	if len(rules) != 1 {
		t.Fatalf("rules = %+v", rules)
	}
	r := rules[0]
	if r.ID != "r" || r.Name != "N" || r.Enabled || r.Stage != StageCompiled || r.Effect != EffectOutgoing || r.Frequency != FrequencyRequest ||
		r.Pattern != "p" || r.Flags != "g" || r.Replace != "x" || strings.Join(r.TrimStrings, ",") != "t" || r.Roles[0] != "user" ||
		r.Targets[0] != TargetSystem || r.MaxMessages != 2 || r.MaxChars != 0 || r.MinDepth != 0 || r.MaxDepth != -1 {
		t.Errorf("rule view = %+v", r)
	}
}
