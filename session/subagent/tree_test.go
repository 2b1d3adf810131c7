package subagent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session/catalog"
)

func hasDiag(t *Tree, sev, substr string) bool {
	for _, d := range t.Diagnostics {
		if d.Severity == sev && strings.Contains(d.Message, substr) {
			return true
		}
	}
	return false
}

func openBuilt(t *testing.T, root string) *Tree {
	t.Helper()
	tree, err := Open(root, Options{Catalog: catalog.Default(), Cache: NewCache()})
	if err != nil {
		t.Fatal(err)
	}
	tree.Summaries()
	return tree
}

// TestBuiltTree covers depth 3, closed and closing agents, a hidden branch
// (and the child of a hidden agent), a missing session file, copied parent
// history, mailboxes, README-only record fields, a telemetry sidecar and a
// leftover .pending file.
func TestBuiltTree(t *testing.T) {
	b := newTreeBuilder(t)
	b.addAgent(spec{path: "/root/a", status: StatusCompleted, runs: 2, onBranch: true, mailbox: 2, inherited: 3})
	b.addAgent(spec{path: "/root/a/b", status: StatusRunning, runs: 1, onBranch: true, outbox: 1})
	b.addAgent(spec{path: "/root/a/b/c", status: StatusPendingInit, onBranch: true})
	b.addAgent(spec{path: "/root/closed", status: StatusInterrupted, lifecycle: LifecycleClosed, runs: 1, onBranch: true})
	b.addAgent(spec{path: "/root/closing", status: StatusRunning, lifecycle: LifecycleClosing, onBranch: true})
	b.addAgent(spec{path: "/root/gone", status: StatusCompleted, missing: true, onBranch: true})
	b.addAgent(spec{path: "/root/hidden", status: StatusCompleted, runs: 1, onBranch: false})
	b.addAgent(spec{path: "/root/hidden/kid", status: StatusCompleted, onBranch: true})
	b.addAgent(spec{path: "/root/a/abandoned", status: StatusCompleted, onBranch: false})
	b.addAgent(spec{path: "/root/tele", status: StatusCompleted, runs: 1, onBranch: true,
		telemetry:  `{"version":1,"runs":[{"startedAt":"2026-11-28T10:00:00.000Z","endedAt":"2026-11-28T10:00:07.500Z"},{"startedAt":1795000000000,"endedAt":1795000002000},{"startedAt":1795000009000}],"contextSnapshot":{"tokens":12345,"contextWindow":100000}}`,
		recordJSON: map[string]any{"model": "openai/gpt-5.4", "thinking": "high", "last_response": map[string]any{"model": "openai/gpt-5.4-mini"}}})
	root := b.finish()
	pending := filepath.Join(b.treeDir(), "state-01a2219b-0000-7000-8000-000000000009.pending")
	if err := os.WriteFile(pending, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	tree := openBuilt(t, root)
	if len(tree.Agents) != 10 {
		t.Fatalf("%d agents", len(tree.Agents))
	}
	get := func(p string) *Agent {
		a, ok := tree.Agent(p)
		if !ok {
			t.Fatalf("no agent %s", p)
		}
		return a
	}
	if c := get("/root/a/b/c"); c.Depth != 3 || c.Parent != "/root/a/b" || !c.Visible {
		t.Errorf("depth-3 agent: depth %d parent %s visible %v (%s)", c.Depth, c.Parent, c.Visible, c.Hidden)
	}
	if a := get("/root/a"); len(a.Children) != 2 || a.Children[0].Path != "/root/a/abandoned" {
		t.Errorf("children of /root/a: %v", a.Children)
	}
	if get("/root/closed").Lifecycle != LifecycleClosed || get("/root/closing").Lifecycle != LifecycleClosing || get("/root/a").Lifecycle != LifecycleOpen {
		t.Error("lifecycles not read (absent must be open)")
	}
	for _, p := range []string{"/root/hidden", "/root/hidden/kid", "/root/a/abandoned"} {
		if a := get(p); a.Visible || a.Hidden == "" {
			t.Errorf("%s should be hidden", p)
		}
	}
	if !strings.Contains(get("/root/hidden/kid").Hidden, "parent /root/hidden is hidden") {
		t.Errorf("hidden reason %q", get("/root/hidden/kid").Hidden)
	}
	if n := len(tree.VisibleAgents(false)); n != 7 {
		t.Errorf("%d visible agents, want 7", n)
	}
	gone := get("/root/gone")
	if gone.File != "" || gone.Summary != nil || !hasDiag(tree, SevWarning, "agent session file not found") {
		t.Errorf("missing file not reported: %+v", gone)
	}
	if _, ok := gone.Cost(); ok {
		t.Error("an agent without a session has a cost")
	}
	if len(tree.PendingFiles) != 1 || !hasDiag(tree, SevInfo, "leftover recovery file") {
		t.Errorf("pending files %v", tree.PendingFiles)
	}
	// Copied parent history: 3 entries before the descriptor, with usage
	// that must not count (999 input tokens, $9.99). Own requests: two
	// runs of two answers plus the two spawn_agent calls for its children.
	a := get("/root/a")
	if a.Summary.InheritedEntries != 3 || a.Summary.Stats.Tokens.Input != 2*(1000+1200)+2*50 || a.Summary.Stats.AssistantMessages != 6 {
		t.Errorf("/root/a inherited %d tokens %+v requests %d", a.Summary.InheritedEntries, a.Summary.Stats.Tokens, a.Summary.Stats.AssistantMessages)
	}
	// Cost: the final answers carry no cost and are priced from the
	// catalog, so the cost is known and above the stored 2 × 0.002.
	if c, ok := a.Cost(); !ok || c <= 0.004 {
		t.Errorf("cost %v %v", c, ok)
	}
	// A run spans its prompt to its last message: prompt, envelope, call,
	// output, answer at 1 s steps.
	if ms, src, _ := get("/root/closed").Runtime(); src != RuntimeFromSession || ms != 4000 {
		t.Errorf("runtime %v from %q", ms, src)
	}
	if len(a.Mailbox) != 2 || len(get("/root/a/b").Outbox) != 1 {
		t.Errorf("mailbox %d outbox %d", len(a.Mailbox), len(get("/root/a/b").Outbox))
	}
	if a.Task() != "Run 2 of a" {
		t.Errorf("task %q", a.Task())
	}
	if get("/root/a/b/c").Task() != "Task for c" {
		t.Errorf("spawn task %q", get("/root/a/b/c").Task())
	}
	// Telemetry: two complete intervals (7.5 s + 2 s) and one open one;
	// the snapshot gives the context. README fields override the model.
	tele := get("/root/tele")
	if ms, src, _ := tele.Runtime(); src != RuntimeFromTelemetry || ms != 9500 || tele.Telemetry.OpenRuns != 1 {
		t.Errorf("telemetry runtime %v %q open %d", ms, src, tele.Telemetry.OpenRuns)
	}
	if ce := tele.Context(nil); !ce.Known || ce.Tokens != 12345 || ce.Window != 100000 || ce.Source != RuntimeFromTelemetry {
		t.Errorf("telemetry context %+v", ce)
	}
	if sel := tele.Selected(); sel.Model.String() != "openai/gpt-5.4" || sel.Thinking != "high" {
		t.Errorf("README selection %+v", sel)
	}
	// The session's own last response (anthropic) wins over last_response
	// and differs from the selection.
	if lr := tele.LastResponse(); lr == nil || lr.Model.Provider != "anthropic" || !tele.ModelDiffers() {
		t.Errorf("last response %+v differs %v", lr, tele.ModelDiffers())
	}
	// Active runs: running /root/a/b and /root/closing, pending /root/a/b/c.
	if tree.ActiveRuns() != 3 || tree.MaxConcurrentAgents != 4 {
		t.Errorf("active %d / %v", tree.ActiveRuns(), tree.MaxConcurrentAgents)
	}
	tot := TotalsOf(tree.VisibleAgents(false))
	if tot.Agents != 7 || tot.CostComplete {
		t.Errorf("totals %+v (the missing file makes the cost incomplete)", tot)
	}
}

func TestCorruptStateKeepsAgentsViewable(t *testing.T) {
	cases := []struct {
		name, state, want string
		sev               string
		agents            int
		recovered         bool
	}{
		{"not JSON", `{"version":1,`, "not valid JSON", SevError, 2, true},
		{"array", `[]`, "holds an array", SevError, 2, true},
		{"newer version", `{"version":2,"id":"ID","rootSessionId":"ROOT","rootMailbox":[],"agents":{}}`, "newer than 1", SevWarning, 0, false},
		{"wrong id", `{"version":1,"id":"other","rootSessionId":"ROOT","rootMailbox":[],"agents":{}}`, `id "other" does not match`, SevError, 0, false},
		{"agents array", `{"version":1,"id":"ID","rootSessionId":"ROOT","rootMailbox":[],"agents":[]}`, "agents is an array", SevError, 0, false},
		{"bad mailbox", `{"version":1,"id":"ID","rootSessionId":"ROOT","rootMailbox":[{"id":"x","text":"t","from":"/root/a","to":"/root/b","kind":"message"}],"agents":{}}`, "corrupt subagent mailbox", SevError, 0, false},
		{"bad key", `{"version":1,"id":"ID","rootSessionId":"ROOT","rootMailbox":[],"agents":{"/root/Bad-Name":{"descriptor":{"version":5,"path":"/root/Bad-Name","parentPath":"/root","anchorId":"x"},"sessionFile":"","status":"completed","mailbox":[]}}}`, `unsupported or corrupt subagent descriptor: "/root/Bad-Name" — the key is not a canonical agent path`, SevError, 0, false},
		{"bad parent", `{"version":1,"id":"ID","rootSessionId":"ROOT","rootMailbox":[],"agents":{"/root/a/b":{"descriptor":{"version":5,"path":"/root/a/b","parentPath":"/root","anchorId":"x"},"sessionFile":"f","status":"weird","mailbox":[]}}}`, `descriptor.parentPath is "/root"`, SevError, 1, false},
		{"unknown status", `{"version":1,"id":"ID","rootSessionId":"ROOT","rootMailbox":[],"agents":{"/root/a":{"descriptor":{"version":5,"path":"/root/a","parentPath":"/root","anchorId":"x"},"sessionFile":"f","status":"sleeping","mailbox":[]}}}`, `unknown status "sleeping"`, SevWarning, 1, false},
		{"old descriptor", `{"version":1,"id":"ID","rootSessionId":"ROOT","rootMailbox":[],"agents":{"/root/a":{"descriptor":{"version":4,"path":"/root/a","parentPath":"/root","anchorId":"x"},"sessionFile":"f","status":"completed","mailbox":[]}}}`, "neither migrated nor resumed", SevError, 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newTreeBuilder(t)
			b.addAgent(spec{path: "/root/a", status: StatusCompleted, runs: 1, onBranch: true})
			b.addAgent(spec{path: "/root/b", status: StatusCompleted, onBranch: true})
			root := b.finish()
			b.writeState(strings.NewReplacer("ID", b.treeID, "ROOT", b.rootID).Replace(c.state))
			tree := openBuilt(t, root)
			if !hasDiag(tree, c.sev, c.want) {
				t.Errorf("no %s containing %q in %v", c.sev, c.want, tree.Diagnostics)
			}
			if len(tree.Agents) != c.agents {
				t.Fatalf("%d agents, want %d", len(tree.Agents), c.agents)
			}
			if c.recovered {
				a, _ := tree.Agent("/root/a")
				if a == nil || a.Status != StatusUnknown || a.Summary == nil || a.Summary.Stats.AssistantMessages != 2 {
					t.Errorf("agent not recovered from its session: %+v", a)
				}
			}
		})
	}
}

func TestOpenRefusals(t *testing.T) {
	b := newTreeBuilder(t)
	b.addAgent(spec{path: "/root/a", status: StatusCompleted, runs: 1, onBranch: true})
	b.finish()
	// An agent session given as the root names the root it belongs to.
	_, err := Open(b.files["/root/a"].path, Options{})
	if !errors.Is(err, ErrNotRoot) || !strings.Contains(err.Error(), b.rootID) {
		t.Errorf("agent session as root: %v", err)
	}
	// A plain session has no tree.
	plain := newJSONL(filepath.Join(b.dir, "plain.jsonl"), "01a2219b-0000-7000-8000-00000000beef", "", b.start)
	plain.message(map[string]any{"role": "user", "content": "hi"})
	plain.write(t)
	if _, err := Open(plain.path, Options{}); !errors.Is(err, ErrNoTree) {
		t.Errorf("plain session: %v", err)
	}
	// A fork keeps the old marker, whose rootSessionId is not its own.
	fork := newJSONL(filepath.Join(b.dir, "fork.jsonl"), "01a2219b-0000-7000-8000-00000000f00c", b.root.path, b.start)
	fork.custom(TreeCustomType, map[string]any{"version": 1, "id": b.treeID, "rootSessionId": b.rootID})
	fork.write(t)
	// The message says the marker is there but belongs to the original
	// root, and names it (its id and its file).
	if _, err := Open(fork.path, Options{}); !errors.Is(err, ErrNoTree) || strings.Contains(err.Error(), "no pi-subagent/tree-v2 marker on its active branch") ||
		!strings.Contains(err.Error(), b.rootID) || !strings.Contains(err.Error(), b.root.path) || !strings.Contains(err.Error(), "forked") {
		t.Errorf("forked session: %v", err)
	}
	if _, err := Open(filepath.Join(b.dir, "nope.jsonl"), Options{}); err == nil {
		t.Error("missing root opened")
	}
}

func TestCacheFollowsFileChanges(t *testing.T) {
	b := newTreeBuilder(t)
	b.addAgent(spec{path: "/root/a", status: StatusRunning, runs: 1, onBranch: true})
	root := b.finish()
	cache := NewCache()
	tree, err := Open(root, Options{Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	tree.Summaries()
	a, _ := tree.Agent("/root/a")
	first := a.Summary
	// Unchanged: the same summary comes back without a read.
	again, _ := Open(root, Options{Cache: cache})
	again.Summaries()
	if a2, _ := again.Agent("/root/a"); a2.Summary != first {
		t.Error("an unchanged file was read again")
	}
	// The agent answers once more: size and mtime change.
	s := b.files["/root/a"]
	s.message(assistant([]any{text("more")}, "stop", usageOf(10, 1, 0, 0.5)))
	s.write(t)
	third, _ := Open(root, Options{Cache: cache})
	third.Summaries()
	a3, _ := third.Agent("/root/a")
	if a3.Summary == first || a3.Summary.Stats.AssistantMessages != 3 {
		t.Errorf("a grown file was not re-read: %d requests", a3.Summary.Stats.AssistantMessages)
	}
	if cache.Len() != 1 {
		t.Errorf("cache holds %d files", cache.Len())
	}
}

func TestThousandAgents(t *testing.T) {
	b := newTreeBuilder(t)
	for i := range 1000 {
		b.addAgent(spec{path: "/root/" + agentName(i), status: StatusCompleted, runs: 1, onBranch: true})
	}
	root := b.finish()
	tree := openBuilt(t, root)
	if len(tree.Agents) != 1000 || len(tree.VisibleAgents(false)) != 1000 {
		t.Fatalf("%d agents, %d visible", len(tree.Agents), len(tree.VisibleAgents(false)))
	}
	tot := TotalsOf(tree.Agents)
	if tot.Requests != 2000 || tot.ToolCalls != 1000 || !tot.CostComplete {
		t.Errorf("totals %+v", tot)
	}
	if got := len(ListJSON(tree.Agents, nil)); got != 1000 {
		t.Errorf("list has %d objects", got)
	}
}

func agentName(i int) string {
	return "agent_" + strings.Repeat("0", 4-len(itoa(i))) + itoa(i)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

func BenchmarkOpenTree(b *testing.B) {
	tb := newTreeBuilder(b)
	for i := range 200 {
		tb.addAgent(spec{path: "/root/" + agentName(i), status: StatusCompleted, runs: 3, padBytes: 64 << 10, onBranch: true})
	}
	root := tb.finish()
	b.ReportAllocs()
	for b.Loop() {
		tree, err := Open(root, Options{})
		if err != nil {
			b.Fatal(err)
		}
		tree.Summaries()
	}
}

// TestParentsAreNotedLikeOtherAgents: a parent's session is read early (for
// its children's visibility); what reading it revealed is still reported,
// as for any other agent.
func TestParentsAreNotedLikeOtherAgents(t *testing.T) {
	b := newTreeBuilder(t)
	b.addAgent(spec{path: "/root/p", status: StatusCompleted, runs: 1, onBranch: true, telemetry: `not json`})
	b.addAgent(spec{path: "/root/p/kid", status: StatusCompleted, onBranch: true})
	b.addAgent(spec{path: "/root/leaf", status: StatusCompleted, onBranch: true, telemetry: `[1]`})
	tree := openBuilt(t, b.finish())
	for _, p := range []string{"/root/p", "/root/leaf"} {
		found := false
		for _, d := range tree.Diagnostics {
			found = found || d.Agent == p && strings.Contains(d.Message, "telemetry sidecar ignored")
		}
		if !found {
			t.Errorf("%s: its corrupt telemetry sidecar is not reported: %v", p, tree.Diagnostics)
		}
	}
}
