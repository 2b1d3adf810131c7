package jsregex

import (
	"errors"
	"time"
)

// Limiter bounds the matches of one piece of work (a compile's regex
// budget). A nil Limiter leaves each match to MatchTimeout alone.
type Limiter interface {
	// MatchTimeout is the timeout of the next match; ok is false when no
	// time is left or the work was cancelled, and the match is not run.
	MatchTimeout() (timeout time.Duration, ok bool)
}

// TimeoutError reports a match stopped by its timeout. Its text does not
// quote the input (regexp2's own error embeds the whole text matched, which
// can be a session's history).
type TimeoutError struct {
	After time.Duration
}

// Error says how long the match ran.
func (e *TimeoutError) Error() string {
	return "match timed out after " + e.After.Round(time.Millisecond).String()
}

// ErrBudgetSpent stops a match that would start after its Limiter's time
// ran out or its work was cancelled.
var ErrBudgetSpent = errors.New("regex time limit reached")
