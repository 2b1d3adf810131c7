package preset

import (
	"fmt"
	"strings"
	"testing"
)

// d builds an expected diagnostic; item may be "".
func d(level Level, message, item string) Diagnostic {
	return Diagnostic{Level: level, Message: message, ItemID: item}
}

const noChatHistory = "No enabled chat-history slot found; Pi chat context will be appended at the end."

// chatItem is a valid chat-history slot so a case isolates its own messages.
const chatItem = `{"kind":"slot","id":"h","slot":"chat-history"}`

func formatDiags(ds Diagnostics) string {
	var b strings.Builder
	for _, x := range ds {
		fmt.Fprintf(&b, "  %s %q item=%q\n", x.Level, x.Message, x.ItemID)
	}
	return b.String()
}

func checkDiags(t *testing.T, name string, got, want Diagnostics) {
	t.Helper()
	if formatDiags(got) != formatDiags(want) {
		t.Errorf("%s: diagnostics\n got:\n%s want:\n%s", name, formatDiags(got), formatDiags(want))
	}
}

var topLevelCases = []struct {
	name, json string
	want       Diagnostics
}{
	{"valid minimal", `{"id":"a","items":[` + chatItem + `]}`, nil},
	{"unsupported schemaVersion", `{"schemaVersion":3,"id":"a","items":[` + chatItem + `]}`,
		Diagnostics{d(LevelWarning, "Unsupported schemaVersion; assuming 1.", "")}},
	{"bad type", `{"type":"x","id":"a","items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, `Preset type must be "pi-forge.prompt-stack" when provided by the legacy schema.`, "")}},
	{"id missing", `{"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset id must be a non-empty string.", "")}},
	{"id number", `{"id":5,"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset id must be a non-empty string.", "")}},
	{"id bad grammar", `{"id":" -bad ","items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset id -bad must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens; falling back to file.", "")}},
	{"name description autoActivate", `{"id":"a","name":1,"description":false,"autoActivate":"yes","items":[` + chatItem + `]}`,
		Diagnostics{
			d(LevelError, "Preset name must be a string when provided.", ""),
			d(LevelError, "Preset description must be a string when provided.", ""),
			d(LevelError, "Preset autoActivate must be a boolean when provided.", ""),
		}},
	{"mode", `{"id":"a","mode":"merge","items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, `Preset mode must be "append", "prepend", or "replace" when provided.`, "")}},
	{"defaults not object", `{"id":"a","defaults":[],"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset defaults must be an object when provided.", "")}},
	{"defaults fields", `{"id":"a","defaults":{"syntheticMessagesVisible":1,"unresolvedMacroPolicy":"drop"},"items":[` + chatItem + `]}`,
		Diagnostics{
			d(LevelError, "defaults.syntheticMessagesVisible must be a boolean when provided.", ""),
			d(LevelError, `defaults.unresolvedMacroPolicy must be "warn", "keep", or "error" when provided.`, ""),
		}},
	{"defaults policy String()", `{"id":"a","defaults":{"unresolvedMacroPolicy":["keep"]},"items":[` + chatItem + `]}`, nil},
	{"context", `{"id":"a","context":{"allowDuplicateChatHistory":"y","mergeConsecutiveRoles":0,"mergeSeparator":1},"items":[` + chatItem + `]}`,
		Diagnostics{
			d(LevelError, "context.allowDuplicateChatHistory must be a boolean when provided.", ""),
			d(LevelError, "context.mergeConsecutiveRoles must be a boolean when provided.", ""),
			d(LevelError, "context.mergeSeparator must be a string when provided.", ""),
		}},
	{"context not object", `{"id":"a","context":"x","items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset context must be an object when provided.", "")}},
	{"variables", `{"id":"a","variables":{"x":"1","y":2},"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset variable y must be a string.", "")}},
	{"variables not object", `{"id":"a","variables":[],"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset variables must be an object when provided.", "")}},
	{"variables in v2", `{"schemaVersion":2,"id":"a","variables":{},"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelWarning, "schemaVersion 2 presets use parameters; variables is ignored.", "")}},
	{"parameters in v1", `{"id":"a","parameters":{},"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelWarning, "schemaVersion 1 presets use variables; parameters is ignored.", "")}},
	{"parameters not object", `{"schemaVersion":2,"id":"a","parameters":1,"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset parameters must be an object when provided.", "")}},
	{"parameters non-finite", `{"schemaVersion":2,"id":"a","parameters":{"big":1e999,"ok":[1,{"b":null}]},"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset parameter big must be a JSON-compatible value.", "")}},
	{"instructionModes", `{"id":"a","instructionModes":[],"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelError, "Preset instructionModes is no longer supported; rename it to capabilities.", "")}},
	{"state", `{"id":"a","state":{"x":1},"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelInfo, "state is no longer supported and was ignored; use stack.variables and template interpolation instead.", "")}},
	{"empty state ignored", `{"id":"a","state":{},"items":[` + chatItem + `]}`, nil},
	{"items missing", `{"id":"a"}`,
		Diagnostics{d(LevelError, "Preset must contain an items array.", ""), d(LevelWarning, noChatHistory, "")}},
	{"regex not object", `{"id":"a","regex":[],"items":[` + chatItem + `]}`,
		Diagnostics{d(LevelWarning, "regex must be an object when provided.", "")}},
	{"root array", `[1]`,
		Diagnostics{d(LevelError, "Preset root must be a JSON object.", ""), d(LevelWarning, noChatHistory, "")}},
	{"syntax error", `{"id":`, nil},
}

func TestParseTopLevelDiagnostics(t *testing.T) {
	for _, c := range topLevelCases {
		_, got := Parse([]byte(c.json), "file.json")
		if c.name == "syntax error" {
			if len(got) != 1 || got[0].Level != LevelError || !strings.HasPrefix(got[0].Message, "Failed to parse JSON: ") {
				t.Errorf("syntax error: got %v", got)
			}
			continue
		}
		checkDiags(t, c.name, got, c.want)
	}
}

var itemCases = []struct {
	name, items string
	want        Diagnostics
}{
	{"not an object", `[5,` + chatItem + `]`, Diagnostics{d(LevelError, "Item 1 must be an object.", "item-1")}},
	{"bad kind", `[{"kind":"x","id":"b","role":"system","content":""},` + chatItem + `]`,
		Diagnostics{d(LevelError, `Item 1 kind must be "block" or "slot".`, "b")}},
	{"numeric id", `[{"kind":"block","id":7,"role":"system","content":""},` + chatItem + `]`,
		Diagnostics{d(LevelError, "Item 1 id must be a non-empty string.", "item-1")}},
	{"blank id", `[{"kind":"block","id":"  ","role":"system","content":""},` + chatItem + `]`,
		Diagnostics{d(LevelError, "Item 1 id must be a non-empty string.", "item-1")}},
	{"field types", `[{"kind":"block","id":"b","name":1,"enabled":"no","role":"system","tags":["a",1],"source":[],"content":1},` + chatItem + `]`,
		Diagnostics{
			d(LevelError, "Item name must be a string when provided.", "b"),
			d(LevelError, "Item enabled must be a boolean when provided.", "b"),
			d(LevelError, "Item tags must be an array of strings when provided.", "b"),
			d(LevelError, "Item source must be an object when provided.", "b"),
			d(LevelError, "Block content must be a string.", "b"),
		}},
	{"invalid role", `[{"kind":"block","id":"b","role":"robot","content":"x"},` + chatItem + `]`,
		Diagnostics{d(LevelError, "Invalid role: robot", "b"), d(LevelWarning, "Enabled block has no role and will be ignored.", "b")}},
	{"invalid role String()", `[{"kind":"block","id":"b","role":[1,[2,null]],"enabled":false,"content":"x"},` + chatItem + `]`,
		Diagnostics{d(LevelError, "Invalid role: 1,2,", "b")}},
	{"slot name and options", `[{"kind":"slot","id":"s","role":"system","slot":" ","options":[]},` + chatItem + `]`,
		Diagnostics{
			d(LevelError, "Slot name must be a non-empty string.", "s"),
			d(LevelError, "Slot options must be an object when provided.", "s"),
			d(LevelWarning, "Unsupported slot:  ", "s"),
		}},
	{"unsupported slot", `[{"kind":"slot","id":"s","role":"user","slot":"nope"},` + chatItem + `]`,
		Diagnostics{d(LevelWarning, "Unsupported slot: nope", "s")}},
	{"duplicate id", `[{"kind":"block","id":"b","role":"system","content":""},{"kind":"block","id":"b","role":"system","content":""},` + chatItem + `]`,
		Diagnostics{d(LevelError, "Duplicate item id: b", "b")}},
	{"system after user", `[{"kind":"block","id":"u","role":"user","content":"x"},{"kind":"block","id":"s","role":"system","content":"y"},` + chatItem + `]`,
		Diagnostics{d(LevelWarning, "System item appears after non-system items; item position across the system/message channels has no effect on compilation. Use a user-role item for in-conversation injection.", "s")}},
	{"disabled user does not count", `[{"kind":"block","id":"u","role":"user","enabled":false,"content":"x"},{"kind":"block","id":"s","role":"system","content":"y"},` + chatItem + `]`, nil},
	{"no role block", `[{"kind":"block","id":"b","content":"x"},` + chatItem + `]`,
		Diagnostics{d(LevelWarning, "Enabled block has no role and will be ignored.", "b")}},
	{"no chat history", `[{"kind":"slot","id":"h","slot":"chat-history","enabled":false}]`,
		Diagnostics{d(LevelWarning, noChatHistory, "")}},
	{"two chat histories", `[` + chatItem + `,{"kind":"slot","id":"h2","slot":"chat-history"}]`,
		Diagnostics{d(LevelWarning, "Multiple enabled chat-history slots found; only the first will be expanded unless context.allowDuplicateChatHistory is true.", "")}},
	{"chat history options", `[{"kind":"slot","id":"h","slot":"chat-history","options":{"includeLastUserMessage":1,"stripAssistantThinking":"x","includeSummaries":null,"roles":["user",2],"toolMode":"skip","maxMessages":0,"maxChars":1.5}}]`,
		Diagnostics{
			d(LevelWarning, "chat-history option includeLastUserMessage should be a boolean.", "h"),
			d(LevelWarning, "chat-history option stripAssistantThinking should be a boolean.", "h"),
			d(LevelWarning, "chat-history option includeSummaries should be a boolean.", "h"),
			d(LevelError, "chat-history option roles must be an array of strings.", "h"),
			d(LevelError, `chat-history option toolMode must be "keep" or "drop".`, "h"),
			d(LevelError, "chat-history option maxMessages must be a positive integer.", "h"),
			d(LevelError, "chat-history option maxChars must be a positive integer.", "h"),
		}},
	// A numeric id is reported under the fallback id by the raw pass and
	// under String(n) by the normalized pass (pi-forge validates both).
	{"numeric slot id both passes", `[{"kind":"slot","id":3,"role":"user","slot":""},` + chatItem + `]`,
		Diagnostics{
			d(LevelError, "Item 1 id must be a non-empty string.", "item-1"),
			d(LevelError, "Slot name must be a non-empty string.", "item-1"),
			d(LevelError, "Slot name must be a non-empty string.", "3"),
			d(LevelWarning, "Unsupported slot: ", "3"),
		}},
}

func TestParseItemDiagnostics(t *testing.T) {
	for _, c := range itemCases {
		_, got := Parse([]byte(`{"id":"a","items":`+c.items+`}`), "a.json")
		checkDiags(t, c.name, got, c.want)
	}
}

func TestAllowDuplicateChatHistoryIsTruthy(t *testing.T) {
	_, got := Parse([]byte(`{"id":"a","context":{"allowDuplicateChatHistory":true},"items":[`+chatItem+`,`+chatItem+`]}`), "a.json")
	checkDiags(t, "allowed duplicates", got, Diagnostics{d(LevelError, "Duplicate item id: h", "h")})
}

func TestDefaultJSONWarning(t *testing.T) {
	_, got := Parse([]byte(`{"id":"default","items":[`+chatItem+`]}`), "default.json")
	checkDiags(t, "default.json", got, Diagnostics{d(LevelWarning, `default.json no longer auto-activates by filename; set "autoActivate": true to keep auto-activating this stack.`, "")})
	_, got = Parse([]byte(`{"id":"default","autoActivate":false,"items":[`+chatItem+`]}`), "default.json")
	checkDiags(t, "default.json with key", got, nil)
}

func TestExtraSlotsAreSupported(t *testing.T) {
	raw := []byte(`{"id":"a","items":[{"kind":"slot","id":"m","role":"system","slot":"machine-status"},` + chatItem + `]}`)
	_, got := ParseWith(raw, "a.json", ParseOptions{ExtraSlots: []string{"machine-status"}})
	checkDiags(t, "extra slot", got, nil)
}

func TestFallbackStack(t *testing.T) {
	for _, raw := range []string{`{`, `"str"`, `null`} {
		s, _ := Parse([]byte(raw), "broken.json")
		want := "{\n  \"schemaVersion\": 1,\n  \"type\": \"pi-forge.prompt-stack\",\n  \"id\": \"broken\",\n  \"name\": \"broken.json\",\n  \"items\": []\n}\n"
		if got := string(Serialize(s)); got != want {
			t.Errorf("fallback for %q:\n%s", raw, got)
		}
	}
}

func TestIDFallsBackToBasename(t *testing.T) {
	s, _ := Parse([]byte(`{"items":[]}`), "my.stack.json")
	if s.ID != "my.stack" {
		t.Errorf("id = %q", s.ID)
	}
	s, _ = Parse([]byte(`{"id":"  x1  ","items":[]}`), "y.json")
	if s.ID != "x1" {
		t.Errorf("trimmed id = %q", s.ID)
	}
}

func TestEmptyIDFromBasename(t *testing.T) {
	s, got := Parse([]byte(`{"items":[`+chatItem+`]}`), ".json")
	checkDiags(t, "empty basename", got, Diagnostics{
		d(LevelError, "Preset id must be a non-empty string.", ""),
		d(LevelError, "Preset id must not be empty.", ""),
	})
	if s.ID != "" {
		t.Errorf("id = %q", s.ID)
	}
}

func TestValidateEditedStack(t *testing.T) {
	s, _ := Parse([]byte(`{"id":"a","items":[`+chatItem+`]}`), "a.json")
	s.Items = append(s.Items, Item{Kind: KindSlot, ID: "h", Slot: "chat-history"})
	got := Validate(s, ParseOptions{}).Dedupe()
	checkDiags(t, "edited", got, Diagnostics{
		d(LevelError, "Duplicate item id: h", "h"),
		d(LevelWarning, "Multiple enabled chat-history slots found; only the first will be expanded unless context.allowDuplicateChatHistory is true.", ""),
	})
	if !got.HasErrors() || got.Count(LevelWarning) != 1 {
		t.Error("HasErrors/Count")
	}
}
