package subagent

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/stats"
)

// Runtime sources.
const (
	RuntimeFromTelemetry = "telemetry"
	RuntimeFromSession   = "session"
)

// Runtime is the agent's run time (the sum of its run intervals, §25.10):
// from the telemetry sidecar when it has run data, else from the session's
// message times (§24). known is false when neither gives anything.
func (a *Agent) Runtime() (ms float64, source string, known bool) {
	if ms, ok := a.Telemetry.RuntimeMs(); ok {
		return ms, RuntimeFromTelemetry, true
	}
	if a.Summary == nil {
		return 0, "", false
	}
	if len(a.Summary.Runs) == 0 {
		return 0, RuntimeFromSession, true
	}
	return a.Summary.RuntimeMs(), RuntimeFromSession, true
}

// RuntimeAt is Runtime with the current run counted up to now while the
// agent is running (the dashboard's live detail, §25.10). The current run
// starts at its runId's time (a UUIDv7 carries its creation in
// milliseconds, §24) or, without one, at the session's last run; runs the
// session recorded before that start keep their durations. With telemetry
// the open interval the sidecar records is extended instead.
func (a *Agent) RuntimeAt(now time.Time) (ms float64, source string, known bool) {
	ms, source, known = a.Runtime()
	if !known || a.Status != StatusRunning {
		return ms, source, known
	}
	nowMs := float64(now.UnixMilli())
	switch source {
	case RuntimeFromTelemetry:
		if a.Telemetry.OpenRuns > 0 && a.Telemetry.OpenStart < nowMs {
			ms += nowMs - a.Telemetry.OpenStart
		}
	case RuntimeFromSession:
		runs := a.Summary.Runs
		start, ok := uuidV7Ms(a.RunID)
		if !ok {
			if len(runs) == 0 || math.IsNaN(runs[len(runs)-1].Start) {
				return ms, source, known
			}
			start = runs[len(runs)-1].Start
		}
		if start >= nowMs {
			return ms, source, known
		}
		// The run's prompt follows its runId by a moment: a recorded run
		// starting within a second before is the same run.
		ms = nowMs - start
		for _, r := range runs {
			if r.Start < start-1000 {
				ms += r.Duration()
			}
		}
	}
	return ms, source, known
}

// uuidV7Ms reads the Unix milliseconds of a UUIDv7 (its first 48 bits).
func uuidV7Ms(id string) (float64, bool) {
	if len(id) != 36 || id[14] != '7' {
		return 0, false
	}
	hex := id[:8] + id[9:13]
	ms, err := strconv.ParseUint(hex, 16, 64)
	if err != nil || ms == 0 {
		return 0, false
	}
	return float64(ms), true
}

// Cost is the agent's estimated cost from its recorded usage (stored
// costs, else catalog prices). known is false when the agent recorded no
// usage or some usage could not be priced: an unknown cost is never 0.
func (a *Agent) Cost() (float64, bool) {
	if a.Summary == nil || a.Summary.UsageRecords == 0 || len(a.Summary.Stats.Unpriced) > 0 {
		return 0, false
	}
	return a.Summary.Stats.Cost, true
}

// LastResponse is the model of the most recent successful physical
// response: from the session, else the record's README last_response.
func (a *Agent) LastResponse() *Selection {
	if a.Summary != nil && a.Summary.LastResponse != nil {
		return a.Summary.LastResponse
	}
	if a.Record != nil {
		return a.Record.LastResponse
	}
	return nil
}

// ModelDiffers reports whether the last response came from another model
// than the one selected (a dated response id of the selected model, such as
// claude-sonnet-4-5-20250929 for claude-sonnet-4-5, is the same model).
func (a *Agent) ModelDiffers() bool {
	lr := a.LastResponse()
	if lr == nil {
		return false
	}
	sel := a.Selected().Model
	if lr.Model.Provider != "" && sel.Provider != "" && lr.Model.Provider != sel.Provider {
		return true
	}
	return lr.Model.ID != sel.ID && !strings.HasPrefix(lr.Model.ID, sel.ID+"-")
}

// ContextEstimate is an agent's context use against its model's window.
type ContextEstimate struct {
	Tokens float64
	// Window is the context window (0 when the catalog does not know the
	// model); Percent is Tokens / Window × 100 when both are known.
	Window  float64
	Percent float64
	Known   bool
	// Source is "telemetry" or "session".
	Source string
	Model  ModelRef
}

// Context estimates the agent's current context: the telemetry snapshot
// when present, else the input of its last successful request, against the
// context window the catalog gives for the model that answered (or the
// selected one).
func (a *Agent) Context(cat *catalog.Catalog) ContextEstimate {
	ce := ContextEstimate{Model: a.Selected().Model}
	if lr := a.LastResponse(); lr != nil {
		ce.Model = lr.Model
	}
	switch {
	case a.Telemetry != nil && a.Telemetry.Problem == "" && a.Telemetry.HasContext:
		ce.Tokens, ce.Known, ce.Source, ce.Window = a.Telemetry.Context, true, RuntimeFromTelemetry, a.Telemetry.Window
	case a.Summary != nil && a.Summary.ContextKnown:
		ce.Tokens, ce.Known, ce.Source = a.Summary.ContextTokens, true, RuntimeFromSession
	}
	if ce.Window == 0 && cat != nil {
		m, ok := cat.Lookup(ce.Model.Provider, ce.Model.ID)
		if !ok {
			m, ok = cat.Lookup(a.Selected().Model.Provider, a.Selected().Model.ID)
		}
		if ok {
			ce.Window = m.ContextWindow
		}
	}
	if ce.Known && ce.Window > 0 {
		ce.Percent = ce.Tokens / ce.Window * 100
	}
	return ce
}

// Task is the agent's current task: the latest task delivered in its
// session, else the newest task still waiting in its mailbox, else the
// message of the spawn_agent call that created it, else a 0.3.0 label.
func (a *Agent) Task() string {
	if a.Summary != nil && a.Summary.Task != "" {
		return a.Summary.Task
	}
	for i := len(a.Mailbox) - 1; i >= 0; i-- {
		if a.Mailbox[i].Kind == KindTask {
			return a.Mailbox[i].Text
		}
	}
	if a.SpawnTask != "" {
		return a.SpawnTask
	}
	return a.Label
}

// Created is the descriptor's creation time.
func (a *Agent) Created() (time.Time, bool) {
	ts, err := time.Parse(time.RFC3339Nano, a.Descriptor.CreatedAt)
	return ts, err == nil
}

// Totals sum agents, each once.
type Totals struct {
	Agents          int
	Requests        int
	ToolCalls       int
	NestedToolCalls int
	Tokens          stats.TokenTotals
	// Cost sums the known costs; CostComplete is false when some agent's
	// cost is unavailable (then Cost is a lower bound).
	Cost         float64
	CostComplete bool
	RuntimeMs    float64
}

// TotalsOf sums the given agents (the dashboard passes the visible ones,
// §25.10; the root's mirrored usage is never added).
func TotalsOf(agents []*Agent) Totals {
	t := Totals{CostComplete: true}
	for _, a := range agents {
		t.Agents++
		if ms, _, ok := a.Runtime(); ok {
			t.RuntimeMs += ms
		}
		cost, known := a.Cost()
		if known {
			t.Cost += cost
		} else if a.Summary == nil || a.Summary.UsageRecords > 0 {
			t.CostComplete = false
		}
		if a.Summary == nil {
			continue
		}
		st := &a.Summary.Stats
		t.Requests += st.AssistantMessages
		t.ToolCalls += st.ToolCalls
		t.NestedToolCalls += a.Summary.NestedToolCalls
		t.Tokens.Input += st.Tokens.Input
		t.Tokens.Output += st.Tokens.Output
		t.Tokens.CacheRead += st.Tokens.CacheRead
		t.Tokens.CacheWrite += st.Tokens.CacheWrite
		t.Tokens.Total += st.Tokens.Total
	}
	if math.IsNaN(t.RuntimeMs) {
		t.RuntimeMs = 0
	}
	t.Cost = stats.RoundSum(t.Cost) // a finished sum, as people write it
	return t
}

// VisibleAgents returns the visible agents, or all of them with all.
func (t *Tree) VisibleAgents(all bool) []*Agent {
	if all {
		return t.Agents
	}
	out := make([]*Agent, 0, len(t.Agents))
	for _, a := range t.Agents {
		if a.Visible {
			out = append(out, a)
		}
	}
	return out
}
