// Package timing is the one switch for wall-clock assertions in tests
// (issue 8's rule: timing budgets are benchmarks or env-gated). A busy or
// instrumented run (-race, a shared CI machine, several test binaries on
// two cores) makes a wall-clock bound fail for reasons that are not the
// code's, so the default `go test` run checks behaviour only and a budget
// is enforced with FORGEBENCH_TIMING=1.
package timing

import (
	"os"
	"testing"
	"time"
)

// Env is the environment variable that turns wall-clock budgets on.
const Env = "FORGEBENCH_TIMING"

// Enabled reports whether FORGEBENCH_TIMING=1.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Require skips a test that is only a wall-clock budget unless budgets are
// on.
func Require(tb testing.TB) {
	tb.Helper()
	if !Enabled() {
		tb.Skipf("wall-clock budget test: run with %s=1 (the benchmarks measure the same without a budget)", Env)
	}
}

// Budget fails tb when took exceeds limit and budgets are on; otherwise it
// only logs the time, so a test whose behaviour is checked either way
// keeps running on a loaded machine.
func Budget(tb testing.TB, what string, took, limit time.Duration) {
	tb.Helper()
	switch {
	case took <= limit:
	case Enabled():
		tb.Errorf("%s took %v, budget %v", what, took, limit)
	default:
		tb.Logf("%s took %v, over its %v budget (checked with %s=1)", what, took, limit, Env)
	}
}
