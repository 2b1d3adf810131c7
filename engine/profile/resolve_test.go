package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

func profileJSON(id, stack string, auto bool) string {
	a := "false"
	if auto {
		a = "true"
	}
	ps := "null"
	if stack != "" {
		ps = `"` + stack + `"`
	}
	return `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"` + id + `","autoActivate":` + a + `,"model":{"provider":"anthropic","id":"claude"},"thinkingLevel":"high","promptStack":` + ps + `}`
}

func presetRef(t *testing.T, scope preset.Scope, src string) *PresetRef {
	t.Helper()
	stack, diags := preset.ParseWith([]byte(src), "x.json", preset.ParseOptions{Scope: scope})
	return &PresetRef{Scope: scope, Stack: stack, Diagnostics: diags}
}

func stackJSON(id string) string {
	return `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"` + id + `","name":"` + id + `","tools":{"allow":["read","mcp_*","bash"]},"items":[` + historySlot + `]}`
}

const historySlot = `{"kind":"slot","id":"chat-history","slot":"chat-history"}`

func testPresets(t *testing.T) PresetList {
	return PresetList{
		presetRef(t, preset.ScopeProject, stackJSON("p-stack")),
		presetRef(t, preset.ScopeGlobal, stackJSON("g-stack")),
		presetRef(t, preset.ScopeGlobal, stackJSON("both")),
		presetRef(t, preset.ScopeProject, stackJSON("both")),
		presetRef(t, preset.ScopeProject, stackJSON("twice")),
		presetRef(t, preset.ScopeProject, stackJSON("twice")),
		presetRef(t, preset.ScopeProject, `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"broken","name":"B","items":[{"kind":"block","id":"a","role":"system","content":"x"},{"kind":"block","id":"a","role":"system","content":"y"},`+historySlot+`]}`),
	}
}

func TestResolvePromptStack(t *testing.T) {
	presets := testPresets(t)
	const bad = "Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."
	cases := []struct {
		name      string
		scope     preset.Scope
		stack     string
		wantScope preset.Scope
		wantErr   string
	}{
		{"project bare", preset.ScopeProject, "p-stack", preset.ScopeProject, ""},
		{"project qualified", preset.ScopeProject, "project:p-stack", preset.ScopeProject, ""},
		{"project → global", preset.ScopeProject, "global:g-stack", preset.ScopeGlobal, ""},
		{"bare is own scope, with hint", preset.ScopeProject, "g-stack", "", "Unknown prompt stack: g-stack. Use global:g-stack to reference the global stack."},
		{"qualified project miss also hints", preset.ScopeProject, "project:g-stack", "", "Unknown prompt stack: project:g-stack. Use global:g-stack to reference the global stack."},
		{"unknown", preset.ScopeProject, "nope", "", "Unknown prompt stack: nope."},
		{"global bare", preset.ScopeGlobal, "g-stack", preset.ScopeGlobal, ""},
		{"global bare never project", preset.ScopeGlobal, "p-stack", "", "Unknown prompt stack: p-stack."},
		{"global → project", preset.ScopeGlobal, "project:p-stack", "", "Global profile prof cannot reference project prompt stack p-stack."},
		{"same id both scopes", preset.ScopeGlobal, "both", preset.ScopeGlobal, ""},
		{"ambiguous", preset.ScopeProject, "twice", "", "Prompt stack id is ambiguous: twice"},
		{"selector", preset.ScopeProject, "team:x", "", `Unknown scope prefix: team. Expected "project" or "global".`},
		{"selector id", preset.ScopeProject, "global:-x", "", "Invalid resource id: -x. " + bad},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := Load([]byte(profileJSON("prof", c.stack, false)), "prof.json", c.scope)
			ref, diags := ResolvePromptStack(e, presets)
			if c.wantErr != "" {
				if ref != nil || len(diags) != 1 || diags[0] != errAt("promptStack", c.wantErr) {
					t.Errorf("got %v %+v, want %q", ref, diags, c.wantErr)
				}
				return
			}
			if ref == nil || len(diags) != 0 || ref.Scope != c.wantScope {
				t.Errorf("got %+v %+v", ref, diags)
			}
		})
	}
	e := Load([]byte(profileJSON("prof", "", false)), "prof.json", preset.ScopeProject)
	if ref, diags := ResolvePromptStack(e, presets); ref != nil || diags != nil {
		t.Error("null promptStack resolves to nothing without diagnostics")
	}
}

func TestCatalogConflictsAndFind(t *testing.T) {
	cat := NewCatalog(
		Load([]byte(profileJSON("shared", "", true)), "/g/shared.json", preset.ScopeGlobal),
		Load([]byte(profileJSON("g-only", "", false)), "/g/g-only.json", preset.ScopeGlobal),
		Load([]byte(profileJSON("shared", "", false)), "/p/a.json", preset.ScopeProject),
		Load([]byte(profileJSON("shared", "", false)), "/p/b.json", preset.ScopeProject),
		Load([]byte(profileJSON("auto1", "", true)), "/p/auto1.json", preset.ScopeProject),
		Load([]byte(profileJSON("auto2", "", true)), "/p/auto2.json", preset.ScopeProject),
	)
	dup := errAt("", "Duplicate project profile id: shared appears in multiple files (a.json, b.json).")
	auto := errAt("autoActivate", "Multiple project profiles request auto-activation (auto1.json, auto2.json); exactly one is allowed.")
	wantLast := map[string]Diagnostic{"/p/a.json": dup, "/p/b.json": dup, "/p/auto1.json": auto, "/p/auto2.json": auto}
	for _, e := range cat.Entries {
		want, conflicted := wantLast[e.Path]
		switch {
		case conflicted && (len(e.Diagnostics) != 1 || e.Diagnostics[0] != want):
			t.Errorf("%s: %+v", e.Path, e.Diagnostics)
		case !conflicted && len(e.Diagnostics) != 0:
			t.Errorf("%s: unexpected %+v", e.Path, e.Diagnostics)
		}
	}
	// Project shadows global even when the project profile is unusable.
	if e, err := Find(cat, "shared"); err != "" || e.Path != "/p/a.json" || e.Usable() {
		t.Errorf("bare shadow: %+v %q", e, err)
	}
	if e, err := Find(cat, "global:shared"); err != "" || e.Path != "/g/shared.json" {
		t.Errorf("global: %+v %q", e, err)
	}
	if e, err := Find(cat, "g-only"); err != "" || e.Scope != preset.ScopeGlobal {
		t.Errorf("fallback: %+v %q", e, err)
	}
	if _, err := Find(cat, "project:g-only"); err != "Unknown agent profile: project:g-only" {
		t.Errorf("missing: %q", err)
	}
	if _, err := Find(cat, ""); err != "Resource selector must not be empty." {
		t.Errorf("empty: %q", err)
	}
	// Two project candidates fail closed, with no global fallback.
	if got := ChooseAutoActivate(cat); got != nil {
		t.Errorf("auto-activation should fail closed, got %s", got.Path)
	}
}

func TestChooseAutoActivate(t *testing.T) {
	load := func(id string, auto bool, scope preset.Scope, extra string) *Entry {
		src := profileJSON(id, "", auto)
		if extra != "" {
			src = src[:len(src)-1] + "," + extra + "}"
		}
		return Load([]byte(src), "/"+string(scope)+"/"+id+".json", scope)
	}
	cases := []struct {
		name    string
		entries []*Entry
		want    string
	}{
		{"none", []*Entry{load("a", false, preset.ScopeProject, "")}, ""},
		{"project", []*Entry{load("g", true, preset.ScopeGlobal, ""), load("p", true, preset.ScopeProject, "")}, "/project/p.json"},
		{"global", []*Entry{load("g", true, preset.ScopeGlobal, ""), load("p", false, preset.ScopeProject, "")}, "/global/g.json"},
		{"invalid project fails closed", []*Entry{load("g", true, preset.ScopeGlobal, ""), load("p", true, preset.ScopeProject, `"bad":1`)}, ""},
		{"shadowed global skipped", []*Entry{load("g", true, preset.ScopeGlobal, ""), load("g", false, preset.ScopeProject, "")}, ""},
		{"two globals", []*Entry{load("g", true, preset.ScopeGlobal, ""), load("h", true, preset.ScopeGlobal, "")}, ""},
	}
	for _, c := range cases {
		got := ChooseAutoActivate(NewCatalog(c.entries...))
		if (got == nil && c.want != "") || (got != nil && got.Path != c.want) {
			t.Errorf("%s: got %+v", c.name, got)
		}
	}
}

func TestPreflight(t *testing.T) {
	presets := testPresets(t)
	models := func(ref Model, level string) ModelStatus {
		switch ref.ID {
		case "claude":
			return ModelStatus{Known: true}
		case "noauth":
			return ModelStatus{Known: true, NoAuth: true}
		case "small":
			return ModelStatus{Known: true, EffectiveThinkingLevel: "off"}
		}
		return ModelStatus{}
	}
	res := Resources{Model: models, Presets: presets, ToolNames: []string{"read", "bash", "edit"}}
	withModel := func(id, stack string) *Entry {
		src := `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"prof","model":{"provider":"anthropic","id":"` + id + `"},"thinkingLevel":"high","promptStack":` + stack + `}`
		return Load([]byte(src), "prof.json", preset.ScopeProject)
	}
	r := Preflight(withModel("claude", `"p-stack"`), res)
	warn := Diagnostic{Level: preset.LevelWarning, Field: "promptStack", Message: `Prompt stack p-stack allows tool pattern "mcp_*", but it matches no registered tools.`}
	if !r.Usable() || r.Preset == nil || len(r.Diagnostics) != 1 || r.Diagnostics[0] != warn || r.EffectiveThinkingLevel != "high" {
		t.Errorf("clean: %+v", r)
	}
	if r := Preflight(withModel("claude", `"p-stack"`), Resources{Model: models, Presets: presets}); len(r.Diagnostics) != 0 {
		t.Errorf("no tool names, no warning: %+v", r.Diagnostics)
	}
	cases := []struct {
		model, stack string
		want         Diagnostic
	}{
		{"gpt", "null", errAt("model", "Unknown model: anthropic/gpt")},
		{"noauth", "null", errAt("model", "Model anthropic/noauth has no configured authentication.")},
		{"small", "null", errAt("thinkingLevel", "Model anthropic/small does not support thinking level high; Pi would clamp it to off.")},
		{"claude", `"nope"`, errAt("promptStack", "Unknown prompt stack: nope.")},
		{"claude", `"broken"`, errAt("promptStack", "Prompt stack broken: Duplicate item id: a")},
	}
	for _, c := range cases {
		r := Preflight(withModel(c.model, c.stack), Resources{Model: models, Presets: presets})
		if r.Usable() || len(r.Diagnostics) == 0 || r.Diagnostics[0] != c.want {
			t.Errorf("%s/%s: %+v", c.model, c.stack, r.Diagnostics)
		}
	}
	if r := Preflight(withModel("small", "null"), res); r.EffectiveThinkingLevel != "off" {
		t.Errorf("effective level %q", r.EffectiveThinkingLevel)
	}
	if r := Preflight(withModel("claude", "null"), Resources{}); r.Usable() || r.Diagnostics.FirstError() != "Unknown model: anthropic/claude" {
		t.Errorf("no registry: %+v", r)
	}
}

func TestProvenance(t *testing.T) {
	e := Load([]byte(profileJSON("prof", "global:g-stack", false)), "/p/prof.json", preset.ScopeProject)
	r := Preflight(e, Resources{Model: func(Model, string) ModelStatus { return ModelStatus{Known: true} }, Presets: testPresets(t)})
	p := NewProvenance(&r, "2026-11-27T09:14:05.116Z")
	got := jsonv.Stringify(StateEntryData(&p))
	want := `{"provenance":{"profileId":"prof","scope":"project","sourcePath":"/p/prof.json","sourceFingerprint":` + jsonv.Quote(SourceFingerprint(e.Profile)) +
		`,"appliedAt":"2026-11-27T09:14:05.116Z","snapshot":{"model":{"provider":"anthropic","id":"claude"},"thinkingLevel":"high","promptStack":"global:g-stack"}}}`
	if got != want {
		t.Errorf("entry\n got %s\nwant %s", got, want)
	}
	if jsonv.Stringify(StateEntryData(nil)) != `{"provenance":null}` {
		t.Error("forget entry")
	}
	back, ok := ParseProvenance(p.JSON())
	if !ok || back.ProfileID != "prof" || *back.PromptStack != "global:g-stack" || back.Scope != preset.ScopeProject {
		t.Errorf("round trip %+v %v", back, ok)
	}
	for _, bad := range []string{`null`, `{}`, `{"profileId":"x","sourcePath":"s","sourceFingerprint":"f","appliedAt":"a","snapshot":{"model":{"provider":"p","id":" "},"thinkingLevel":"high","promptStack":null}}`,
		`{"profileId":"x","scope":"team","sourcePath":"s","sourceFingerprint":"f","appliedAt":"a","snapshot":{"model":{"provider":"p","id":"i"},"thinkingLevel":"high","promptStack":null}}`,
		`{"profileId":"x","sourcePath":"s","sourceFingerprint":"f","appliedAt":"a","snapshot":{"model":{"provider":"p","id":"i"},"thinkingLevel":"huge","promptStack":null}}`} {
		v, _ := jsonv.Parse([]byte(bad))
		if _, ok := ParseProvenance(v); ok {
			t.Errorf("accepted %s", bad)
		}
	}
	legacy, _ := jsonv.Parse([]byte(`{"profileId":"x","sourcePath":"s","sourceFingerprint":"f","appliedAt":"a","snapshot":{"model":{"provider":"p","id":"i"},"thinkingLevel":"high","promptStack":null}}`))
	if lp, ok := ParseProvenance(legacy); !ok || lp.Scope != "" || lp.PromptStack != nil {
		t.Errorf("legacy %+v %v", lp, ok)
	}
	cat := NewCatalog(e)
	if SourceState(cat, p) != SourceUnchanged {
		t.Error("unchanged")
	}
	changed := Load([]byte(profileJSON("prof", "global:g-stack", true)), "/p/prof.json", preset.ScopeProject)
	if SourceState(NewCatalog(changed), p) != SourceChanged || SourceState(NewCatalog(), p) != SourceMissing {
		t.Error("changed/missing")
	}
}

const demoRoot = "../../resources/demo/workspace"

// TestDemoProfiles loads the demo workspace's profiles and Presets: the
// profiles are clean, in serializer form, resolve their Presets, and the
// recorded provenance of the demo session matches our source fingerprint.
func TestDemoProfiles(t *testing.T) {
	var presets PresetList
	for dir, scope := range map[string]preset.Scope{"projects/demo-app/.pi/forge/prompt-stacks": preset.ScopeProject, "home/.pi/forge/prompt-stacks": preset.ScopeGlobal} {
		files, _ := filepath.Glob(filepath.Join(demoRoot, dir, "*.json"))
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			stack, diags := preset.ParseWith(raw, filepath.Base(f), preset.ParseOptions{Scope: scope})
			presets = append(presets, &PresetRef{Scope: scope, Stack: stack, Diagnostics: diags})
		}
	}
	if len(presets) != 4 {
		t.Fatalf("expected 4 demo Presets, got %d", len(presets))
	}
	files, _ := filepath.Glob(filepath.Join(demoRoot, "projects/demo-app/.pi/forge/agent-profiles/*.json"))
	if len(files) != 2 {
		t.Fatalf("expected 2 demo profiles, got %d", len(files))
	}
	var entries []*Entry
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		e := Load(raw, f, preset.ScopeProject)
		if len(e.Diagnostics) != 0 {
			t.Errorf("%s: %+v", f, e.Diagnostics)
		}
		if string(Serialize(e.Profile)) != string(raw) {
			t.Errorf("%s is not in serializer form", f)
		}
		entries = append(entries, e)
	}
	cat := NewCatalog(entries...)
	want := map[string]string{"deep-review": "global:quick-review", "tdd-worker": "project:guarded-worker"}
	for id, key := range want {
		e, err := Find(cat, id)
		if err != "" {
			t.Fatal(err)
		}
		r := Preflight(e, Resources{Model: func(Model, string) ModelStatus { return ModelStatus{Known: true} }, Presets: presets})
		if !r.Usable() || r.Preset == nil || r.Preset.Selector() != key || len(r.Diagnostics) != 0 {
			t.Errorf("%s: %+v", id, r.Diagnostics)
		}
	}
	if auto := ChooseAutoActivate(cat); auto == nil || auto.Profile.ID != "tdd-worker" {
		t.Errorf("auto-activation: %+v", auto)
	}
}

// TestDemoProvenance checks the provenance recorded in the demo session
// against the demo profile: same source fingerprint and a valid record.
func TestDemoProvenance(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(demoRoot, "projects/demo-app/.pi/forge/agent-profiles/tdd-worker.json"))
	if err != nil {
		t.Fatal(err)
	}
	e := Load(raw, "tdd-worker.json", preset.ScopeProject)
	files, _ := filepath.Glob(filepath.Join(demoRoot, "home/.pi/agent/sessions/*/*.jsonl"))
	found := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if !strings.Contains(line, `"customType":"`+StateEntryType+`"`) {
				continue
			}
			v, err := jsonv.Parse([]byte(line))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			d, _ := v.(*jsonv.Object).Get("data")
			prov, _ := d.(*jsonv.Object).Get("provenance")
			if prov == nil {
				continue
			}
			p, ok := ParseProvenance(prov)
			// pi-forge records the scoped key ("project:guarded-worker");
			// the demo generator wrote the bare id, which names the same Preset.
			sel, selErr := preset.ParseSelector(*p.PromptStack)
			if !ok || p.ProfileID != "tdd-worker" || p.SourceFingerprint != SourceFingerprint(e.Profile) || selErr != "" || sel.ID != "guarded-worker" || sel.Scope == preset.ScopeGlobal {
				t.Errorf("recorded provenance %+v (ok %v)", p, ok)
			}
			found++
		}
	}
	if found == 0 {
		t.Fatal("no provenance entries in the demo sessions")
	}
}

func TestReadFailure(t *testing.T) {
	e := ReadFailure("/x/agent-profiles/gone.json", preset.ScopeGlobal, os.ErrPermission)
	if e.Profile.ID != "gone" || e.Usable() || len(e.Diagnostics) != 1 || e.Diagnostics[0] != errAt("", "Failed to read agent profile: permission denied") {
		t.Errorf("%+v", e)
	}
	if e.Selector() != "global:gone" || string(Serialize(e.Profile)) == "" {
		t.Error("fault entry shape")
	}
}
