package profile

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

func errAt(field, message string) Diagnostic {
	return Diagnostic{Level: preset.LevelError, Message: message, Field: field}
}

func same(got, want Diagnostics) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

const head = `"schemaVersion":1,"type":"pi-forge.agent-profile","id":"rev"`
const body = `"model":{"provider":"anthropic","id":"claude"},"thinkingLevel":"high"`

func TestParseMessages(t *testing.T) {
	levels := "thinkingLevel must be one of: off, minimal, low, medium, high, xhigh, max."
	cases := []struct {
		name, json string
		want       Diagnostics
	}{
		{"clean", `{` + head + `,` + body + `,"promptStack":"reviewer"}`, nil},
		{"clean null stack", `{` + head + `,` + body + `,"promptStack":null,"name":"R","description":"d","autoActivate":true}`, nil},
		{"unsupported", `{` + head + `,` + body + `,"promptStack":null,"tools":[],"skills":1}`,
			Diagnostics{errAt("tools", "Unsupported profile field: tools"), errAt("skills", "Unsupported profile field: skills")}},
		{"schemaVersion", `{"schemaVersion":2,"type":"pi-forge.agent-profile","id":"rev",` + body + `,"promptStack":null}`,
			Diagnostics{errAt("schemaVersion", "schemaVersion must be 1.")}},
		{"type", `{"schemaVersion":1,"type":"pi-forge.capability","id":"rev",` + body + `,"promptStack":null}`,
			Diagnostics{errAt("type", `type must be "pi-forge.agent-profile".`)}},
		{"id missing uses valid basename", `{"schemaVersion":1,"type":"pi-forge.agent-profile",` + body + `,"promptStack":null}`,
			Diagnostics{errAt("id", "Profile id must be a non-empty string.")}},
		{"id blank", `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"  ",` + body + `,"promptStack":null}`,
			Diagnostics{errAt("id", "Profile id must be a non-empty string.")}},
		{"id grammar", `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"a b",` + body + `,"promptStack":null}`,
			Diagnostics{errAt("id", msgBadID)}},
		{"id trimmed", `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":" rev\u00a0",` + body + `,"promptStack":null}`, nil},
		{"model missing", `{` + head + `,"thinkingLevel":"high","promptStack":null}`,
			Diagnostics{errAt("model", "model must be an object containing provider and id."),
				errAt("model.provider", "model.provider must not be empty."), errAt("model.id", "model.id must not be empty.")}},
		{"model array", `{` + head + `,"model":["a","b"],"thinkingLevel":"high","promptStack":null}`,
			Diagnostics{errAt("model", "model must be an object containing provider and id."),
				errAt("model.provider", "model.provider must not be empty."), errAt("model.id", "model.id must not be empty.")}},
		{"model field", `{` + head + `,"model":{"provider":"a","id":"b","api":"x"},"thinkingLevel":"high","promptStack":null}`,
			Diagnostics{errAt("model.api", "Unsupported model field: api")}},
		{"model provider", `{` + head + `,"model":{"provider":" ","id":"b"},"thinkingLevel":"high","promptStack":null}`,
			Diagnostics{errAt("model.provider", "model.provider must not be empty.")}},
		{"model id", `{` + head + `,"model":{"provider":"a","id":7},"thinkingLevel":"high","promptStack":null}`,
			Diagnostics{errAt("model.id", "model.id must not be empty.")}},
		{"thinking", `{` + head + `,"model":{"provider":"a","id":"b"},"thinkingLevel":"HIGH","promptStack":null}`,
			Diagnostics{errAt("thinkingLevel", levels)}},
		{"thinking missing", `{` + head + `,"model":{"provider":"a","id":"b"},"promptStack":null}`,
			Diagnostics{errAt("thinkingLevel", levels)}},
		{"promptStack missing", `{` + head + `,` + body + `}`,
			Diagnostics{errAt("promptStack", "promptStack is required and must be a stack id or null.")}},
		{"promptStack blank", `{` + head + `,` + body + `,"promptStack":" "}`,
			Diagnostics{errAt("promptStack", "promptStack must be a non-empty stack id or null.")}},
		{"promptStack type", `{` + head + `,` + body + `,"promptStack":false}`,
			Diagnostics{errAt("promptStack", "promptStack must be a non-empty stack id or null.")}},
		{"name", `{` + head + `,` + body + `,"promptStack":null,"name":1}`,
			Diagnostics{errAt("name", "name must be a string when provided.")}},
		{"description", `{` + head + `,` + body + `,"promptStack":null,"description":null}`,
			Diagnostics{errAt("description", "description must be a string when provided.")}},
		{"autoActivate", `{` + head + `,` + body + `,"promptStack":null,"autoActivate":"yes"}`,
			Diagnostics{errAt("autoActivate", "autoActivate must be a boolean when provided.")}},
		{"root", `"x"`, Diagnostics{errAt("", "Agent profile root must be a JSON object."),
			errAt("model.provider", "model.provider must not be empty."), errAt("model.id", "model.id must not be empty.")}},
		{"everything", `{"extra":1}`, Diagnostics{
			errAt("extra", "Unsupported profile field: extra"),
			errAt("schemaVersion", "schemaVersion must be 1."),
			errAt("type", `type must be "pi-forge.agent-profile".`),
			errAt("id", "Profile id must be a non-empty string."),
			errAt("model", "model must be an object containing provider and id."),
			errAt("thinkingLevel", levels),
			errAt("promptStack", "promptStack is required and must be a stack id or null."),
			errAt("model.provider", "model.provider must not be empty."),
			errAt("model.id", "model.id must not be empty."),
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := Parse([]byte(c.json), "rev.json", preset.ScopeProject)
			if !same(got, c.want) {
				t.Errorf("diagnostics\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
	// Invalid JSON gives only the parse error; a bad basename shows up as
	// an id error when the file has no id.
	p, d := Parse([]byte(`{`), "dir/x.json", preset.ScopeGlobal)
	if p.ID != "x" || len(d) != 1 || !strings.HasPrefix(d[0].Message, "Failed to parse JSON: ") {
		t.Errorf("syntax: %+v %+v", p, d)
	}
	_, d = Parse([]byte(`[]`), "_bad.json", preset.ScopeProject)
	if len(d) != 4 || d[1] != errAt("id", msgBadID) {
		t.Errorf("bad basename: %+v", d)
	}
}

func TestNormalizeAndSerialize(t *testing.T) {
	src := `{"promptStack":" global:quick ","thinkingLevel":"max","model":{"id":" m ","provider":"p"},"autoActivate":false,"description":"d","name":"N","id":"x","type":"pi-forge.agent-profile","schemaVersion":1,"junk":1}`
	p, _ := Parse([]byte(src), "x.json", preset.ScopeProject)
	want := "{\n  \"schemaVersion\": 1,\n  \"type\": \"pi-forge.agent-profile\",\n  \"id\": \"x\",\n  \"name\": \"N\",\n  \"description\": \"d\",\n  \"autoActivate\": false,\n  \"model\": {\n    \"provider\": \"p\",\n    \"id\": \"m\"\n  },\n  \"thinkingLevel\": \"max\",\n  \"promptStack\": \"global:quick\"\n}\n"
	if got := string(Serialize(p)); got != want {
		t.Errorf("serialized\n%s\nwant\n%s", got, want)
	}
	if got := SourceFingerprint(p); got != `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"x","name":"N","description":"d","autoActivate":false,"model":{"provider":"p","id":"m"},"thinkingLevel":"max","promptStack":"global:quick"}` {
		t.Errorf("fingerprint %s", got)
	}
	p, _ = Parse([]byte(`{}`), "y.json", preset.ScopeProject)
	if got := string(Serialize(p)); !strings.Contains(got, `"thinkingLevel": "off",`+"\n"+`  "promptStack": null`) || strings.Contains(got, "name") {
		t.Errorf("fallback serialized %s", got)
	}
}

func TestValidateScope(t *testing.T) {
	ref := func(s string) *string { return &s }
	p := &Profile{ID: "g", Model: Model{"a", "b"}, ThinkingLevel: "off"}
	if d := ValidateScope(p, preset.ScopeGlobal); d != nil {
		t.Errorf("null stack: %+v", d)
	}
	p.PromptStack = ref("project:s")
	if d := ValidateScope(p, preset.ScopeGlobal); d.FirstError() != "Global profile g cannot reference project prompt stack s." {
		t.Errorf("global→project: %+v", d)
	}
	if d := ValidateScope(p, preset.ScopeProject); d != nil {
		t.Errorf("project→project: %+v", d)
	}
	p.PromptStack = ref("x:s")
	if d := ValidateScope(p, preset.ScopeProject); d.FirstError() != `Unknown scope prefix: x. Expected "project" or "global".` {
		t.Errorf("bad selector: %+v", d)
	}
	p.ThinkingLevel = "ultra"
	if d := Validate(p); d.FirstError() != "Unsupported thinkingLevel: ultra" {
		t.Errorf("Validate thinking: %+v", d)
	}
}
