package preset

import (
	"fmt"
	"strings"
	"testing"
)

var bindingCases = []struct {
	name, caps string
	scope      Scope
	want       Diagnostics
}{
	{"valid", `[{"ref":"project:write-tools","id":"w","modelCallable":true,"overrides":{"appendContent":"x","tools":{"add":["bash"]}}}]`, "", nil},
	{"not array", `{}`, "", Diagnostics{d(LevelError, "Preset capabilities must be an array when provided.", "")}},
	{"not object", `[1]`, "", Diagnostics{d(LevelError, "Capability binding must be an object.", "")}},
	{"unknown field and missing ref", `[{"x":1}]`, "", Diagnostics{
		d(LevelError, "Unsupported binding field: x", ""),
		d(LevelError, "Binding ref is required.", ""),
	}},
	{"blank ref", `[{"ref":" "}]`, "", Diagnostics{d(LevelError, "Binding ref must be a non-empty string.", "")}},
	{"bad selector", `[{"ref":"team:x"}]`, "", Diagnostics{d(LevelError, `Unknown scope prefix: team. Expected "project" or "global".`, "")}},
	{"global owner", `[{"ref":"project:x"}]`, ScopeGlobal, Diagnostics{d(LevelError, "Global binding cannot reference project capability: project:x.", "")}},
	{"global owner bare ok", `[{"ref":"x"}]`, ScopeGlobal, nil},
	{"id and modelCallable", `[{"ref":"x","id":"-x","modelCallable":"yes"}]`, "", Diagnostics{
		d(LevelError, "Binding id must be a valid resource id.", ""),
		d(LevelError, "modelCallable must be a boolean when provided.", ""),
	}},
	{"overrides not object", `[{"ref":"x","overrides":[]}]`, "", Diagnostics{d(LevelError, "overrides must be an object.", "")}},
	{"overrides fields", `[{"ref":"x","overrides":{"content":1,"appendContent":"a","only":[],"tools":{"add":"bash","remove":["a b",""," ","x*","\u0001",7],"only":1}}}]`, "", Diagnostics{
		d(LevelError, "Unsupported override field: only", ""),
		d(LevelError, "Cannot specify both content and appendContent in overrides.", ""),
		d(LevelError, "overrides.content must be a string.", ""),
		d(LevelError, "Unsupported tools field in overrides: only", ""),
		d(LevelError, "overrides.tools.add must be an array of tool names.", ""),
		d(LevelError, `Tool name at index 0 ("a b") cannot contain whitespace.`, ""),
		d(LevelError, "Tool name at index 1 cannot be empty.", ""),
		d(LevelError, `Tool name at index 2 (" ") cannot contain whitespace.`, ""),
		d(LevelError, `Tool name at index 3 ("x*") cannot contain wildcard characters (* or ?).`, ""),
		d(LevelError, "Tool name at index 4 cannot contain control characters.", ""),
		d(LevelError, "Tool name at index 5 must be a string.", ""),
	}},
	{"overrides tools not object", `[{"ref":"x","overrides":{"tools":1}}]`, "", Diagnostics{d(LevelError, "overrides.tools must be an object.", "")}},
	{"duplicate ids", `[{"ref":"project:a"},{"ref":"global:a"},{"ref":"b","id":"a"}]`, "", Diagnostics{
		d(LevelError, "Duplicate capability binding id: a", ""),
	}},
}

func TestBindingDiagnostics(t *testing.T) {
	for _, c := range bindingCases {
		raw := `{"id":"a","capabilities":` + c.caps + `,"items":[` + chatItem + `]}`
		_, got := ParseWith([]byte(raw), "a.json", ParseOptions{Scope: c.scope})
		checkDiags(t, c.name, got, c.want)
	}
}

func TestBindingLimitsAndView(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 257; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"ref":"c%d"}`, i)
	}
	_, got := Parse([]byte(`{"id":"a","capabilities":[`+b.String()+`],"items":[`+chatItem+`]}`), "a.json")
	checkDiags(t, "257 bindings", got, Diagnostics{d(LevelError, "Preset capabilities cannot exceed 256 bindings (got 257).", "")})

	long := strings.Repeat("x", 100001)
	_, got = Parse([]byte(`{"id":"a","capabilities":[{"ref":"c","overrides":{"content":"`+long+`"}}],"items":[`+chatItem+`]}`), "a.json")
	checkDiags(t, "long override", got, Diagnostics{d(LevelError, "overrides.content exceeds maximum length of 100000 characters.", "")})

	s, _ := Parse([]byte(`{"id":"a","capabilities":[5,{"ref":"project:w","modelCallable":true,"overrides":{"content":"c","tools":{"remove":[]}}}],"items":[]}`), "a.json")
	view := s.CapabilityBindings()
	if len(view) != 1 || view[0].Ref != "project:w" || !view[0].ModelCallable || view[0].EffectiveID() != "w" ||
		view[0].Overrides == nil || *view[0].Overrides.Content != "c" || view[0].Overrides.ToolsAdd != nil || view[0].Overrides.ToolsRemove == nil {
		t.Errorf("binding view = %+v", view)
	}
	if len(s.Capabilities) != 2 {
		t.Errorf("raw bindings kept = %d", len(s.Capabilities))
	}
}
