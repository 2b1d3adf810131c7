package uitest

import (
	"fmt"
	"testing"
)

// drawOnly runs AssertDrawOnly and returns the failure it reported (""
// when it passed).
func drawOnly(t *testing.T, state any, view func() string) (failure string) {
	tb := &fatalRecorder{TB: t}
	defer func() {
		if r := recover(); r != nil {
			failure = tb.msg
		}
	}()
	AssertDrawOnly(tb, state, view, "step")
	return ""
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
	drawn := 0 // outside the model: each draw differs from the last
	if got := drawOnly(t, &counter{}, func() string { drawn++; return fmt.Sprint(drawn) }); got == "" {
		t.Error("a View that drew two different screens passed")
	}
}
