package subagent

import (
	"path/filepath"
	"testing"
)

// TestLegacy030Tree builds a pi-subagent 0.3.0 layout: child sessions next
// to the root, a grandchild, descriptor v2, settled notices in the parents.
func TestLegacy030Tree(t *testing.T) {
	b := newTreeBuilder(t)
	root := newJSONL(filepath.Join(b.dir, "root.jsonl"), "01a2219b-0000-7000-8000-0000000000aa", "", b.start)
	root.message(map[string]any{"role": "user", "content": "scout it"})
	child := func(file, id, parentPi, parentFile, agentID, role, label string) *jsonl {
		s := newJSONL(filepath.Join(b.dir, file), id, parentFile, b.start)
		s.message(map[string]any{"role": "user", "content": label})
		s.custom(DescriptorCustomType, map[string]any{"version": 2, "mode": "continuable", "provider": "spawn", "label": label,
			"agentId": agentID, "parentAgentId": "01a2219b-0000-7000-8000-00000000ffff", "parentPiSessionId": parentPi,
			"depth": 1, "cwd": "/p", "createdAt": "2026-08-21T10:00:00.000Z",
			"agent": map[string]any{"name": role, "description": "d", "systemPrompt": "s", "source": "bundled"},
			"model": map[string]any{"provider": "anthropic", "id": "claude-sonnet-4-5"}, "thinkingLevel": "low",
			"runtime": map[string]any{"agentScope": "user", "maxDepth": 3}})
		s.custom(LineageCustomType, map[string]any{"version": 1, "agentId": agentID})
		s.message(assistant([]any{text("found it")}, "stop", usageOf(100, 10, 0, 0.01)))
		return s
	}
	scout := child("scout.jsonl", "01a2219b-0000-7000-8000-0000000000b1", root.id, root.path, "01a2219b-0000-7000-8000-00000000a001", "scout", "Map the tests")
	deep := child("deep.jsonl", "01a2219b-0000-7000-8000-0000000000b2", scout.id, scout.path, "01a2219b-0000-7000-8000-00000000a002", "Planner", "Plan")
	other := child("other.jsonl", "01a2219b-0000-7000-8000-0000000000b3", "01a2219b-0000-7000-8000-00000000dead", "/x.jsonl", "01a2219b-0000-7000-8000-00000000a003", "worker", "Elsewhere")
	root.add("custom_message", map[string]any{"customType": SettledCustomType, "content": "done", "display": true,
		"details": map[string]any{"kind": "settled", "childAgentId": "01a2219b-0000-7000-8000-00000000a001", "stopReason": "completed"}})
	scout.add("custom_message", map[string]any{"customType": SettledCustomType, "content": "failed", "display": true,
		"details": map[string]any{"kind": "settled", "childAgentId": "01a2219b-0000-7000-8000-00000000a002", "stopReason": "error"}})
	for _, s := range []*jsonl{root, scout, deep, other} {
		s.write(t)
	}
	tree := openBuilt(t, root.path)
	if tree.Layout != Layout030 || len(tree.Agents) != 2 {
		t.Fatalf("layout %q agents %d", tree.Layout, len(tree.Agents))
	}
	s, d := tree.Agents[0], tree.Agents[1]
	if s.Path != "/root/scout_00a001" || s.Status != StatusCompleted || s.Descriptor.Role.Source != "bundled" || s.Task() != "Map the tests" {
		t.Errorf("scout %+v task %q", s, s.Task())
	}
	if d.Path != "/root/scout_00a001/planner_00a002" || d.Status != StatusErrored || d.Depth != 2 || !d.Visible {
		t.Errorf("grandchild %s %s depth %d", d.Path, d.Status, d.Depth)
	}
	if s.Summary == nil || s.Summary.Stats.AssistantMessages != 1 || s.Summary.InheritedEntries != 1 {
		t.Errorf("scout summary %+v", s.Summary)
	}
}
