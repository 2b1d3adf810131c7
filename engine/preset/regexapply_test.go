package preset

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/jsregex"
)

func mustObject(t *testing.T, raw string) *jsonv.Object {
	t.Helper()
	v, err := jsonv.Parse([]byte(raw))
	if err != nil {
		t.Fatalf("parse %s: %v", raw, err)
	}
	return v.(*jsonv.Object)
}

func mustArray(t *testing.T, raw string) []any {
	t.Helper()
	v, err := jsonv.Parse([]byte(raw))
	if err != nil {
		t.Fatalf("parse %s: %v", raw, err)
	}
	return v.([]any)
}

func stackWithRules(t *testing.T, rules string) *Stack {
	t.Helper()
	s, diags := Parse([]byte(`{"id":"s","regex":{"rules":`+rules+`},"items":[`+chatItem+`]}`), "s.json")
	for _, x := range diags {
		if x.Level == LevelError {
			t.Fatalf("stack has errors: %v", diags)
		}
	}
	return s
}

func TestRuleTransform(t *testing.T) {
	cases := []struct {
		name, rule, input, want string
		matches                 int
	}{
		{"$0 is whole match", `{"id":"r","stage":"history","pattern":"b+","replace":"<$0>"}`, "abbc", "a<bb>c", 1},
		{"$$0 stays literal", `{"id":"r","stage":"history","pattern":"b","replace":"$$0"}`, "abc", "a$0c", 1},
		{"$01 capture", `{"id":"r","stage":"history","pattern":"(b)","replace":"[$01]"}`, "abc", "a[b]c", 1},
		{"default replace empty", `{"id":"r","stage":"history","pattern":"b","flags":"g"}`, "abcb", "ac", 2},
		{"non-global counts one", `{"id":"r","stage":"history","pattern":"b","replace":"x"}`, "bbb", "xbb", 1},
		{"global empty matches", `{"id":"r","stage":"history","pattern":"^","flags":"gm","replace":"> "}`, "a\nb", "> a\n> b", 2},
		{"no match", `{"id":"r","stage":"history","pattern":"z","flags":"g","replace":"x"}`, "abc", "abc", 0},
		{"same text still counts", `{"id":"r","stage":"history","pattern":"a","flags":"g","replace":"a"}`, "aa", "aa", 2},
		{"maxChars tail only", `{"id":"r","stage":"history","pattern":"a","flags":"g","replace":"x","maxChars":2}`, "aaaa", "aaxx", 2},
		{"maxChars utf16", `{"id":"r","stage":"history","pattern":"a","flags":"g","replace":"x","maxChars":3}`, "a😀aa", "a😀xx", 2},
		{"trimStrings", `{"id":"r","stage":"history","pattern":"<(\\w+)>(.*?)</\\1>","flags":"g","replace":"$2|$1|$&|$0","trimStrings":["*",""]}`, "<b>*x*</b>", "x|b|<b>x</b>|<b>x</b>", 1},
		{"trimStrings greedy two digits", `{"id":"r","stage":"history","pattern":"(a)","replace":"[$10]","trimStrings":["z"]}`, "a", "[]", 1},
		{"trimStrings named and context", "{\"id\":\"r\",\"stage\":\"history\",\"pattern\":\"(?<w>b)\",\"replace\":\"$<w>$<none>$`$'$$\",\"trimStrings\":[\"q\"]}", "abc", "abac$c", 1},
		{"trimStrings $01 literal", `{"id":"r","stage":"history","pattern":"(a)","replace":"$01","trimStrings":["z"]}`, "a", "$01", 1},
	}
	for _, c := range cases {
		rule, diags := CompileRule(mustObject(t, c.rule))
		if rule == nil || len(diags) > 0 {
			t.Errorf("%s: not compiled: %v", c.name, diags)
			continue
		}
		res, err := rule.Transform(c.input)
		if err != nil || res.Text != c.want || res.Matches != c.matches || res.Changed != (c.want != c.input) {
			t.Errorf("%s: Transform(%q) = %+v, %v; want %q (%d matches)", c.name, c.input, res, err, c.want, c.matches)
		}
	}
}

func TestCompileRuleRejects(t *testing.T) {
	for _, raw := range []string{
		`{"stage":"history","pattern":"a"}`,
		`{"id":"r","stage":"later","pattern":"a"}`,
		`{"id":"r","stage":"history","effect":"both","pattern":"a"}`,
		`{"id":"r","stage":"history","pattern":""}`,
		`{"id":"r","stage":"history","pattern":"a","flags":"x"}`,
	} {
		if rule, _ := CompileRule(mustObject(t, raw)); rule != nil {
			t.Errorf("CompileRule(%s) compiled", raw)
		}
	}
	rule, diags := CompileRule(mustObject(t, `{"id":" r ","stage":"history","pattern":"[","flags":5}`))
	if rule != nil || len(diags) != 1 || diags[0].Message != "Regex rule  r  failed to compile: Invalid regular expression: /[/: Unterminated character class" {
		t.Errorf("compile failure diagnostics = %v", diags)
	}
}

func TestApplyRegexToString(t *testing.T) {
	s := stackWithRules(t, `[
		{"id":"sys","stage":"compiled","targets":["system"],"pattern":"Pi","flags":"g","replace":"Forge"},
		{"id":"msgs-only","stage":"compiled","targets":["messages"],"pattern":"Forge","flags":"g","replace":"X"},
		{"id":"off","enabled":false,"stage":"compiled","pattern":"Forge","flags":"g","replace":"Y"},
		{"id":"fin","stage":"compiled","effect":"finalize","pattern":"Forge","replace":"Z"},
		{"id":"both","stage":"compiled","pattern":"(Forge) (Forge)","replace":"$2+$1"},
		{"id":"hist","stage":"history","pattern":"Forge","replace":"H"}
	]`)
	out, diags := ApplyRegexToString(s, "Pi Pi", StageCompiled, TargetSystem)
	if out != "Forge+Forge" {
		t.Errorf("system prompt = %q", out)
	}
	checkDiags(t, "system stats", diags, Diagnostics{
		d(LevelInfo, "Regex rule sys matched 2 time(s) and changed 1 text segment(s) in compiled/system.", ""),
		d(LevelInfo, "Regex rule both matched 1 time(s) and changed 1 text segment(s) in compiled/system.", ""),
	})
}

func TestApplyRegexToMessages(t *testing.T) {
	s := stackWithRules(t, `[
		{"id":"r","stage":"history","pattern":"secret","flags":"g","replace":"***","roles":["user","assistant"],"maxDepth":3,"maxMessages":2}
	]`)
	messages := mustArray(t, `[
		{"role":"system","content":"secret"},
		{"role":"user","content":"secret 0"},
		{"role":"user","content":[{"type":"text","text":"secret 1"},{"type":"image","data":"secret"}]},
		{"role":"toolResult","content":"secret"},
		{"role":"custom","customType":"pi-forge-capability-delivery","content":"secret"},
		{"role":"assistant","content":[{"type":"thinking","thinking":"secret"},{"type":"text","text":"a secret and a secret"}]}
	]`)
	before := jsonv.Stringify(messages)
	out, diags := ApplyRegexToMessages(s, messages, StageHistory)
	if jsonv.Stringify(messages) != before {
		t.Fatal("input messages were mutated")
	}
	want := `[{"role":"system","content":"secret"},{"role":"user","content":"secret 0"},{"role":"user","content":[{"type":"text","text":"*** 1"},{"type":"image","data":"secret"}]},{"role":"toolResult","content":"secret"},{"role":"custom","customType":"pi-forge-capability-delivery","content":"secret"},{"role":"assistant","content":[{"type":"thinking","thinking":"secret"},{"type":"text","text":"a *** and a ***"}]}]`
	if got := jsonv.Stringify(out); got != want {
		t.Errorf("messages:\n got %s\nwant %s", got, want)
	}
	checkDiags(t, "message stats", diags, Diagnostics{d(LevelInfo, "Regex rule r matched 3 time(s) and changed 2 text segment(s) in history/messages.", "")})

	same, diags := ApplyRegexToMessages(s, messages[:1], StageCompiled)
	if len(same) != 1 || len(diags) != 0 {
		t.Errorf("compiled stage must not run history rules: %v", diags)
	}
}

func TestMinDepth(t *testing.T) {
	s := stackWithRules(t, `[{"id":"r","stage":"compiled","pattern":"x","replace":"y","minDepth":1}]`)
	out, _ := ApplyRegexToMessages(s, mustArray(t, `[{"role":"user","content":"x"},{"role":"user","content":"x"}]`), StageCompiled)
	if got := jsonv.Stringify(out); got != `[{"role":"user","content":"y"},{"role":"user","content":"x"}]` {
		t.Errorf("minDepth: %s", got)
	}
}

func TestRequestFrequencyRules(t *testing.T) {
	s := stackWithRules(t, `[
		{"id":"c","stage":"compiled","frequency":"request","pattern":"b","replace":"c"},
		{"id":"h","stage":"history","frequency":"request","pattern":"a","replace":"b"},
		{"id":"turn","stage":"history","pattern":"c","replace":"d"},
		{"id":"sys","stage":"compiled","frequency":"request","targets":["system"],"pattern":"c","replace":"e"}
	]`)
	if !HasRequestFrequencyRules(s) {
		t.Fatal("HasRequestFrequencyRules = false")
	}
	out, diags := ApplyRequestFrequencyRegex(s, mustArray(t, `[{"role":"user","content":"a"}]`))
	if got := jsonv.Stringify(out); got != `[{"role":"user","content":"c"}]` {
		t.Errorf("request rules: %s", got)
	}
	checkDiags(t, "request stats", diags, Diagnostics{
		d(LevelInfo, "Regex rule h matched 1 time(s) and changed 1 text segment(s) in history/messages.", ""),
		d(LevelInfo, "Regex rule c matched 1 time(s) and changed 1 text segment(s) in compiled/messages.", ""),
	})
	if HasRequestFrequencyRules(stackWithRules(t, `[]`)) {
		t.Error("empty rules have request rules")
	}
}

func TestApplyFinalizeRegex(t *testing.T) {
	s := stackWithRules(t, `[
		{"id":"a","stage":"compiled","effect":"finalize","pattern":"TODO","flags":"g","replace":"done"},
		{"id":"t","stage":"compiled","effect":"finalize","pattern":"token=\\w+","replace":"token=[redacted]","roles":["toolResult"]}
	]`)
	msg := mustObject(t, `{"role":"assistant","content":[{"type":"text","text":"TODO TODO"}],"stopReason":"stop"}`)
	out, replaced, diags := ApplyFinalizeRegex(s, msg)
	if !replaced || jsonv.Stringify(out) != `{"role":"assistant","content":[{"type":"text","text":"done done"}],"stopReason":"stop"}` {
		t.Errorf("assistant finalize = %v %s", replaced, jsonv.Stringify(out))
	}
	checkDiags(t, "finalize diags", diags, Diagnostics{
		d(LevelInfo, "Regex rule a matched 2 time(s) and changed 1 text segment(s) in finalize/messages.", ""),
		d(LevelWarning, "Finalize regex replaced stored message content; the original content is not preserved in the transcript.", ""),
	})
	tool := mustObject(t, `{"role":"toolResult","content":"TODO token=abc"}`)
	out, replaced, _ = ApplyFinalizeRegex(s, tool)
	if !replaced || !strings.Contains(jsonv.Stringify(out), `"TODO token=[redacted]"`) {
		t.Errorf("toolResult finalize = %s", jsonv.Stringify(out))
	}
	if _, replaced, diags := ApplyFinalizeRegex(s, mustObject(t, `{"role":"user","content":"TODO"}`)); replaced || diags != nil {
		t.Error("user messages are never finalized")
	}
	if _, replaced, _ := ApplyFinalizeRegex(s, mustObject(t, `{"role":"assistant","content":"nothing"}`)); replaced {
		t.Error("unchanged message reported as replaced")
	}
}

// TestRegexKeepsLoneSurrogates checks that a lone UTF-16 surrogate (held as
// WTF-8 by jsonv, e.g. from the JSON text "\ud800") survives a regex rule
// as in JavaScript: it is one code unit that "." can match, it is copied
// through unchanged, and maxChars counts it as one character.
func TestRegexKeepsLoneSurrogates(t *testing.T) {
	s := stackWithRules(t, `[
		{"id":"swap","stage":"compiled","targets":["system"],"pattern":"a","flags":"g","replace":"b"},
		{"id":"dup","stage":"compiled","targets":["system"],"pattern":"(.)c","replace":"$1$1[$']"},
		{"id":"tail","stage":"compiled","targets":["system"],"pattern":"^.","replace":"<$&>","maxChars":3}
	]`)
	in, err := jsonv.Parse([]byte(`"\ud800a\udfffcx\ud800yz"`))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := ApplyRegexToString(s, in.(string), StageCompiled, TargetSystem)
	if got, want := jsonv.Quote(out), `"\ud800b\udfff\udfff[x\ud800yz]x<\ud800>yz"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// Surrogate escapes in the pattern match lone surrogates (and only them).
	for _, c := range []struct{ pattern, flags, want string }{
		{`\ud800`, "g", `"Xa\udfffXz"`},
		{`[\ud800-\udbff]`, "g", `"Xa\udfffXz"`},
		{`[^a]`, "g", `"XaXXX"`},
	} {
		re, err := jsregex.Compile(c.pattern, c.flags)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		text, _ := jsonv.Parse([]byte(`"\ud800a\udfff\ud800z"`))
		got, err := re.ReplaceString(text.(string), "X")
		if err != nil || jsonv.Quote(got) != c.want {
			t.Errorf("/%s/%s: got %s (%v), want %s", c.pattern, c.flags, jsonv.Quote(got), err, c.want)
		}
	}
}
