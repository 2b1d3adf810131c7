package uitest

import (
	"fmt"
	"runtime"
	"testing"
)

// fatalTB records a Fatalf and ends its goroutine, as testing does.
type fatalTB struct {
	testing.TB
	failed string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// drawOnly runs AssertDrawOnly on its own goroutine and returns the
// failure it reported ("" when it passed).
func drawOnly(t *testing.T, state any, view func() string) string {
	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		AssertDrawOnly(tb, state, view, "step")
	}()
	<-done
	return tb.failed
}

type counter struct{ Frames int }

// A View that counts its frames changes the model, and one whose output
// depends on that count draws two different screens: both fail; a View
// that only reads passes.
func TestAssertDrawOnlyFailsAViewThatChangesState(t *testing.T) {
	c := &counter{}
	if got := drawOnly(t, c, func() string { c.Frames++; return "same" }); got == "" {
		t.Error("a View that changed the model passed")
	}
	c2 := &counter{}
	if got := drawOnly(t, c2, func() string { return fmt.Sprint(c2.Frames) }); got != "" {
		t.Errorf("a View that only reads failed: %s", got)
	}
}
