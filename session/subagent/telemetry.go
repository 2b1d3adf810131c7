package subagent

import (
	"math"
	"os"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// TelemetrySuffix names a session's telemetry sidecar (README, §25.9).
const TelemetrySuffix = ".telemetry.json"

// maxTelemetryBytes bounds what is read of a sidecar.
const maxTelemetryBytes = 16 << 20

// Telemetry is what a sidecar revealed. Its schema is not published, so it
// is read as arbitrary JSON (§25.9): objects holding a start and an end
// time are run intervals, a number under a runtime-like key is a total, and
// an object under a context-like key holding "tokens" is a context
// snapshot. A corrupt sidecar only sets Problem.
type Telemetry struct {
	File string
	// Runs are the complete intervals found; OpenRuns counts intervals
	// with a start and no end (incomplete, e.g. a crash).
	Runs     []Interval
	OpenRuns int
	// OpenStart is the latest start of an open interval (a run still
	// going, or one a crash left open).
	OpenStart float64
	// TotalMs is a runtime total given directly (used when Runs is empty).
	TotalMs    float64
	HasTotal   bool
	Context    float64
	Window     float64
	HasContext bool
	Problem    string
}

// RuntimeMs is the run time the sidecar gives and whether it gives one.
func (t *Telemetry) RuntimeMs() (float64, bool) {
	if t == nil || t.Problem != "" {
		return 0, false
	}
	if len(t.Runs) > 0 {
		total := 0.0
		for _, r := range t.Runs {
			total += r.Duration()
		}
		return total, true
	}
	return t.TotalMs, t.HasTotal
}

var (
	startKeys   = []string{"start", "startedAt", "startTime", "startMs", "started", "begin", "beganAt"}
	endKeys     = []string{"end", "endedAt", "endTime", "endMs", "ended", "finishedAt", "settledAt"}
	runtimeKeys = map[string]bool{"runtimeMs": true, "runTimeMs": true, "totalRuntimeMs": true, "runtime_ms": true, "elapsedMs": true}
	windowKeys  = []string{"contextWindow", "window", "limit", "max"}
)

// readTelemetry reads the sidecar of sessionFile (nil when there is none).
func readTelemetry(sessionFile string) *Telemetry {
	path := sessionFile + TelemetrySuffix
	data, err := readLimited(path, maxTelemetryBytes)
	if os.IsNotExist(err) {
		return nil
	}
	t := &Telemetry{File: path}
	if err != nil {
		t.Problem = err.Error()
		return t
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Problem = "not valid JSON: " + err.Error()
		return t
	}
	if _, ok := v.(*jsonv.Object); !ok {
		t.Problem = "not a JSON object"
		return t
	}
	budget := 100000 // values visited at most
	t.walk(v, "", 0, &budget)
	return t
}

func (t *Telemetry) walk(v any, key string, depth int, budget *int) {
	*budget--
	if *budget < 0 || depth > 32 {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, it := range x {
			t.walk(it, key, depth+1, budget)
		}
	case *jsonv.Object:
		if start, ok := firstTime(x, startKeys); ok {
			if end, ok := firstTime(x, endKeys); ok && end >= start {
				t.Runs = append(t.Runs, Interval{Start: start, End: end})
			} else if !ok {
				t.OpenRuns++
				t.OpenStart = max(t.OpenStart, start)
			}
		}
		if strings.HasPrefix(strings.ToLower(key), "context") {
			if tokens, ok := getNum(x, "tokens"); ok && !math.IsNaN(tokens) {
				t.Context, t.HasContext = tokens, true
				t.Window = 0
				for _, k := range windowKeys {
					if w, ok := getNum(x, k); ok && w > 0 {
						t.Window = w
						break
					}
				}
			}
		}
		x.Range(func(k string, child any) bool {
			if f, ok := child.(float64); ok && runtimeKeys[k] && f >= 0 && !t.HasTotal {
				t.TotalMs, t.HasTotal = f, true
			}
			t.walk(child, k, depth+1, budget)
			return true
		})
	}
}

// firstTime reads the first of keys holding a time: milliseconds since the
// epoch, or an ISO-8601 string.
func firstTime(o *jsonv.Object, keys []string) (float64, bool) {
	for _, k := range keys {
		v, ok := o.Get(k)
		if !ok {
			continue
		}
		switch x := v.(type) {
		case float64:
			if x > 0 && !math.IsInf(x, 0) {
				return x, true
			}
		case string:
			if ts, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return float64(ts.UnixMilli()), true
			}
		}
	}
	return 0, false
}
