package subagent

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/session/catalog"
)

const (
	synthRootID = "01a2297f-5f0c-758f-9050-afccfbc5b281"
	synthTreeID = "01a2297f-5f11-758f-9050-afce81bb6785"
)

func synthRoot(t *testing.T) string {
	return fixtures.Path(t, "pi-subagent/synthetic-v5/agent/sessions/--home-dev-projects-demo-app--/2026-11-29T22-49-02-991Z_"+synthRootID+".jsonl")
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSyntheticV5 checks the constructed v5 fixture against values worked
// out by hand from the spec (§16–§24); see the comments for each number.
func TestSyntheticV5(t *testing.T) {
	cat := catalog.Default()
	tree, err := Open(synthRoot(t), Options{Catalog: cat, Cache: NewCache()})
	if err != nil {
		t.Fatal(err)
	}
	tree.Summaries()
	// §16: the marker 9617ff0a on the active branch selects the tree.
	if tree.ID != synthTreeID || tree.Layout != LayoutV5 || tree.State == nil {
		t.Fatalf("tree %q layout %q state %v", tree.ID, tree.Layout, tree.State != nil)
	}
	// §17: two pending completions for /root.
	if len(tree.RootMailbox) != 2 || tree.RootMailbox[0].Kind != KindCompletion || tree.RootMailbox[1].From != "/root/scout" {
		t.Errorf("root mailbox %+v", tree.RootMailbox)
	}
	for _, d := range tree.Diagnostics {
		if d.Severity == SevError {
			t.Errorf("unexpected error: %s", d)
		}
	}
	if len(tree.Agents) != 2 {
		t.Fatalf("%d agents", len(tree.Agents))
	}
	review, _ := tree.Agent("/root/review")
	scout, _ := tree.Agent("/root/scout")
	if review == nil || scout == nil {
		t.Fatal("agents missing")
	}
	// The recorded paths point at /home/dev/...; the files are found by
	// name under the tree's sessions/ directory.
	for _, a := range []*Agent{review, scout} {
		if !a.Relocated || filepath.Dir(a.File) != filepath.Join(tree.Dir, "sessions") {
			t.Errorf("%s: file %q relocated %v", a.Path, a.File, a.Relocated)
		}
		// §18.4: both registrations (d2e57ada, 3f80f7a8) are on the root's
		// active branch.
		if !a.Visible || a.Lifecycle != LifecycleOpen || a.Depth != 1 || a.Parent != RootPath {
			t.Errorf("%s: visible %v lifecycle %q depth %d parent %q", a.Path, a.Visible, a.Lifecycle, a.Depth, a.Parent)
		}
	}
	// /root/review: completed reviewer, high thinking, fork_turns all.
	if review.Status != StatusCompleted || review.Descriptor.Role.Name != "reviewer" || review.Selected().Thinking != "high" ||
		review.Selected().Model.String() != "anthropic/claude-sonnet-4-5" || review.Descriptor.ForkTurns != "all" {
		t.Errorf("review record: %+v", review.Descriptor)
	}
	rs := review.Summary
	if rs == nil {
		t.Fatalf("review summary: %v", review.SummaryErr)
	}
	// The descriptor is the first entry: nothing was inherited (the root
	// had no completed turn at spawn time).
	if rs.DescriptorIndex != 0 || rs.InheritedEntries != 0 {
		t.Errorf("descriptor index %d inherited %d", rs.DescriptorIndex, rs.InheritedEntries)
	}
	// Two assistant messages (read call, final answer); one tool call.
	if rs.Stats.AssistantMessages != 2 || rs.Stats.ToolCalls != 1 || rs.NestedToolCalls != 0 {
		t.Errorf("requests %d tool calls %d nested %d", rs.Stats.AssistantMessages, rs.Stats.ToolCalls, rs.NestedToolCalls)
	}
	// Tokens 2100+2300 in, 60+40 out, 0+2000 cache read — exactly the
	// root's mirrored usage entry for run …0248.
	tok := rs.Stats.Tokens
	if tok.Input != 4400 || tok.Output != 100 || tok.CacheRead != 2000 || tok.CacheWrite != 0 {
		t.Errorf("tokens %+v", tok)
	}
	// Cost from usage: 0.0072 + 0.0081.
	if c, ok := review.Cost(); !ok || !near(c, 0.0153) {
		t.Errorf("cost %v %v", c, ok)
	}
	// One run; every entry of it carries 22:49:03.000Z, so 0 ms.
	if ms, src, ok := review.Runtime(); !ok || ms != 0 || src != RuntimeFromSession || len(rs.Runs) != 1 {
		t.Errorf("runtime %v %q %v runs %d", ms, src, ok, len(rs.Runs))
	}
	if review.Task() != "Review src/auth.ts; report concrete defects." {
		t.Errorf("task %q", review.Task())
	}
	lr := review.LastResponse()
	if lr == nil || lr.Model.String() != "anthropic/claude-sonnet-4-5" || lr.Thinking != "" || review.ModelDiffers() {
		t.Errorf("last response %+v differs %v", lr, review.ModelDiffers())
	}
	// Context: last request 2300 input + 2000 cache read against the
	// catalog's window for claude-sonnet-4-5.
	ce := review.Context(cat)
	m, _ := cat.Lookup("anthropic", "claude-sonnet-4-5")
	if !ce.Known || ce.Tokens != 4300 || ce.Window != m.ContextWindow || !near(ce.Percent, 4300/m.ContextWindow*100) {
		t.Errorf("context %+v (window %v)", ce, m.ContextWindow)
	}
	// /root/scout: errored default-role agent whose run never wrote a
	// message: no requests, cost unavailable (never 0), task from the
	// root's spawn_agent call.
	if scout.Status != StatusErrored || scout.Descriptor.Role.Name != "default" || scout.Selected().Thinking != "medium" ||
		scout.Error != "429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit" {
		t.Errorf("scout record %+v %q", scout.Descriptor.Role, scout.Error)
	}
	if scout.Summary == nil || scout.Summary.Stats.AssistantMessages != 0 || scout.Summary.UsageRecords != 0 {
		t.Fatalf("scout summary %+v", scout.Summary)
	}
	if _, ok := scout.Cost(); ok {
		t.Error("scout cost reported although nothing was recorded")
	}
	if scout.Task() != "Map the test layout." {
		t.Errorf("scout task %q", scout.Task())
	}
	tot := TotalsOf(tree.VisibleAgents(false))
	if tot.Agents != 2 || tot.Requests != 2 || tot.ToolCalls != 1 || !near(tot.Cost, 0.0153) || !tot.CostComplete {
		t.Errorf("totals %+v", tot)
	}
	if tree.ActiveRuns() != 0 || tree.MaxConcurrentAgents != 4 {
		t.Errorf("active %d of %v", tree.ActiveRuns(), tree.MaxConcurrentAgents)
	}
}
