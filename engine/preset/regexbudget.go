package preset

import (
	"errors"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/jsregex"
)

// RegexBudget bounds the regex work of one whole compile. Each match gets
// at most jsregex.MatchTimeout and never runs past the budget's deadline; once
// the deadline has passed, or done is closed (a stale preview), the rules
// that remain are not run. The budget records which rules timed out and
// which were not run, for one diagnostic that names them. A budget belongs
// to one compile and is not safe for concurrent use.
type RegexBudget struct {
	limit    time.Duration
	deadline time.Time
	done     <-chan struct{}
	timedOut []string
	skipped  []string
}

// NewRegexBudget starts a budget of limit (no deadline when limit <= 0);
// done, when non-nil, cancels the rest of the regex work once closed.
func NewRegexBudget(limit time.Duration, done <-chan struct{}) *RegexBudget {
	b := &RegexBudget{limit: limit, done: done}
	if limit > 0 {
		b.deadline = time.Now().Add(limit)
	}
	return b
}

// Limit is the budget's whole-compile limit.
func (b *RegexBudget) Limit() time.Duration { return b.limit }

// Cancelled reports whether done has been closed.
func (b *RegexBudget) Cancelled() bool {
	if b == nil || b.done == nil {
		return false
	}
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// MatchTimeout is the timeout of the next match: jsregex.MatchTimeout, cut
// to the time left. ok is false when no time is left or the work was
// cancelled. It makes a budget the jsregex.Limiter of its matches.
func (b *RegexBudget) MatchTimeout() (time.Duration, bool) {
	t := jsregex.MatchTimeout
	if b == nil {
		return t, true
	}
	if b.Cancelled() {
		return 0, false
	}
	if !b.deadline.IsZero() {
		left := time.Until(b.deadline)
		if left <= 0 {
			return 0, false
		}
		if t <= 0 || left < t {
			t = left
		}
	}
	return t, true
}

// record notes how a rule's run ended: a timeout or a rule not run because
// the budget was spent. Each rule id is listed once per report.
func (b *RegexBudget) record(id string, err error) {
	if b == nil {
		return
	}
	var timeout *jsregex.TimeoutError
	switch {
	case errors.As(err, &timeout):
		b.timedOut = appendOnce(b.timedOut, id)
	case errors.Is(err, jsregex.ErrBudgetSpent):
		b.skipped = appendOnce(b.skipped, id)
	}
}

func appendOnce(list []string, id string) []string {
	for _, x := range list {
		if x == id {
			return list
		}
	}
	return append(list, id)
}

// TakeReport returns the diagnostic for the rules stopped since the last
// report (and forgets them), or ok false when none were. The message names
// the rules that timed out and the rules that were not run.
func (b *RegexBudget) TakeReport() (Diagnostic, bool) {
	if b == nil || len(b.timedOut)+len(b.skipped) == 0 {
		return Diagnostic{}, false
	}
	var msg strings.Builder
	if b.Cancelled() {
		msg.WriteString("Regex rules stopped: the compile was cancelled")
	} else {
		msg.WriteString("Regex rules stopped by the time limits (" + jsregex.MatchTimeout.String() + " per match, " +
			b.limit.String() + " per compile)")
	}
	if len(b.timedOut) > 0 {
		msg.WriteString("; timed out: " + strings.Join(b.timedOut, ", "))
	}
	if len(b.skipped) > 0 {
		msg.WriteString("; not run: " + strings.Join(b.skipped, ", "))
	}
	msg.WriteString(". Their changes are not applied.")
	b.timedOut, b.skipped = nil, nil
	return Diagnostic{Level: LevelError, Message: msg.String()}, true
}
