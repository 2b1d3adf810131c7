package capability

import (
	"bytes"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

// diag builds an expected error diagnostic.
func diag(field, message string) Diagnostic {
	return Diagnostic{Level: preset.LevelError, Message: message, Field: field}
}

func sameDiags(got, want Diagnostics) bool {
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

const validHead = `"schemaVersion":1,"type":"pi-forge.capability","id":"cap"`

func TestParseMessages(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	tools300 := `[` + strings.TrimSuffix(strings.Repeat(`"t",`, 300), ",") + `]`
	cases := []struct {
		name string
		json string
		want Diagnostics
	}{
		{"clean", `{` + validHead + `,"content":"hi"}`, nil},
		{"unsupported field", `{` + validHead + `,"content":"hi","only":[],"extra":1}`,
			Diagnostics{diag("only", "Unsupported capability field: only"), diag("extra", "Unsupported capability field: extra")}},
		{"schemaVersion", `{"schemaVersion":2,"type":"pi-forge.capability","id":"cap","content":"hi"}`,
			Diagnostics{diag("schemaVersion", "schemaVersion must be 1.")}},
		{"schemaVersion string", `{"schemaVersion":"1","type":"pi-forge.capability","id":"cap","content":"hi"}`,
			Diagnostics{diag("schemaVersion", "schemaVersion must be 1.")}},
		{"type", `{"schemaVersion":1,"type":"pi-forge.mode","id":"cap","content":"hi"}`,
			Diagnostics{diag("type", `type must be "pi-forge.capability".`)}},
		{"id grammar", `{"schemaVersion":1,"type":"pi-forge.capability","id":"-cap","content":"hi"}`,
			Diagnostics{diag("id", msgBadID)}},
		{"id colon", `{"schemaVersion":1,"type":"pi-forge.capability","id":"project:cap","content":"hi"}`,
			Diagnostics{diag("id", msgBadID)}},
		{"id missing", `{"schemaVersion":1,"type":"pi-forge.capability","content":"hi"}`,
			Diagnostics{diag("id", msgBadID)}},
		{"name type", `{` + validHead + `,"name":3,"content":"hi"}`,
			Diagnostics{diag("name", "name must be a string when provided.")}},
		{"name null", `{` + validHead + `,"name":null,"content":"hi"}`,
			Diagnostics{diag("name", "name must be a string when provided.")}},
		{"name long", `{` + validHead + `,"name":"` + long(1001) + `","content":"hi"}`,
			Diagnostics{diag("name", "name exceeds maximum length of 1000 characters.")}},
		{"name at limit", `{` + validHead + `,"name":"` + long(1000) + `","content":"hi"}`, nil},
		{"name astral counts two", `{` + validHead + `,"name":"` + strings.Repeat("😀", 501) + `","content":"hi"}`,
			Diagnostics{diag("name", "name exceeds maximum length of 1000 characters.")}},
		{"description type", `{` + validHead + `,"description":[],"content":"hi"}`,
			Diagnostics{diag("description", "description must be a string when provided.")}},
		{"content missing", `{` + validHead + `}`,
			Diagnostics{diag("content", "content must be a string.")}},
		{"content type", `{` + validHead + `,"content":1,"tools":{"add":["a"]}}`,
			Diagnostics{diag("content", "content must be a string.")}},
		{"content long", `{` + validHead + `,"content":"` + long(100001) + `"}`,
			Diagnostics{diag("content", "content exceeds maximum length of 100000 characters.")}},
		{"content at limit", `{` + validHead + `,"content":"` + long(100000) + `"}`, nil},
		{"blank content no tools", `{` + validHead + `,"content":" \n\ufeff"}`,
			Diagnostics{diag("", msgNoEffect)}},
		{"blank content empty tools", `{` + validHead + `,"content":"","tools":{"add":[],"remove":[]}}`,
			Diagnostics{diag("", msgNoEffect)}},
		{"blank content only invalid tools", `{` + validHead + `,"content":"","tools":{"add":[""]}}`,
			Diagnostics{diag("tools.add[0]", "Tool name at index 0 cannot be empty."), diag("", msgNoEffect)}},
		{"tool-only capability", `{` + validHead + `,"content":"","tools":{"remove":["bash"]}}`, nil},
		{"tools type", `{` + validHead + `,"content":"hi","tools":[]}`,
			Diagnostics{diag("tools", "tools must be an object.")}},
		{"tools null", `{` + validHead + `,"content":"hi","tools":null}`,
			Diagnostics{diag("tools", "tools must be an object.")}},
		{"tools field", `{` + validHead + `,"content":"hi","tools":{"only":["a"]}}`,
			Diagnostics{diag("tools.only", "Unsupported tools field: only")}},
		{"add not array", `{` + validHead + `,"content":"hi","tools":{"add":"bash"}}`,
			Diagnostics{diag("tools.add", "tools.add must be an array of tool names.")}},
		{"remove not array", `{` + validHead + `,"content":"hi","tools":{"remove":{}}}`,
			Diagnostics{diag("tools.remove", "tools.remove must be an array of tool names.")}},
		{"add too many", `{` + validHead + `,"content":"hi","tools":{"add":` + tools300 + `}}`,
			Diagnostics{diag("tools.add", "tools.add cannot exceed 256 tools (got 300).")}},
		{"remove too many", `{` + validHead + `,"content":"hi","tools":{"remove":` + tools300 + `}}`,
			Diagnostics{diag("tools.remove", "tools.remove cannot exceed 256 tools (got 300).")}},
		{"tool names", `{` + validHead + `,"content":"hi","tools":{"add":[1,"","` + long(129) + `","a b","a\u0001b","a*","b?","ok","a\u00a0b","\u007f"]}}`,
			Diagnostics{
				diag("tools.add[0]", "Tool name at index 0 must be a string."),
				diag("tools.add[1]", "Tool name at index 1 cannot be empty."),
				diag("tools.add[2]", "Tool name at index 2 exceeds maximum length of 128 characters."),
				diag("tools.add[3]", `Tool name at index 3 ("a b") cannot contain whitespace.`),
				diag("tools.add[4]", "Tool name at index 4 cannot contain control characters."),
				diag("tools.add[5]", `Tool name at index 5 ("a*") cannot contain wildcard characters (* or ?).`),
				diag("tools.add[6]", `Tool name at index 6 ("b?") cannot contain wildcard characters (* or ?).`),
				diag("tools.add[8]", "Tool name at index 8 (\"a\u00a0b\") cannot contain whitespace."),
				diag("tools.add[9]", "Tool name at index 9 cannot contain control characters."),
			}},
		{"tab is whitespace before control", `{` + validHead + `,"content":"hi","tools":{"remove":["a\tb"]}}`,
			Diagnostics{diag("tools.remove[0]", "Tool name at index 0 (\"a\tb\") cannot contain whitespace.")}},
		{"tool name at limit", `{` + validHead + `,"content":"hi","tools":{"add":["` + long(128) + `"]}}`, nil},
		{"root array", `[]`, Diagnostics{diag("", msgRootNotObject)}},
		{"root null", `null`, Diagnostics{diag("", msgRootNotObject)}},
		{"syntax", `{"a":}`, nil}, // checked separately: message comes from jsonv
		{"tools keys before lists", `{"schemaVersion":1,"type":"pi-forge.capability","id":"cap","content":"hi","tools":{"add":["a b"],"x":1}}`,
			Diagnostics{diag("tools.x", "Unsupported tools field: x"), diag("tools.add[0]", `Tool name at index 0 ("a b") cannot contain whitespace.`)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := Parse([]byte(c.json), "cap.json", preset.ScopeProject)
			if c.name == "syntax" {
				if len(got) != 1 || !strings.HasPrefix(got[0].Message, "Failed to parse JSON: ") || got[0].Field != "" {
					t.Fatalf("syntax: %+v", got)
				}
				return
			}
			if !sameDiags(got, c.want) {
				t.Errorf("diagnostics\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestParseOrderAndDedupe(t *testing.T) {
	// Diagnostics come in pi-forge's order and identical (level, field,
	// message) triples appear once.
	_, got := Parse([]byte(`{"bad":1,"schemaVersion":0,"type":"x","id":"","name":1,"content":"","tools":{"add":"x","remove":["a b","a b"]}}`), "f.json", preset.ScopeGlobal)
	want := Diagnostics{
		diag("bad", "Unsupported capability field: bad"),
		diag("schemaVersion", "schemaVersion must be 1."),
		diag("type", `type must be "pi-forge.capability".`),
		diag("id", msgBadID),
		diag("name", "name must be a string when provided."),
		diag("tools.add", "tools.add must be an array of tool names."),
		diag("tools.remove[0]", `Tool name at index 0 ("a b") cannot contain whitespace.`),
		diag("tools.remove[1]", `Tool name at index 1 ("a b") cannot contain whitespace.`),
		diag("", msgNoEffect),
	}
	if !sameDiags(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	dup := Diagnostics{diag("a", "m"), diag("a", "m"), diag("b", "m"), {Level: preset.LevelWarning, Message: "m", Field: "a"}}
	if got := dup.Dedupe(); len(got) != 3 {
		t.Errorf("Dedupe kept %d", len(got))
	}
}

func TestNormalization(t *testing.T) {
	src := `{"tools":{"remove":["x","a b","y"],"add":["z"]},"content":"c","junk":true,"id":"n1","type":"pi-forge.capability","schemaVersion":1,"description":"d","name":"N"}`
	c, _ := Parse([]byte(src), "other.json", preset.ScopeProject)
	want := "{\n  \"schemaVersion\": 1,\n  \"type\": \"pi-forge.capability\",\n  \"id\": \"n1\",\n  \"name\": \"N\",\n  \"description\": \"d\",\n  \"content\": \"c\",\n  \"tools\": {\n    \"add\": [\n      \"z\"\n    ],\n    \"remove\": [\n      \"x\",\n      \"y\"\n    ]\n  }\n}\n"
	if got := string(Serialize(c)); got != want {
		t.Errorf("serialized\n%s\nwant\n%s", got, want)
	}
	// Absent tools normalize to empty lists; name over the limit is dropped.
	c, _ = Parse([]byte(`{`+validHead+`,"name":"`+strings.Repeat("n", 1001)+`","content":"c"}`), "cap.json", preset.ScopeProject)
	if c.Name != nil || c.Tools.Add == nil || c.Tools.Remove == nil {
		t.Errorf("normalized %+v", c)
	}
	if !bytes.Contains(Serialize(c), []byte(`"tools": {`+"\n"+`    "add": [],`)) {
		t.Errorf("empty lists not serialized as []: %s", Serialize(c))
	}
}

func TestFallbackIDs(t *testing.T) {
	cases := []struct{ json, basename, wantID string }{
		{`[]`, "dir/list.json", "list"},
		{`{"a":`, "broken.json", "broken"},
		{`{"id":"bad id","content":"x"}`, "f.json", "bad id"},
		{`{"id":"","content":"x"}`, "f.json", "f"},
		{`{"id":7,"content":"x"}`, "/abs/path/seven.json", "seven"},
		{`{"content":"x"}`, "noext", "noext"},
	}
	for _, c := range cases {
		got, diags := Parse([]byte(c.json), c.basename, preset.ScopeProject)
		if got.ID != c.wantID || !diags.HasErrors() {
			t.Errorf("%s: id %q (want %q), diags %+v", c.json, got.ID, c.wantID, diags)
		}
	}
	if c, d := ParseValue("str", ""); c.ID != "unknown" || d.FirstError() != msgRootNotObject {
		t.Errorf("ParseValue non-object: %+v %+v", c, d)
	}
}

func TestOversize(t *testing.T) {
	raw := append([]byte(`{`+validHead+`,"content":"`), bytes.Repeat([]byte("x"), MaxSourceSize)...)
	raw = append(raw, `"}`...)
	c, diags := Parse(raw, "big.json", preset.ScopeProject)
	want := "Capability capability file size (" + itoa(len(raw)) + " bytes) exceeds 1MiB limit."
	if c.ID != "big" || len(diags) != 1 || diags[0].Message != want {
		t.Errorf("oversize: %q %+v", c.ID, diags)
	}
	if e := Load(raw, "big.json", preset.ScopeProject); e.SourceRevision != "" || e.Usable() {
		t.Errorf("oversize entry %+v", e)
	}
}

func itoa(n int) string {
	var b []byte
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func TestValidateAndClone(t *testing.T) {
	name := "N"
	c := &Capability{ID: "x", Name: &name, Content: "", Tools: ToolPatch{Add: []string{"a"}}}
	if d := Validate(c); d.HasErrors() {
		t.Errorf("valid: %+v", d)
	}
	clone := c.Clone()
	*clone.Name = "changed"
	clone.Tools.Add[0] = "b"
	if *c.Name != "N" || c.Tools.Add[0] != "a" {
		t.Error("Clone shares storage")
	}
	c.Tools.Add = nil
	if d := Validate(c); d.FirstError() != msgNoEffect {
		t.Errorf("no effect: %+v", d)
	}
	c.ID = "a:b"
	if d := Validate(c); d[0] != diag("id", msgBadID) {
		t.Errorf("bad id: %+v", d)
	}
	if c.DisplayName() != "N" || (&Capability{ID: "i"}).DisplayName() != "i" {
		t.Error("DisplayName")
	}
}
