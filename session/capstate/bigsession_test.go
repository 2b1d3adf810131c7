package capstate

import (
	"fmt"
	"os"
	"testing"

	"github.com/forgebench/forgebench/engine/capability"
	gen "github.com/forgebench/forgebench/internal/sessiongen"
	"github.com/forgebench/forgebench/session"
)

// TestWriteBigSession writes the session of the whole-process budget
// (.ci/capability-budget.sh) to $FORGEBENCH_BIG_SESSION: the deterministic
// 100 MB benchmark session of session/internal/gen, continued by 2,000
// capability events with their anchors and a tools baseline. Skipped
// unless the variable is set; the file is never committed.
func TestWriteBigSession(t *testing.T) {
	path := os.Getenv("FORGEBENCH_BIG_SESSION")
	if path == "" {
		t.Skip("FORGEBENCH_BIG_SESSION not set: nothing to generate")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{TargetBytes: 100 << 20, Seed: 42}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	none := capability.ToolPatch{Add: []string{}, Remove: []string{}}
	entries := []session.NewEntry{session.CustomEntry(capability.ToolsEntryType,
		capability.ToolsSnapshot{Baseline: []string{"read", "bash", "edit", "write"}, LastApplied: []string{"read", "bash", "edit", "write"}}.Data())}
	var open []string
	for n := 0; n < 2000; n++ {
		var ev capability.Event
		id := fmt.Sprintf("big-%06d", n)
		if len(open) >= 4 {
			ev = capability.NewDeactivateEvent("ev-"+id, capability.ActorUser, float64(1795000000000+n), open[0])
			open = open[1:]
		} else {
			ev = capability.NewActivateEvent("ev-"+id, capability.ActorUser, float64(1795000000000+n),
				capability.NewSnapshot("act-"+id, capability.SnapshotSource{Kind: capability.SourceManual}, nil, "Rule "+id+": keep answers short.", none))
			open = append(open, "act-"+id)
		}
		entries = append(entries, session.CustomEntry(capability.EventEntryType, ev.JSON()),
			session.CustomEntry(capability.DeliveryEntryType, capability.AnchorData(ev.EventID)))
	}
	if _, err := session.Append(path, session.GuardOf(s), entries, session.AppendOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
}
