package timing

import (
	"testing"
	"time"
)

// recorder is a testing.TB that remembers whether it failed or skipped.
type recorder struct {
	testing.TB
	failed, skipped, logged bool
}

func (r *recorder) Helper()                    {}
func (r *recorder) Errorf(string, ...any)      { r.failed = true }
func (r *recorder) Logf(string, ...any)        { r.logged = true }
func (r *recorder) Skipf(string, ...any)       { r.skipped = true }
func (r *recorder) result() (bool, bool, bool) { return r.failed, r.skipped, r.logged }

func TestBudgetFailsOnlyWhenEnabled(t *testing.T) {
	t.Setenv(Env, "")
	r := &recorder{TB: t}
	Budget(r, "work", 2*time.Second, time.Second)
	Require(r)
	if failed, skipped, logged := r.result(); failed || !skipped || !logged {
		t.Fatalf("budgets off: failed %v skipped %v logged %v; want a log and a skip, no failure", failed, skipped, logged)
	}
	t.Setenv(Env, "1")
	r = &recorder{TB: t}
	Budget(r, "work", time.Millisecond, time.Second)
	Require(r)
	if failed, skipped, _ := r.result(); failed || skipped {
		t.Fatal("budgets on: a time within its budget passes and Require runs the test")
	}
	Budget(r, "work", 2*time.Second, time.Second)
	if !r.failed {
		t.Fatal("budgets on: a time over its budget fails")
	}
}
