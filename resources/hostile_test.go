package resources

import (
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsregex"
	"github.com/forgebench/forgebench/internal/timing"
	"github.com/forgebench/forgebench/test/hostile"
)

// within fails the test when f does not return in time (a read that blocks
// on a FIFO or streams /dev/zero never would).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	hostile.Within(t, what, f)
}

// The library side of the hostile corpus: loading returns (a FIFO preset
// and a /dev/zero capability do not block it), every hostile resource
// loads with its text exact (the sanitiser's job is the display, --json
// must stay exact), the long-id preset saves, and the catastrophic preset
// compiles within the whole-compile regex limit.
func TestHostileCorpusLibrary(t *testing.T) {
	st := hostile.Stage(t)
	ws := Workspace{Cwd: st.Cwd, AgentDir: st.AgentDir, ForgeDir: st.ForgeDir, Trust: Trust{Trusted: true, Source: "test"}}
	var lib *Library
	within(t, "LoadLibrary over the hostile corpus", func() { lib = mustLoad(t, ws) })
	presets := map[string]*Preset{}
	for _, p := range lib.Presets {
		presets[p.ID] = p
		if p.Path == st.Special["preset-fifo"] && !p.Fault {
			t.Error("the FIFO preset is not a read fault")
		}
	}
	if p := presets["osc52"]; p == nil || !strings.Contains(p.Name(), "\x1b]52;c;") {
		t.Fatalf("osc52 preset not loaded exactly: %v", p)
	}
	// esc-cap, escaped-id and the file with the escaped name (unreadable
	// JSON: its id is the name's stem, exact).
	caps := map[string]*Capability{}
	for _, c := range lib.Capabilities {
		caps[c.ID] = c
	}
	if c := caps["esc-cap"]; len(lib.Capabilities) != 2+len(st.EscapedResources)/3 || c == nil ||
		c.Entry.Capability.Name == nil || !strings.Contains(*c.Entry.Capability.Name, "\u202e") {
		t.Errorf("capabilities: %d", len(lib.Capabilities))
	}
	if caps["cap\x1b]52;c;aGFja2Vk\x07\u009b31m\u202eid"] == nil {
		t.Errorf("the escaped capability id was not loaded exactly")
	}
	if len(lib.Profiles) != 2+len(st.EscapedResources)/3 {
		t.Errorf("profiles: %d", len(lib.Profiles))
	}
	long := presets[hostile.LongID]
	if long == nil || long.Fault {
		t.Fatalf("the 240-character id preset did not load")
	}
	stack := *long.Stack
	name := "Saved"
	stack.Name = &name
	if _, err := SavePreset(ws, ScopeProject, hostile.LongID, &stack, long.SourceRevision); err != nil {
		t.Errorf("save of the long-id preset: %v", err)
	}

	slow := presets["catastrophic"]
	if slow == nil || slow.Stack == nil {
		t.Fatal("catastrophic preset not loaded")
	}
	savedMatch, savedWhole := jsregex.MatchTimeout, compile.RegexTimeLimit
	jsregex.MatchTimeout, compile.RegexTimeLimit = 100*time.Millisecond, 300*time.Millisecond
	defer func() { jsregex.MatchTimeout, compile.RegexTimeLimit = savedMatch, savedWhole }()
	start := time.Now()
	res := compile.Compile(slow.Stack, compile.Runtime{}, "BASE", nil, nil)
	timing.Budget(t, "20 catastrophic rules with a 300ms limit", time.Since(start), 2*time.Second)
	found := false
	for _, d := range append(res.System.Diagnostics, res.Messages.Diagnostics...) {
		found = found || strings.Contains(d.Message, "not run: ")
	}
	if !found {
		t.Error("no diagnostic names the rules that were not run")
	}
}
