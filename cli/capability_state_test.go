package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/resources/demo"
	"github.com/forgebench/forgebench/session"
)

// mainSession is the demo's "Invoice rounding fix" session, which carries
// capability history.
func mainSession(t *testing.T, layout demo.Layout) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(layout.SessionDir, "2026-11-27T09-*.jsonl"))
	if err != nil || len(m) != 1 {
		t.Fatalf("main demo session: %v %v", m, err)
	}
	return m[0]
}

// status runs capability status --json and decodes it.
func status(t *testing.T, args []string, file string) map[string]any {
	t.Helper()
	code, out, errOut := runCLI(t, in(args, "capability", "status", "--session", file, "--json")...)
	if code != exitOK {
		t.Fatalf("status: exit %d %s", code, errOut)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status JSON: %v\n%s", err, out)
	}
	return st
}

// checkLoaderRules re-reads a session file as Pi's loader would: every
// line is JSON, ids are unique, and the parent chain of the last entry
// reaches a root.
func checkLoaderRules(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		t.Fatal("the file does not end with a newline")
	}
	parent := map[string]string{}
	last := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		var e struct {
			Type     string  `json:"type"`
			ID       string  `json:"id"`
			ParentID *string `json:"parentId"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d is not JSON: %v", n, err)
		}
		if e.Type == "session" {
			continue
		}
		if _, dup := parent[e.ID]; dup {
			t.Fatalf("line %d: duplicate id %s", n, e.ID)
		}
		parent[e.ID] = ""
		if e.ParentID != nil {
			parent[e.ID] = *e.ParentID
		}
		last = e.ID
	}
	for id, steps := last, 0; id != ""; steps++ {
		p, ok := parent[id]
		if !ok {
			t.Fatalf("the parent chain from %s breaks at %s", last, id)
		}
		if steps > len(parent) {
			t.Fatal("the parent chain has a cycle")
		}
		id = p
	}
}

func TestCapabilityStatusContract(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	code, out, _ := runCLI(t, in(args, "capability", "status", "--session", file, "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	// Exactly the contract's keys, in its order.
	want := []string{"leafId", "activePreset", "active", "lastEventId", "pendingEventIds", "delivery", "presentation", "effectiveTools", "abandonedWrites", "modelCallable", "problem"}
	v, err := jsonv.Parse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	keys := v.(*jsonv.Object).Keys()
	if strings.Join(keys, ",") != strings.Join(want, ",") {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	st := status(t, args, file)
	active := st["active"].([]any)
	if st["activePreset"] != "project:guarded-worker" || len(active) != 2 || st["delivery"] != "prepared" || st["presentation"] != "native" {
		t.Fatalf("state %v", st)
	}
	first := active[0].(map[string]any)
	for _, k := range []string{"activationId", "actor", "source", "name", "content", "tools", "fingerprint", "eventId", "createdAt"} {
		if _, ok := first[k]; !ok {
			t.Errorf("active[0] lacks %s", k)
		}
	}
	if _, ok := first["bindingId"]; ok {
		t.Error("an unbound activation has no bindingId")
	}
	if active[1].(map[string]any)["bindingId"] != "write-access" {
		t.Errorf("bound activation: %v", active[1])
	}
	// The text form says what it is in the product's words, then quotes
	// pi-forge's status text exactly, indented.
	code, out, _ = runCLI(t, in(args, "capability", "status", "--session", file)...)
	if code != exitOK || !strings.HasPrefix(out, "2 capabilities active in session 01a21c48 \"Invoice rounding fix\" at entry ") ||
		!strings.Contains(out, "pi-forge's /capability status:\n  Capability capabilities: 2; native system sections; request prepared (not a model-obedience or delivery acknowledgment)\n  Currently selected tools: ") {
		t.Fatalf("text: %s", out)
	}
	// At an earlier entry: before the user enabled write-access again.
	s, err := session.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	early := s.Entries[5].ID
	code, out, _ = runCLI(t, in(args, "capability", "status", "--session", file, "--leaf", early, "--json")...)
	if code != exitOK || !strings.Contains(out, `"leafId":"`+early+`"`) {
		t.Fatalf("--leaf: %d %s", code, out)
	}
}

// TestCapabilityRoundTrip enables, inspects, disables and resets on a copy
// of a demo session; the file stays loadable after every step.
func TestCapabilityRoundTrip(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	before, _ := os.ReadFile(file)
	code, out, errOut := runCLI(t, in(args, "capability", "enable", "review-mode", "--session", file, "--dry-run")...)
	if code != exitOK || !strings.Contains(out, "(dry run) 3 entries would be appended") || !strings.Contains(out, "resulting state:") {
		t.Fatalf("dry run: %d %s %s", code, out, errOut)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Fatal("--dry-run changed the file")
	}
	code, out, errOut = runCLI(t, in(args, "capability", "enable", "review-mode", "--session", file)...)
	if code != exitOK || !strings.HasPrefix(out, "Selected ") {
		t.Fatalf("enable: %d %s %s", code, out, errOut)
	}
	checkLoaderRules(t, file)
	st := status(t, args, file)
	if n := len(st["active"].([]any)); n != 3 || st["delivery"] != "pending" {
		t.Fatalf("after enable: %v", st)
	}
	tools := st["effectiveTools"].([]any)
	for _, tool := range tools {
		if tool == "edit" || tool == "write" || tool == "bash" {
			t.Fatalf("review-mode removes %s but it is still effective: %v", tool, tools)
		}
	}
	// Idempotent: enabling again writes nothing.
	size := fileSize(t, file)
	if code, out, _ := runCLI(t, in(args, "capability", "enable", "review-mode", "--session", file, "--force")...); code != exitOK || !strings.HasPrefix(out, "Already selected as ") || fileSize(t, file) != size {
		t.Fatalf("repeat enable: %d %s", code, out)
	}
	code, out, errOut = runCLI(t, in(args, "capability", "disable", "review-mode", "--session", file, "--force")...)
	if code != exitOK || !strings.HasPrefix(out, "Stopped ") {
		t.Fatalf("disable: %d %s %s", code, out, errOut)
	}
	checkLoaderRules(t, file)
	if n := len(status(t, args, file)["active"].([]any)); n != 2 {
		t.Fatalf("after disable: %d active", n)
	}
	code, out, _ = runCLI(t, in(args, "capability", "reset", "--session", file, "--force", "--json")...)
	var res struct {
		Message string         `json:"message"`
		Written bool           `json:"written"`
		Entries []any          `json:"entries"`
		State   map[string]any `json:"state"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.Message != "Capabilities stopped; tools recomputed. Historical messages and completed work are not undone." || !res.Written {
		t.Fatalf("reset: %d %s", code, out)
	}
	checkLoaderRules(t, file)
	st = status(t, args, file)
	if len(st["active"].([]any)) != 0 || st["delivery"] != "pending" {
		t.Fatalf("after reset: %v", st)
	}
	if code, out, _ := runCLI(t, in(args, "capability", "reset", "--session", file, "--force")...); code != exitOK || strings.TrimSpace(out) != "No active capabilities to reset." {
		t.Fatalf("second reset: %d %s", code, out)
	}
	// Add keeps the text verbatim.
	if code, _, errOut := runCLI(t, in(args, "capability", "add", "Answer in French.  ", "--session", file, "--force")...); code != exitOK {
		t.Fatalf("add: %s", errOut)
	}
	active := status(t, args, file)["active"].([]any)
	if len(active) != 1 || active[0].(map[string]any)["content"] != "Answer in French.  " || active[0].(map[string]any)["source"] != "manual" {
		t.Fatalf("manual: %v", active)
	}
	checkLoaderRules(t, file)
}

func fileSize(t *testing.T, file string) int64 {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func TestCapabilityRefusals(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	s, err := session.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := s.Leaf()
	cases := []struct {
		name string
		argv []string
		code int
		msg  string
	}{
		{"untrusted", in(args, "--no-trust", "capability", "enable", "plain-english", "--session", file), exitRefused, "pi-forge: Project is not trusted; refusing to activate an capability."},
		{"untrusted disable", in(args, "--no-trust", "capability", "disable", "manual", "--session", file), exitRefused, "Project is not trusted"},
		{"stale guard", in(args, "capability", "reset", "--session", file, "--leaf", "00000000"), exitConflict, "changed since you read it"},
		{"unknown binding", in(args, "capability", "enable-bound", "nope", "--session", file), exitUsage, `pi-forge: Capability "nope" is not bound to active preset "project:guarded-worker".`},
		{"unknown capability", in(args, "capability", "enable", "nope", "--session", file), exitUsage, `pi-forge: Capability capability "nope" not found.`},
		{"ambiguous disable", in(args, "capability", "disable", "manual", "--session", file), exitOK, "No matching active capability (already disabled or unknown ID)."},
		{"unknown preset", in(args, "preset", "use", "ghost", "--session", file), exitUsage, "pi-forge: Unknown prompt stack: ghost"},
		{"usage add", in(args, "capability", "add", "  ", "--session", file), exitUsage, "pi-forge: Usage: /capability add <text>"},
		{"untrusted preset use", in(args, "--no-trust", "preset", "use", "none", "--session", file), exitRefused, "forgebench: pi-forge: project is not trusted; refusing to activate a prompt stack."},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, c.argv...)
		if strings.Contains(out+errOut, "pi-forge: pi-forge:") {
			t.Errorf("%s: the pi-forge prefix is doubled: %s%s", c.name, out, errOut)
		}
		if code != c.code || !strings.Contains(out+errOut, c.msg) {
			t.Errorf("%s: exit %d (want %d)\n%s%s", c.name, code, c.code, out, errOut)
		}
	}
	if l, _ := session.Open(file); l.Size != s.Size {
		t.Fatal("a refusal wrote to the file")
	}
	// A session modified a moment ago is live: refused without --force.
	now := time.Now()
	if err := os.Chtimes(file, now, now); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, in(args, "capability", "enable", "test-runner", "--session", file, "--leaf", leaf.ID)...)
	if code != exitRefused || !strings.Contains(errOut, "session file is in use") || !strings.Contains(errOut, "--force") {
		t.Fatalf("live: %d %s", code, errOut)
	}
	// An unreadable history is a failed check.
	bad := filepath.Join(t.TempDir(), "legacy.jsonl")
	data, _ := os.ReadFile(file)
	data = append(data, []byte(`{"type":"custom","customType":"pi-forge-instruction-event","data":{},"id":"ffff0001","parentId":"`+leaf.ID+`","timestamp":"2026-11-27T10:00:00.000Z"}`+"\n")...)
	if err := os.WriteFile(bad, data, 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, in(args, "capability", "status", "--session", bad)...)
	if code != exitFailed || !strings.Contains(errOut, "This session contains legacy pre-capability state.") || !strings.Contains(errOut, "(entry ffff0001)") {
		t.Fatalf("legacy: %d %s", code, errOut)
	}
}

func TestPresetUseSwitchesAndRetires(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	code, out, errOut := runCLI(t, in(args, "preset", "use", "pi-mirror", "--session", file, "--dry-run")...)
	if code != exitOK || !strings.Contains(out, `"activeStackId":"project:pi-mirror"`) || !strings.Contains(out, `"actor":"lifecycle"`) {
		t.Fatalf("dry run: %d %s %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, in(args, "preset", "use", "pi-mirror", "--session", file)...)
	if code != exitOK || strings.TrimSpace(out) != "pi-forge: active prompt stack pi-mirror" {
		t.Fatalf("use: %d %s %s", code, out, errOut)
	}
	checkLoaderRules(t, file)
	st := status(t, args, file)
	active := st["active"].([]any)
	if st["activePreset"] != "project:pi-mirror" || len(active) != 1 || active[0].(map[string]any)["source"] != "global:plain-english" {
		t.Fatalf("after switch: %v", st)
	}
	// The same Preset again changes nothing.
	size := fileSize(t, file)
	if code, _, _ := runCLI(t, in(args, "preset", "use", "project:pi-mirror", "--session", file, "--force")...); code != exitOK || fileSize(t, file) != size {
		t.Fatal("switching to the active Preset wrote entries")
	}
	if code, out, _ := runCLI(t, in(args, "preset", "use", "none", "--session", file, "--force")...); code != exitOK || strings.TrimSpace(out) != "pi-forge: prompt stack disabled" {
		t.Fatalf("none: %d %s", code, out)
	}
	if st := status(t, args, file); st["activePreset"] != "none" {
		t.Fatalf("after none: %v", st["activePreset"])
	}
	// An unbound activation survives a switch, so it is preflighted
	// against the target's policy: quick-review denies edit and write.
	if code, _, errOut := runCLI(t, in(args, "capability", "enable", "write-access", "--session", file, "--force")...); code != exitOK {
		t.Fatalf("enable: %s", errOut)
	}
	size = fileSize(t, file)
	// A rule of pi-forge's refuses it: the checked thing failed (exit 1).
	code, _, errOut = runCLI(t, in(args, "preset", "use", "global:quick-review", "--session", file, "--force")...)
	if code != exitFailed || !strings.Contains(errOut, `pi-forge: Tool "edit" is blocked by prompt stack "quick-review".`) || fileSize(t, file) != size {
		t.Fatalf("preflight: %d %s", code, errOut)
	}
}

// TestDefaultSessionIsTheNewest: without --session the project's newest
// session is used.
func TestDefaultSessionIsTheNewest(t *testing.T) {
	args, _ := demoArgs(t)
	code, out, errOut := runCLI(t, in(args, "capability", "status", "--json")...)
	if code != exitOK || !strings.Contains(out, `"leafId"`) {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
	_, newest, _ := runCLI(t, in(args, "session", "list", "--json")...)
	var list []struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal([]byte(newest), &list); err != nil || len(list) == 0 {
		t.Fatal(err)
	}
	s, err := session.Open(list[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := s.Leaf()
	if !strings.Contains(out, `"leafId":"`+leaf.ID+`"`) {
		t.Fatalf("status read another session: %s", out)
	}
}

// TestSessionFlagTakesAnID: --session names a session as every command
// does, by file, id or unique id prefix (the Capabilities panel's advice
// gives the id: a path is long and wraps badly).
func TestSessionFlagTakesAnID(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	want := status(t, args, file)
	for _, id := range []string{"01a21c48-87b8-7bf2-bec6-d1b0faeb6b39", "01a21c48"} {
		if got := status(t, args, id); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("--session %s: %v, want %v", id, got, want)
		}
	}
	code, _, errOut := runCLI(t, in(args, "capability", "disable", "x", "--session", "ffffffff", "--dry-run")...)
	if code != exitUsage || !strings.Contains(errOut, "ffffffff") {
		t.Fatalf("an unknown id: exit %d %s", code, errOut)
	}
}

// TestSavePreflightRefusesABreakingOverwrite: overwriting the session's
// active Preset with a version whose policy denies a tool an active
// capability adds is refused before anything is written.
func TestSavePreflightRefusesABreakingOverwrite(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	target := filepath.Join(layout.ProjectDir, ".pi/forge/prompt-stacks/guarded-worker.json")
	before, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	var stack map[string]any
	if err := json.Unmarshal(before, &stack); err != nil {
		t.Fatal(err)
	}
	stack["tools"] = map[string]any{"deny": []string{"edit"}}
	legacy, _ := json.Marshal(stack)
	dir := filepath.Join(layout.ProjectDir, ".pi/prompt-stacks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "guarded-worker.json"), legacy, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, in(args, "preset", "migrate-stacks", "--overwrite", "--session", file)...)
	if code != exitRefused || !strings.Contains(errOut, `project:guarded-worker: Tool "edit" is blocked by prompt stack "guarded-worker".`) {
		t.Fatalf("preflight: %d %s", code, errOut)
	}
	if after, _ := os.ReadFile(target); !bytes.Equal(before, after) {
		t.Fatal("a refused overwrite wrote the Preset")
	}
	// Once write-access is disabled nothing conflicts.
	if code, _, errOut := runCLI(t, in(args, "capability", "disable", "write-access", "--session", file)...); code != exitOK {
		t.Fatalf("disable: %s", errOut)
	}
	if code, out, errOut := runCLI(t, in(args, "preset", "migrate-stacks", "--overwrite", "--session", file)...); code != exitOK {
		t.Fatalf("migrate after disable: %d %s %s", code, out, errOut)
	}
}

// TestDemoDefaultSessionShowsCapabilitiesInUse: the session `--demo` opens by
// default (the newest) carries a capability history that ends with capabilities
// in force, so status and the Capabilities panel do not open on an empty state.
func TestDemoDefaultSessionShowsCapabilitiesInUse(t *testing.T) {
	args, layout := demoArgs(t)
	code, out, errOut := runCLI(t, in(args, "capability", "status", "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var st struct {
		ActivePreset *string `json:"activePreset"`
		Active       []struct {
			Actor     string `json:"actor"`
			Source    string `json:"source"`
			BindingID string `json:"bindingId"`
		} `json:"active"`
		LastEventID    *string  `json:"lastEventId"`
		Pending        []string `json:"pendingEventIds"`
		Delivery       string   `json:"delivery"`
		EffectiveTools []string `json:"effectiveTools"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var got []string
	for _, a := range st.Active {
		got = append(got, a.Actor+" "+a.Source+" "+a.BindingID)
	}
	want := []string{"user global:plain-english ", "agent project:write-access write-access"}
	if st.ActivePreset == nil || *st.ActivePreset != "project:guarded-worker" || strings.Join(got, "|") != strings.Join(want, "|") ||
		st.LastEventID == nil || len(st.Pending) != 0 || st.Delivery != "prepared" ||
		strings.Join(st.EffectiveTools, ",") != "read,grep,ls,forge_capability,edit,write,bash" {
		t.Fatalf("default demo session state: %s", out)
	}
	// The stored tools baseline is the one pi-forge left, in this session
	// and the main one: enabling a capability that changes no tool plans
	// just the event and its anchor.
	// A write never picks its session, not even for a dry run.
	code, _, errOut = runCLI(t, in(args, "capability", "enable", "test-runner", "--dry-run", "--force")...)
	if code != exitUsage || !strings.Contains(errOut, "name the session to change with --session") {
		t.Fatalf("a write without --session: %d %s", code, errOut)
	}
	for _, session := range []string{"01a2219b", mainSession(t, layout)} { // the newest session by id prefix, the main one by file
		more := []string{"capability", "enable", "test-runner", "--dry-run", "--force", "--session", session}
		code, out, errOut = runCLI(t, in(args, more...)...)
		if code != exitOK || !strings.Contains(out, "2 entries would be appended") || strings.Contains(out, "pi-forge-capability-tools") {
			t.Fatalf("dry-run at the leaf of %q: %d %s %s", session, code, out, errOut)
		}
	}
}

// TestStatusJSONListsModelCallable: capability status --json names what
// the agent may enable through forge_capability at the entry: the demo
// review session's guarded-worker binds write-access modelCallable and
// review-mode not; under no Preset the list is empty.
func TestStatusJSONListsModelCallable(t *testing.T) {
	args, layout := demoArgs(t)
	files, _ := filepath.Glob(filepath.Join(layout.SessionDir, "2026-11-28T10-02-47-331Z_*.jsonl"))
	if len(files) != 1 {
		t.Fatal(files)
	}
	st := status(t, args, files[0])
	got, _ := json.Marshal(st["modelCallable"])
	if string(got) != `[{"bindingId":"write-access","capability":"project:write-access","name":"Write access"}]` || st["problem"] != nil {
		t.Fatalf("modelCallable %s, problem %v", got, st["problem"])
	}
	if st := status(t, args, currencySession(t, layout)); fmt.Sprint(st["modelCallable"]) != "[]" {
		t.Fatalf("no Preset: %v", st["modelCallable"])
	}
}
