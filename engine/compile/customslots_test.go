package compile

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// TestCustomSlotTakesASuppliedValue: a custom slot (an extension module's)
// renders the text supplied for the preview, in the system prompt and as
// a message, with no diagnostic; without a value it is pi-forge's
// "Unsupported slot" and empty; a supplied value never replaces a
// built-in slot; the output limit holds for a supplied value too.
func TestCustomSlotTakesASuppliedValue(t *testing.T) {
	stack := stackWithItems("", systemBlock("b", "Intro."), systemSlot("m", "machine-status", ""),
		`{"kind":"slot","id":"u","role":"user","slot":"machine-status"}`, systemSlot("c", "cwd", ""))
	plain := Compile(mustStack(t, stack), testRuntime(), "BASE", nil, nil)
	if want := `[{"level":"warning","message":"Unsupported slot: machine-status","itemId":"m"}]`; diagText(plain.System.Diagnostics) != want {
		t.Errorf("no value: %s", diagText(plain.System.Diagnostics))
	}
	rt := testRuntime()
	rt.CustomSlots = map[string]string{"machine-status": "load 0.42\nfree disk 12G", "cwd": "not this"}
	got := Compile(mustStack(t, stack), rt, "BASE", nil, nil)
	if len(got.System.Diagnostics) != 0 || len(got.Messages.Diagnostics) != 0 {
		t.Errorf("diagnostics with a value: %s %s", diagText(got.System.Diagnostics), diagText(got.Messages.Diagnostics))
	}
	if want := "Intro.\n\nload 0.42\nfree disk 12G\n\n" + plain.System.SystemPrompt[strings.LastIndex(plain.System.SystemPrompt, "Current working directory"):]; got.System.SystemPrompt != want {
		t.Errorf("system prompt\n got %q\nwant %q", got.System.SystemPrompt, want)
	}
	if n := len(got.Messages.Messages); n != 1 || PreviewText(got.Messages.Messages[0]) != "load 0.42\nfree disk 12G" {
		t.Errorf("messages: %d %v", n, got.Messages.Messages)
	}
	rt.CustomSlots = map[string]string{"machine-status": strings.Repeat("x", SlotOutputLimit+1)}
	over := Compile(mustStack(t, stackWithItems("", systemSlot("m", "machine-status", ""), systemBlock("b", "B"))), rt, "BASE", nil, nil)
	if want := `[{"level":"error","message":"Slot \"machine-status\" exceeds 16384 characters.","itemId":"m"}]`; over.System.SystemPrompt != "B" || diagText(over.System.Diagnostics) != want {
		t.Errorf("over the limit: %q %s", over.System.SystemPrompt, diagText(over.System.Diagnostics))
	}
}

// TestParseCustomSlots: registerSlot's names only, no built-in slot,
// strings only; a compile request takes them as "slots".
func TestParseCustomSlots(t *testing.T) {
	parse := func(src string) (map[string]string, error) {
		v, err := jsonv.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return ParseCustomSlots(v, "slots.json")
	}
	if m, err := parse(`{"machine-status":"up","B_2":""}`); err != nil || m["machine-status"] != "up" || len(m) != 2 {
		t.Errorf("valid: %v %v", m, err)
	}
	for src, want := range map[string]string{
		`[]`:                  "slots.json: must be a JSON object of strings {slot: text}",
		`{"tools":"x"}`:       `slots.json: "tools" is a built-in slot; only custom slots take a value`,
		`{"9lives":"x"}`:      `slots.json: invalid slot name "9lives" (a letter, then letters, digits, _ or -)`,
		`{"a.b":"x"}`:         `slots.json: invalid slot name "a.b" (a letter, then letters, digits, _ or -)`,
		`{"status":1}`:        "slots.json: status must be a string",
		`{"status":null}`:     "slots.json: status must be a string",
		`{"":"x"}`:            `slots.json: invalid slot name "" (a letter, then letters, digits, _ or -)`,
		`{"chat-history":""}`: `slots.json: "chat-history" is a built-in slot; only custom slots take a value`,
	} {
		if _, err := parse(src); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", src, err, want)
		}
	}
	req := `{"stack":` + stackWithItems("", systemSlot("m", "machine-status", "")) + `,"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[],"slots":{"machine-status":"up"}}`
	out, err := CompileRequestJSON([]byte(req))
	if err != nil || !strings.Contains(string(out), `"systemPrompt":"up"`) {
		t.Errorf("request: %s %v", out, err)
	}
	if _, err := CompileRequestJSON([]byte(strings.Replace(req, `"machine-status":"up"`, `"tools":"x"`, 1))); err == nil || !strings.Contains(err.Error(), "compile request: slots") {
		t.Errorf("request with a built-in slot: %v", err)
	}
}

// FuzzParseCustomSlots: any JSON value is accepted or refused with an
// error, never a panic, and what is accepted is all valid custom slots.
func FuzzParseCustomSlots(f *testing.F) {
	f.Add(`{"machine-status":"up"}`)
	f.Add(`{"tools":"x","a":1}`)
	f.Add(`[{"a":"b"}]`)
	f.Fuzz(func(t *testing.T, src string) {
		v, err := jsonv.Parse([]byte(src))
		if err != nil {
			return
		}
		m, err := ParseCustomSlots(v, "fuzz")
		if err != nil {
			return
		}
		for k := range m {
			if !ValidCustomSlotName(k) {
				t.Fatalf("accepted %q", k)
			}
		}
	})
}
