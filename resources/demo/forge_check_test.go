package demo

// Checks of the pi-forge resources and of the pi-forge entries in the sessions
// (spec pi-forge-formats §2, §5, §9, §10, §11, §14).

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// objectKeys returns the keys of the top-level JSON object in file order.
func objectKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %v", err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("read key: %v", err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatalf("skip value: %v", err)
		}
	}
	return keys
}

// inOrder reports whether keys is a subsequence of the canonical order.
func inOrder(keys, canonical []string) bool {
	pos := 0
	for _, k := range keys {
		i := slices.Index(canonical[pos:], k)
		if i < 0 {
			return false
		}
		pos += i + 1
	}
	return true
}

var (
	presetKeyOrder = []string{"schemaVersion", "type", "id", "name", "description", "autoActivate", "mode", "defaults",
		"context", "tools", "skills", "variables", "parameters", "regex", "capabilities", "items", "import"}
	capabilityKeyOrder = []string{"schemaVersion", "type", "id", "name", "description", "content", "tools"}
	profileKeyOrder    = []string{"schemaVersion", "type", "id", "name", "description", "autoActivate", "model", "thinkingLevel", "promptStack"}
)

// forgeFile is one decoded resource with its raw bytes.
type forgeFile struct {
	scope, id string
	raw       []byte
	value     map[string]any
}

func readForgeDir(t *testing.T, dir, scope string) []forgeFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatalf("glob: %v", err)
	}
	var out []forgeFile
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var v map[string]any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		id := strings.TrimSuffix(filepath.Base(p), ".json")
		if v["id"] != id || !resourceIDRegex.MatchString(id) {
			t.Errorf("%s: id %v does not match the file name", p, v["id"])
		}
		if !strings.HasSuffix(string(raw), "}\n") || !strings.Contains(string(raw), "{\n  \"") {
			t.Errorf("%s: not written as JSON.stringify(value, null, 2) + \"\\n\"", p)
		}
		out = append(out, forgeFile{scope: scope, id: id, raw: raw, value: v})
	}
	return out
}

func TestForgeResources(t *testing.T) {
	layout := unpackForTest(t)
	projectForge := filepath.Join(layout.ProjectDir, ".pi", "forge")
	capabilities := map[string]map[string]any{}
	caps := append(readForgeDir(t, filepath.Join(projectForge, "capabilities"), "project"),
		readForgeDir(t, filepath.Join(layout.ForgeDir, "capabilities"), "global")...)
	var toolOnly int
	for _, c := range caps {
		keys := objectKeys(t, c.raw)
		if !reflect.DeepEqual(keys, capabilityKeyOrder) || c.value["schemaVersion"] != float64(1) || c.value["type"] != "pi-forge.capability" {
			t.Errorf("capability %s: keys %v", c.id, keys)
		}
		tools := c.value["tools"].(map[string]any)
		if !reflect.DeepEqual(objectKeys(t, mustJSON(t, tools)), []string{"add", "remove"}) {
			t.Errorf("capability %s: tools keys", c.id)
		}
		if strings.TrimSpace(str(c.value["content"])) == "" {
			toolOnly++
			if len(tools["add"].([]any))+len(tools["remove"].([]any)) == 0 {
				t.Errorf("capability %s has neither content nor tool effects", c.id)
			}
		}
		capabilities[c.scope+":"+c.id] = c.value
	}
	if len(caps) < 4 || toolOnly != 1 {
		t.Errorf("%d capabilities with %d tool-only; want ≥ 3 project + 1 global and exactly one tool-only", len(caps), toolOnly)
	}

	presets := append(readForgeDir(t, filepath.Join(projectForge, "prompt-stacks"), "project"),
		readForgeDir(t, filepath.Join(layout.ForgeDir, "prompt-stacks"), "global")...)
	presetIDs := map[string]bool{}
	var broken []string
	for _, p := range presets {
		presetIDs[p.scope+":"+p.id] = true
		if !inOrder(objectKeys(t, p.raw), presetKeyOrder) || p.value["type"] != "pi-forge.prompt-stack" {
			t.Errorf("preset %s: keys %v are not in normalized order", p.id, objectKeys(t, p.raw))
		}
		if problems := presetProblems(p, capabilities); len(problems) > 0 {
			broken = append(broken, p.id)
			if !strings.Contains(str(p.value["name"]), "Broken") || !strings.Contains(str(p.value["description"]), "DELIBERATELY") {
				t.Errorf("preset %s has unlabelled problems: %v", p.id, problems)
			}
			if !reflect.DeepEqual(problems, []string{"Duplicate item id: intro"}) {
				t.Errorf("preset %s problems %v, want only the duplicate id", p.id, problems)
			}
		}
	}
	if !reflect.DeepEqual(broken, []string{"broken-on-purpose"}) {
		t.Errorf("presets with problems: %v, want only broken-on-purpose", broken)
	}

	profiles := readForgeDir(t, filepath.Join(projectForge, "agent-profiles"), "project")
	var auto int
	for _, p := range profiles {
		if !inOrder(objectKeys(t, p.raw), profileKeyOrder) || len(p.value) < 6 {
			t.Errorf("profile %s: keys %v", p.id, objectKeys(t, p.raw))
		}
		if p.value["autoActivate"] == true {
			auto++
		}
		ref := str(p.value["promptStack"])
		if !strings.Contains(ref, ":") {
			ref = "project:" + ref
		}
		if !presetIDs[ref] {
			t.Errorf("profile %s references missing Preset %s", p.id, ref)
		}
	}
	if len(profiles) != 2 || auto > 1 {
		t.Errorf("%d profiles, %d auto-activating; want 2 and at most 1", len(profiles), auto)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return data
}

// presetProblems checks the rules the demo Presets rely on: unique item ids,
// known slots, one chat-history slot, tools.initial inside the allow list and
// bindings that resolve to existing capabilities of an allowed scope.
func presetProblems(p forgeFile, capabilities map[string]map[string]any) []string {
	var problems []string
	known := []string{"chat-history", "tools", "tool-guidelines", "skills", "project-context", "append-system-prompt",
		"date", "cwd", "date-cwd", "active-model", "pi-docs"}
	ids := map[string]bool{}
	histories := 0
	for _, raw := range p.value["items"].([]any) {
		item := raw.(map[string]any)
		id := str(item["id"])
		if ids[id] {
			problems = append(problems, "Duplicate item id: "+id)
		}
		ids[id] = true
		if item["kind"] == "slot" {
			if !slices.Contains(known, str(item["slot"])) {
				problems = append(problems, "Unsupported slot: "+str(item["slot"]))
			}
			if item["slot"] == "chat-history" {
				histories++
			}
		} else if item["role"] == nil {
			problems = append(problems, "block without role: "+id)
		}
	}
	if histories != 1 {
		problems = append(problems, "chat-history slots: "+string(rune('0'+histories)))
	}
	if tools, ok := p.value["tools"].(map[string]any); ok {
		allow, _ := tools["allow"].([]any)
		initial, _ := tools["initial"].([]any)
		for _, name := range initial {
			if len(allow) > 0 && !slices.Contains(allow, name) {
				problems = append(problems, "initial tool outside allow: "+str(name))
			}
		}
	}
	bindings, _ := p.value["capabilities"].([]any)
	for _, raw := range bindings {
		b := raw.(map[string]any)
		ref := str(b["ref"])
		if !strings.Contains(ref, ":") {
			ref = p.scope + ":" + ref
		}
		if capabilities[ref] == nil || (p.scope == "global" && strings.HasPrefix(ref, "project:")) {
			problems = append(problems, "unresolvable binding "+ref)
		}
	}
	return problems
}

func TestCapabilityEventsInSessions(t *testing.T) {
	layout := unpackForTest(t)
	projectForge := filepath.Join(layout.ProjectDir, ".pi", "forge")
	var checked int
	for _, sf := range sessionFiles(t, layout) {
		events := map[string]bool{}
		for _, e := range sf.entries {
			data, _ := e["data"].(map[string]any)
			switch e["customType"] {
			case "pi-forge-capability-event":
				events[str(data["eventId"])] = true
				if !resourceIDRegex.MatchString(str(data["eventId"])) || data["schemaVersion"] != float64(1) {
					t.Errorf("event %v: bad id or schemaVersion", data["eventId"])
				}
				if data["op"] != "activate" {
					continue
				}
				snap := data["snapshot"].(map[string]any)
				checkSnapshot(t, snap, layout, projectForge)
				checked++
			case "pi-forge-capability-delivery":
				if !events[str(data["throughEventId"])] {
					t.Errorf("delivery anchor %v points at an unknown or future event", data["throughEventId"])
				}
			case "pi-forge-prompt-stack-state":
				id := str(data["activeStackId"])
				if id != "none" {
					scope, name, _ := strings.Cut(id, ":")
					dir := filepath.Join(projectForge, "prompt-stacks")
					if scope == "global" {
						dir = filepath.Join(layout.ForgeDir, "prompt-stacks")
					}
					if _, err := os.Stat(filepath.Join(dir, name+".json")); err != nil {
						t.Errorf("active Preset %s does not exist: %v", id, err)
					}
				}
			case "pi-forge-agent-profile-state":
				prov := data["provenance"].(map[string]any)
				source, err := os.ReadFile(str(prov["sourcePath"]))
				if err != nil {
					t.Fatalf("profile sourcePath: %v", err)
				}
				var compact bytes.Buffer
				if err := json.Compact(&compact, source); err != nil || compact.String() != prov["sourceFingerprint"] {
					t.Errorf("profile sourceFingerprint is not JSON.stringify of the profile file")
				}
			}
		}
	}
	if checked < 3 {
		t.Errorf("checked %d activation snapshots, want at least 3", checked)
	}
}

// checkSnapshot recomputes the sha256:v1 fingerprint (§9.7) and compares the
// frozen content with the capability file it came from.
func checkSnapshot(t *testing.T, snap map[string]any, layout Layout, projectForge string) {
	t.Helper()
	input := map[string]any{"type": "pi-forge.capability-snapshot", "schemaVersion": float64(1),
		"source": snap["source"], "content": snap["content"], "tools": snap["tools"]}
	if name, ok := snap["name"]; ok {
		input["name"] = name
	}
	fp, err := fingerprintJSON(input)
	if err != nil {
		t.Fatalf("fingerprint: %v", err)
	}
	if snap["fingerprint"] != fp {
		t.Errorf("snapshot %v: fingerprint %v, recomputed %s", snap["activationId"], snap["fingerprint"], fp)
	}
	source := snap["source"].(map[string]any)
	if source["kind"] != "capability" {
		return
	}
	key := source["key"].(map[string]any)
	dir := filepath.Join(projectForge, "capabilities")
	if key["scope"] == "global" {
		dir = filepath.Join(layout.ForgeDir, "capabilities")
	}
	raw, err := os.ReadFile(filepath.Join(dir, str(key["id"])+".json"))
	if err != nil {
		t.Fatalf("snapshot source capability: %v", err)
	}
	var c map[string]any
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("parse capability: %v", err)
	}
	if binding, ok := source["binding"].(map[string]any); ok {
		applyBindingOverrides(t, c, binding, layout, projectForge)
	}
	if c["content"] != snap["content"] || !reflect.DeepEqual(c["tools"], snap["tools"]) || c["name"] != snap["name"] {
		t.Errorf("snapshot %v does not freeze capability %v", snap["activationId"], key["id"])
	}
}

// applyBindingOverrides applies the overrides of the Preset binding a bound
// snapshot names (§9.4 applyCapabilityOverrides) to the capability c.
func applyBindingOverrides(t *testing.T, c map[string]any, binding map[string]any, layout Layout, projectForge string) {
	t.Helper()
	preset := binding["preset"].(map[string]any)
	dir := filepath.Join(projectForge, "prompt-stacks")
	if preset["scope"] == "global" {
		dir = filepath.Join(layout.ForgeDir, "prompt-stacks")
	}
	raw, err := os.ReadFile(filepath.Join(dir, str(preset["id"])+".json"))
	if err != nil {
		t.Fatalf("snapshot binding Preset: %v", err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("parse Preset: %v", err)
	}
	bindings, _ := p["capabilities"].([]any)
	for _, rawBinding := range bindings {
		b := rawBinding.(map[string]any)
		id := str(b["id"])
		if id == "" {
			_, id, _ = strings.Cut(str(b["ref"]), ":")
		}
		if id != binding["id"] {
			continue
		}
		overrides, _ := b["overrides"].(map[string]any)
		if content, ok := overrides["content"]; ok {
			c["content"] = content
		}
		if appendContent, ok := overrides["appendContent"].(string); ok {
			if base := str(c["content"]); base != "" {
				c["content"] = base + "\n\n" + appendContent
			} else {
				c["content"] = appendContent
			}
		}
		if tools, ok := overrides["tools"].(map[string]any); ok {
			merged := map[string]any{}
			for k, v := range c["tools"].(map[string]any) {
				merged[k] = v
			}
			for k, v := range tools {
				merged[k] = v
			}
			c["tools"] = merged
		}
		return
	}
	t.Errorf("Preset %v has no binding %v", preset["id"], binding["id"])
}
