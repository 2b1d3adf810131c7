package capability

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/fixtures"
)

// TestFixtureCapabilities loads the upstream example capabilities: both are
// clean; write-tools.json is already in serializer form, review.json is
// hand-formatted (its remove list is on one line) and re-serializes to the
// same value but other bytes.
func TestFixtureCapabilities(t *testing.T) {
	review := fixtures.Read(t, "pi-forge/examples/capabilities/review.json")
	writeTools := fixtures.Read(t, "pi-forge/examples/capabilities/write-tools.json")
	for name, raw := range map[string][]byte{"review.json": review, "write-tools.json": writeTools} {
		c, diags := Parse(raw, name, preset.ScopeProject)
		if len(diags) != 0 {
			t.Errorf("%s: diagnostics %+v", name, diags)
		}
		again, _ := Parse(Serialize(c), name, preset.ScopeProject)
		if !bytes.Equal(Serialize(again), Serialize(c)) {
			t.Errorf("%s: serialize is not a fixed point", name)
		}
	}
	c, _ := Parse(writeTools, "write-tools.json", preset.ScopeProject)
	if !bytes.Equal(Serialize(c), writeTools) {
		t.Errorf("write-tools.json does not re-serialize byte-identically:\n%s", Serialize(c))
	}
	c, _ = Parse(review, "review.json", preset.ScopeProject)
	if bytes.Equal(Serialize(c), review) {
		t.Error("review.json was expected to be hand-formatted")
	}
	if strings.Join(c.Tools.Remove, ",") != "bash,powershell,write,edit" || *c.Name != "Review" {
		t.Errorf("review normalized to %+v", c)
	}
}

func fixtureVector(t *testing.T, name string) string {
	t.Helper()
	doc, err := jsonv.Parse(fixtures.Read(t, "pi-forge/fingerprint-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	vectors, _ := doc.(*jsonv.Object).Get("vectors")
	for _, v := range vectors.([]any) {
		obj := v.(*jsonv.Object)
		if n, _ := obj.Get("name"); n == name {
			fp, _ := obj.Get("fingerprint")
			return fp.(string)
		}
	}
	t.Fatalf("vector %q missing", name)
	return ""
}

// TestFixtureBindings resolves the read-first-worker Preset against the
// example capabilities and checks the snapshot fingerprints of the vectors.
func TestFixtureBindings(t *testing.T) {
	cat := NewCatalog(
		Load(fixtures.Read(t, "pi-forge/examples/capabilities/review.json"), "review.json", preset.ScopeProject),
		Load(fixtures.Read(t, "pi-forge/examples/capabilities/write-tools.json"), "write-tools.json", preset.ScopeProject),
	)
	stack, diags := preset.ParseWith(fixtures.Read(t, "pi-forge/examples/read-first-worker-prompt-stack.json"), "read-first-worker-prompt-stack.json", preset.ParseOptions{Scope: preset.ScopeProject})
	if diags.HasErrors() {
		t.Fatalf("preset diagnostics %+v", diags)
	}
	res := ResolveBindings(stack, preset.ScopeProject, cat)
	if res.Error != "" || len(res.Bindings) != 1 {
		t.Fatalf("resolution %q %d", res.Error, len(res.Bindings))
	}
	b := res.Bindings[0]
	if b.ID != "write-tools" || !b.ModelCallable || b.Ref.String() != "project:write-tools" || b.Preset.String() != "project:read-first-worker" {
		t.Errorf("binding %+v", b)
	}
	if got, want := b.SnapshotFingerprint(), fixtureVector(t, "snapshot fingerprint: write-tools bound to project:read-first-worker"); got != want {
		t.Errorf("bound fingerprint %s, want %s", got, want)
	}
	// The synthetic session records this activation; our snapshot object
	// must be byte-identical to the recorded one.
	matched := 0
	for _, line := range strings.Split(string(fixtures.Read(t, "pi-forge/capability-session-example.jsonl")), "\n") {
		if !strings.Contains(line, `"binding":{"preset":{"scope":"project","id":"read-first-worker"}`) {
			continue
		}
		v, err := jsonv.Parse([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		recorded := get(get(v, "data"), "snapshot")
		id, _ := get(recorded, "activationId").(string)
		matched++
		snap, ok := b.Snapshot(id)
		if !ok || jsonv.Stringify(snap.JSON()) != jsonv.Stringify(recorded) {
			t.Errorf("snapshot\n got %s\nwant %s", jsonv.Stringify(snap.JSON()), jsonv.Stringify(recorded))
		}
	}
	if matched == 0 {
		t.Error("no bound activation in capability-session-example.jsonl")
	}
	review, _ := Resolve(cat, "review")
	if got, want := review.SnapshotFingerprint(), fixtureVector(t, "snapshot fingerprint: project:review unbound"); got != want {
		t.Errorf("unbound fingerprint %s, want %s", got, want)
	}
	manual := SnapshotFingerprint(SnapshotSource{Kind: SourceManual}, nil, "Answer in French.", ToolPatch{Add: []string{}, Remove: []string{}})
	if want := fixtureVector(t, "snapshot fingerprint: manual directive"); manual != want {
		t.Errorf("manual fingerprint %s, want %s", manual, want)
	}
	// The same Preset stored globally may not bind a project capability.
	res = ResolveBindings(stack, preset.ScopeGlobal, cat)
	if res.Error != "Global binding cannot reference project capability: project:write-tools." || res.ErrorIndex != 0 {
		t.Errorf("global owner: %q %d", res.Error, res.ErrorIndex)
	}
}

const demoRoot = "../../resources/demo/workspace"

// loadDemoDir loads every non-hidden *.json file of a demo capability
// directory in name order, as the resources loader does.
func loadDemoDir(t *testing.T, dir string, scope preset.Scope) []*Entry {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(demoRoot, dir, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("demo capabilities missing in %s: %v", dir, err)
	}
	var out []*Entry
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Load(raw, name, scope))
	}
	return out
}

func demoCatalog(t *testing.T) *Catalog {
	global := loadDemoDir(t, "home/.pi/forge/capabilities", preset.ScopeGlobal)
	project := loadDemoDir(t, "projects/demo-app/.pi/forge/capabilities", preset.ScopeProject)
	return NewCatalog(append(global, project...)...)
}

func TestDemoCapabilities(t *testing.T) {
	cat := demoCatalog(t)
	if len(cat.Entries) != 4 {
		t.Fatalf("expected 4 demo capabilities, got %d", len(cat.Entries))
	}
	for _, e := range cat.Entries {
		if len(e.Diagnostics) != 0 {
			t.Errorf("%s: %+v", e.Path, e.Diagnostics)
		}
		raw, _ := os.ReadFile(e.Path)
		if !bytes.Equal(Serialize(e.Capability), raw) {
			t.Errorf("%s is not in serializer form", e.Path)
		}
		if e.SourceRevision != fingerprint.SourceRevision(raw) {
			t.Errorf("%s: revision", e.Path)
		}
	}
	if e, _ := Resolve(cat, "test-runner"); e == nil || e.Capability.Content != "" || strings.Join(e.Capability.Tools.Add, ",") != "bash" {
		t.Errorf("tool-only capability: %+v", e)
	}
}

func demoStack(t *testing.T, rel string, scope preset.Scope) *preset.Stack {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(demoRoot, rel))
	if err != nil {
		t.Fatal(err)
	}
	stack, _ := preset.ParseWith(raw, filepath.Base(rel), preset.ParseOptions{Scope: scope})
	return stack
}

// demoSnapshotFingerprints collects the fingerprints recorded by capability
// activate events in the demo sessions, keyed by binding id ("" = unbound
// source key).
func demoSnapshotFingerprints(t *testing.T) map[string]string {
	fps, _ := demoSnapshots(t)
	return fps
}

// demoSnapshots also returns the recorded snapshot objects as compact JSON,
// keyed like the fingerprints.
func demoSnapshots(t *testing.T) (map[string]string, map[string]string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(demoRoot, "home/.pi/agent/sessions/*/*.jsonl"))
	out := map[string]string{}
	texts := map[string]string{}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			if !bytes.Contains(sc.Bytes(), []byte(`"pi-forge-capability-event"`)) {
				continue
			}
			v, err := jsonv.Parse(sc.Bytes())
			if err != nil {
				continue
			}
			data, _ := v.(*jsonv.Object).Get("data")
			snap, ok := get(data, "snapshot").(*jsonv.Object)
			if !ok {
				continue
			}
			fp, _ := snap.Get("fingerprint")
			source := get(snap, "source")
			key := jsonv.Stringify(get(source, "key"))
			if binding := get(source, "binding"); binding != nil {
				key = jsonv.Stringify(binding)
			}
			out[key], _ = fp.(string)
			texts[key] = jsonv.Stringify(snap)
		}
		f.Close()
	}
	return out, texts
}

func get(v any, key string) any {
	obj, ok := v.(*jsonv.Object)
	if !ok {
		return nil
	}
	x, _ := obj.Get(key)
	return x
}

func TestDemoBindings(t *testing.T) {
	cat := demoCatalog(t)
	recorded := demoSnapshotFingerprints(t)
	guarded := ResolveBindings(demoStack(t, "projects/demo-app/.pi/forge/prompt-stacks/guarded-worker.json", preset.ScopeProject), preset.ScopeProject, cat)
	if guarded.Error != "" || len(guarded.Bindings) != 2 {
		t.Fatalf("guarded-worker: %q", guarded.Error)
	}
	write, review := guarded.Bindings[0], guarded.Bindings[1]
	if !write.ModelCallable || write.ID != "write-access" || review.ModelCallable || review.ID != "review" {
		t.Errorf("bindings %+v / %+v", write, review)
	}
	if !strings.HasSuffix(review.Effective.Content, "while review mode is active.\n\nPay special attention to money handling: rounding, currency and tax.") {
		t.Errorf("review effective content %q", review.Effective.Content)
	}
	if review.Source.Capability.Content == review.Effective.Content {
		t.Error("source and effective content should differ")
	}
	quick := ResolveBindings(demoStack(t, "home/.pi/forge/prompt-stacks/quick-review.json", preset.ScopeGlobal), preset.ScopeGlobal, cat)
	if quick.Error != "" || quick.Bindings[0].Ref.String() != "global:plain-english" {
		t.Fatalf("quick-review: %q", quick.Error)
	}
	for _, stackFile := range []string{"broken-on-purpose.json", "pi-mirror.json"} {
		if res := ResolveBindings(demoStack(t, "projects/demo-app/.pi/forge/prompt-stacks/"+stackFile, preset.ScopeProject), preset.ScopeProject, cat); res.Error != "" || len(res.Bindings) != 0 {
			t.Errorf("%s: %+v", stackFile, res)
		}
	}
	// The demo sessions record activations of write-access through its
	// binding and of plain-english directly; our fingerprints must match.
	bindingKey := `{"preset":{"scope":"project","id":"guarded-worker"},"id":"write-access"}`
	if want, ok := recorded[bindingKey]; !ok || write.SnapshotFingerprint() != want {
		t.Errorf("write-access fingerprint %s, recorded %q", write.SnapshotFingerprint(), want)
	}
	_, texts := demoSnapshots(t)
	recordedText := texts[bindingKey]
	activationID := recordedText[len(`{"activationId":"`):strings.Index(recordedText, `","source"`)]
	if snap, ok := write.Snapshot(activationID); !ok || jsonv.Stringify(snap.JSON()) != recordedText {
		t.Errorf("write-access snapshot\n got %s\nwant %s", jsonv.Stringify(snap.JSON()), recordedText)
	}
	plain, _ := Resolve(cat, "plain-english")
	if want, ok := recorded[`{"scope":"global","id":"plain-english"}`]; !ok || plain.SnapshotFingerprint() != want {
		t.Errorf("plain-english fingerprint %s, recorded %q", plain.SnapshotFingerprint(), want)
	}
}
