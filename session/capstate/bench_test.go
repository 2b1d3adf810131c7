package capstate

import (
	"fmt"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/timing"
	"github.com/forgebench/forgebench/session"
)

// historySession builds a branch carrying events capability events: bound
// and manual activations, their deactivations (a reset every 500 events),
// one anchor per event, with user/assistant turns in between.
func historySession(tb testing.TB, events int) *session.Session {
	tb.Helper()
	b := newBuilder()
	b.custom(capability.PresetStateEntryType, mustObj(`{"activeStackId":"project:read-first-worker"}`))
	b.message("system", systemMessage("read", "bash", "edit", "write", "grep", "find", "ls", "forge_capability"))
	none := capability.ToolPatch{Add: []string{}, Remove: []string{}}
	n := 0
	next := func() string { n++; return fmt.Sprintf("ev-%06d", n) }
	emit := func(ev capability.Event) {
		b.custom(capability.EventEntryType, ev.JSON())
		b.custom(capability.DeliveryEntryType, capability.AnchorData(ev.EventID))
	}
	type activation struct {
		id    string
		bound bool
	}
	var open []activation
	for n < events {
		switch {
		case n%500 == 499:
			emit(capability.NewResetEvent(next(), float64(n)))
			open = nil
		case len(open) >= 3:
			emit(capability.NewDeactivateEvent(next(), capability.ActorUser, float64(n), open[0].id))
			open = open[1:]
		case n%7 == 0:
			src := capability.SnapshotSource{Kind: capability.SourceCapability, Key: capability.Key{Scope: preset.ScopeProject, ID: "write-tools"},
				Binding: &capability.SnapshotBinding{Preset: capability.Key{Scope: preset.ScopeProject, ID: "read-first-worker"}, ID: "write-tools"}}
			id := fmt.Sprintf("act-%06d", n)
			bound := true
			for _, a := range open {
				bound = bound && !a.bound // one active activation per binding
			}
			if bound {
				emit(capability.NewActivateEvent(next(), capability.ActorAgent, float64(n), capability.NewSnapshot(id, src, nil, "Use bash and edit "+id, capability.ToolPatch{Add: []string{"bash", "edit"}, Remove: []string{}})))
			} else {
				emit(capability.NewActivateEvent(next(), capability.ActorUser, float64(n), capability.NewSnapshot(id, capability.SnapshotSource{Kind: capability.SourceManual}, nil, "Manual rule "+id, none)))
			}
			open = append(open, activation{id, bound})
		default:
			id := fmt.Sprintf("act-%06d", n)
			emit(capability.NewActivateEvent(next(), capability.ActorUser, float64(n), capability.NewSnapshot(id, capability.SnapshotSource{Kind: capability.SourceManual}, nil, "Manual rule "+id, none)))
			open = append(open, activation{id: id})
		}
		if n%20 == 0 {
			b.message("user", `"content":"continue","timestamp":1`)
			b.message("assistant", assistant("anthropic", "claude-opus-4-8"))
		}
	}
	return b.session(tb)
}

// TestTenThousandEvents checks the generated history is valid and, with
// FORGEBENCH_TIMING=1, that the state at its leaf stays within ten times
// the 50 ms budget (the benchmark is the measurement; this guards against
// a regression by an order of magnitude).
func TestTenThousandEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("large history")
	}
	s := historySession(t, 10000)
	start := time.Now()
	st, err := At(s, s.LeafIndex(), inputs(defaultWorkspace(t)), seq())
	elapsed := time.Since(start)
	if err != nil || st.Err != nil {
		t.Fatal(err, st.Err)
	}
	if len(st.History.Events) != 10000 || len(st.Pending) != 0 {
		t.Fatalf("%d events, %d pending", len(st.History.Events), len(st.Pending))
	}
	timing.Budget(t, "the state at the leaf of 10,000 events", elapsed, 500*time.Millisecond)
}

// BenchmarkStateAtLeaf10k: the capability state at the leaf of a branch
// holding 10,000 events (and as many anchors). Budget: 50 ms.
func BenchmarkStateAtLeaf10k(b *testing.B) {
	s := historySession(b, 10000)
	in := inputs(defaultWorkspace(b))
	cpu := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := At(s, s.LeafIndex(), in, seq())
		if err != nil || st.Err != nil {
			b.Fatal(err, st.Err)
		}
	}
	b.StopTimer()
	// Wall time suffers when other processes share the cores; the process
	// CPU time (all threads, GC included) is what the work itself costs.
	b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
