package uitest

import "testing"

// AssertDrawOnly draws a panel twice through view and fails when drawing
// changed state (DumpState before and after, the first difference shown)
// or when the two drawings differ: a View only draws (issue 22). step
// names the state in the failure.
func AssertDrawOnly(tb testing.TB, state any, view func() string, step string) {
	tb.Helper()
	before := DumpState(state)
	first := view()
	if after := DumpState(state); after != before {
		tb.Fatalf("%s: View changed the model:\n%s", step, FirstDifference(before, after))
	}
	if view() != first {
		tb.Fatalf("%s: two Views drew different screens", step)
	}
}

// FirstDifference shows where two long texts (state dumps) part: up to
// 300 bytes before the first differing byte and 200 after, of each.
func FirstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-300)
	return "before: …" + a[from:min(len(a), i+200)] + "\nafter:  …" + b[from:min(len(b), i+200)]
}
