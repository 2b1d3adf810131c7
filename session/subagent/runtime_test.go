package subagent

import (
	"testing"
	"time"
)

// TestRuntimeAtCountsTheCurrentRun: the detail pane's run time runs on
// while an agent is running, from its runId's UUIDv7 time (or its last
// recorded run), and is the recorded run time otherwise.
func TestRuntimeAtCountsTheCurrentRun(t *testing.T) {
	base := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	ms := func(d time.Duration) float64 { return float64(base.Add(d).UnixMilli()) }
	runID := func(at time.Time) string { return fmtUUIDv7(at.UnixMilli()) }
	summary := &FileSummary{Runs: []Interval{
		{Start: ms(0), End: ms(10 * time.Second)},                                     // an earlier task: 10 s
		{Start: ms(60*time.Second + 300*time.Millisecond), End: ms(65 * time.Second)}, // this run so far
	}}
	now := base.Add(90 * time.Second)
	cases := []struct {
		name   string
		agent  Agent
		want   float64
		source string
	}{
		{"running with a runId: 10 s + (90 s − 60 s)", Agent{Status: StatusRunning, RunID: runID(base.Add(60 * time.Second)), Summary: summary}, 40000, RuntimeFromSession},
		{"running without a runId: the last run runs to now", Agent{Status: StatusRunning, Summary: summary}, 10000 + 29700, RuntimeFromSession},
		{"running, run not recorded yet", Agent{Status: StatusRunning, RunID: runID(base.Add(80 * time.Second)), Summary: summary}, 10000 + 4700 + 10000, RuntimeFromSession},
		{"completed: the recorded sum", Agent{Status: StatusCompleted, RunID: runID(base.Add(60 * time.Second)), Summary: summary}, 14700, RuntimeFromSession},
		{"a runId in the future counts nothing live", Agent{Status: StatusRunning, RunID: runID(base.Add(time.Hour)), Summary: summary}, 14700, RuntimeFromSession},
		{"telemetry with an open interval", Agent{Status: StatusRunning, Summary: summary,
			Telemetry: &Telemetry{Runs: []Interval{{Start: ms(0), End: ms(5 * time.Second)}}, OpenRuns: 1, OpenStart: ms(70 * time.Second)}}, 5000 + 20000, RuntimeFromTelemetry},
	}
	for _, c := range cases {
		got, src, ok := c.agent.RuntimeAt(now)
		if !ok || got != c.want || src != c.source {
			t.Errorf("%s: %v %q %v, want %v %q", c.name, got, src, ok, c.want, c.source)
		}
	}
	if _, _, ok := (&Agent{Status: StatusRunning}).RuntimeAt(now); ok {
		t.Error("an agent without a session has a run time")
	}
	for _, bad := range []string{"", "run-a", "01a2219b-bd13-49b5-a1d6-433f90ab7fef", "zzzzzzzz-zzzz-7zzz-a1d6-433f90ab7fef"} {
		if _, ok := uuidV7Ms(bad); ok {
			t.Errorf("uuidV7Ms(%q) accepted", bad)
		}
	}
	if got, ok := uuidV7Ms("01a2297f-5f18-758f-9050-afdd08720248"); !ok || got != 0x01a2297f5f18 {
		t.Errorf("uuidV7Ms of the fixture's runId: %v %v", got, ok)
	}
}

// fmtUUIDv7 builds a UUIDv7 with the given millisecond time.
func fmtUUIDv7(ms int64) string {
	const hexDigits = "0123456789abcdef"
	b := make([]byte, 12)
	for i := 11; i >= 0; i-- {
		b[i] = hexDigits[ms&0xf]
		ms >>= 4
	}
	return string(b[:8]) + "-" + string(b[8:]) + "-7000-8000-000000000000"
}
