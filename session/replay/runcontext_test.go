package replay

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/session"
)

// presetStateSession has two branches off e2: e3…e6 (the file's leaf) and
// e7. The selections on them exercise every decoding rule.
const presetStateSession = `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/w"}
{"type":"message","id":"e1","parentId":null,"timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
{"type":"custom","id":"e2","parentId":"e1","timestamp":"2026-11-29T10:00:02.000Z","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"project:alpha"}}
{"type":"message","id":"e3","parentId":"e2","timestamp":"2026-11-29T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"lint_patch","arguments":{}},{"type":"toolCall","id":"c2","name":"read","arguments":{}}],"api":"x","provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":3}}
{"type":"custom","id":"e4","parentId":"e3","timestamp":"2026-11-29T10:00:04.000Z","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"off"}}
{"type":"custom","id":"e5","parentId":"e4","timestamp":"2026-11-29T10:00:05.000Z","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":7}}
{"type":"custom","id":"e6","parentId":"e5","timestamp":"2026-11-29T10:00:06.000Z","customType":"other","data":{"activeStackId":"global:nope"}}
{"type":"custom","id":"e7","parentId":"e2","timestamp":"2026-11-29T10:00:07.000Z","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"beta"}}
`

func TestActivePresetAtFollowsPiForgesRestoreRules(t *testing.T) {
	s, err := session.Read(strings.NewReader(presetStateSession), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(id string) ActivePreset {
		i, ok := s.IndexOf(id)
		if !ok {
			t.Fatalf("no entry %s", id)
		}
		return ActivePresetAt(s, i)
	}
	cases := []struct {
		entry string
		want  ActivePreset
		str   string
	}{
		{"e1", ActivePreset{}, ""}, // nothing recorded yet
		{"e3", ActivePreset{Choice: PresetSelected, Selector: "project:alpha"}, "project:alpha"}, // latest on the branch
		{"e4", ActivePreset{Choice: PresetDisabled}, "none"},                                     // pi-forge's legacy "off"
		{"e6", ActivePreset{}, ""}, // the latest entry decides: not a string, so unrecorded
		{"e7", ActivePreset{Choice: PresetSelected, Selector: "beta"}, "beta"}, // another branch, a bare id kept as written
	}
	for _, c := range cases {
		got := at(c.entry)
		if got != c.want || got.String() != c.str {
			t.Errorf("at %s: %+v (%q), want %+v (%q)", c.entry, got, got.String(), c.want, c.str)
		}
	}
	if got := decodePresetState([]byte(`{"activeStackId":""}`)); got.Choice != PresetUnrecorded {
		t.Errorf(`an empty id falls back to auto-activation: %+v`, got)
	}
	if got := decodePresetState([]byte(`{"activeStackId":"none"}`)); got.Choice != PresetDisabled {
		t.Errorf("none: %+v", got)
	}
	if got := decodePresetState([]byte(`["project:x"]`)); got.Choice != PresetUnrecorded {
		t.Errorf("data that is not an object: %+v", got)
	}
}

func TestRunContextAt(t *testing.T) {
	s, err := session.Read(strings.NewReader(presetStateSession), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defaultsCalled := 0
	defaults := func() (compile.Runtime, string, error) {
		defaultsCalled++
		return compile.Runtime{Options: compile.Options{Cwd: "/w", SelectedTools: []string{"read"}}}, "DEFAULT BASE", nil
	}

	rc, err := RunContextAt(nil, -1, nil, time.UTC, defaults)
	if err != nil || defaultsCalled != 1 || rc.Base != "DEFAULT BASE" || rc.FromSession || rc.Source != "" || rc.Messages != nil || rc.Active.Choice != PresetUnrecorded {
		t.Fatalf("no session: %+v %v", rc, err)
	}

	i, _ := s.IndexOf("e3")
	rc, err = RunContextAt(s, i, nil, time.UTC, defaults)
	if err != nil {
		t.Fatal(err)
	}
	if defaultsCalled != 2 || rc.FromSession || rc.Base != "DEFAULT BASE" || !strings.Contains(rc.Source, "records no system prompt") {
		t.Errorf("a session without a system prompt compiles on the defaults: %+v", rc)
	}
	if len(rc.Messages) != 2 || rc.Active.String() != "project:alpha" {
		t.Errorf("messages and selection come from the session: %d messages, active %q", len(rc.Messages), rc.Active)
	}
	if !reflect.DeepEqual(rc.Tools, []string{"lint_patch", "read"}) {
		t.Errorf("tools called = %v", rc.Tools)
	}

	if rc, err = RunContextAt(s, i, nil, time.UTC, nil); err != nil || rc.Base != "" || rc.Runtime.Options.Cwd != "" {
		t.Errorf("nil defaults leave the runtime empty: %+v %v", rc, err)
	}

	failing := func() (compile.Runtime, string, error) {
		return compile.Runtime{}, "", errors.New("no SYSTEM.md access")
	}
	if _, err := RunContextAt(s, i, nil, time.UTC, failing); err == nil {
		t.Error("a failing defaults call must be reported")
	}
}

func TestRunContextAtUsesThePromptPiRecorded(t *testing.T) {
	s, err := session.Open("testdata/sysprompt/replay.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rc, err := RunContextAt(s, s.LeafIndex(), nil, time.UTC, func() (compile.Runtime, string, error) {
		t.Fatal("the defaults must not be read when the session records the prompt")
		return compile.Runtime{}, "", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fr, err := ForgeRuntimeAt(s, s.LeafIndex(), nil, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if !rc.FromSession || rc.Base != fr.Base || rc.Source != fr.Source || !reflect.DeepEqual(rc.Runtime, fr.Runtime) {
		t.Fatalf("run context %+v\ndiffers from the forge runtime %+v", rc, fr)
	}
	if len(fr.Runtime.Options.SelectedTools) > 0 && !reflect.DeepEqual(rc.Tools[:len(fr.Runtime.Options.SelectedTools)], fr.Runtime.Options.SelectedTools) {
		t.Errorf("tools start with the selected tools: %v", rc.Tools)
	}
}
