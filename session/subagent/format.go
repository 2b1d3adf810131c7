package subagent

import (
	"fmt"
	"math"
	"time"
)

// FormatTokens renders a token count the way pi-subagent 0.3.0 did: raw
// below 1000, one decimal "k" below 10k, rounded "k" below 1M, else "M"
// with one decimal (§24).
func FormatTokens(n float64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", int(math.Max(n, 0)))
	case n < 10000:
		return fmt.Sprintf("%.1fk", n/1000)
	case n < 1000000:
		return fmt.Sprintf("%dk", int(math.Round(n/1000)))
	default:
		return fmt.Sprintf("%.1fM", n/1000000)
	}
}

// FormatDuration renders milliseconds as 1h02m, 3m05s or 4.2s.
func FormatDuration(ms float64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
}

// CostText is the agent's cost as "$0.0153", or "n/a" when unavailable.
func (a *Agent) CostText() string {
	if c, ok := a.Cost(); ok {
		return fmt.Sprintf("$%.4f", c)
	}
	return "n/a"
}

// RuntimeText is the agent's run time, or "unknown".
func (a *Agent) RuntimeText() string {
	ms, _, ok := a.Runtime()
	if !ok {
		return "unknown"
	}
	return FormatDuration(ms)
}

// CountsText is "requests/tool calls" with "+nested" when there are
// nested calls ("—" without a session).
func (a *Agent) CountsText() string {
	if a.Summary == nil {
		return "—"
	}
	s := fmt.Sprintf("%d/%d", a.Summary.Stats.AssistantMessages, a.Summary.Stats.ToolCalls)
	if n := a.Summary.NestedToolCalls; n > 0 {
		s += fmt.Sprintf("+%d", n)
	}
	return s
}

// TokensText is "input/output/cache" tokens ("—" without a session).
func (a *Agent) TokensText() string {
	if a.Summary == nil {
		return "—"
	}
	t := a.Summary.Stats.Tokens
	return FormatTokens(t.Input) + "/" + FormatTokens(t.Output) + "/" + FormatTokens(t.CacheRead+t.CacheWrite)
}

// CreatedClock is the creation time as HH:mm:ss in loc (README: no
// relative age), "--:--:--" when unknown.
func (a *Agent) CreatedClock(loc *time.Location) string {
	if ts, ok := a.Created(); ok {
		return ts.In(loc).Format("15:04:05")
	}
	return "--:--:--"
}
