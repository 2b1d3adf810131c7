package forms

import (
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// viewChangesNothing draws f and reports whether its state is what it
// was before (View only reads; SetSize and Update lay it out).
func viewChangesNothing(f Form, width, height int) (string, bool) {
	before := uitest.DumpState(f)
	v := f.View(width, height)
	return v, uitest.DumpState(f) == before
}

// Every form, in every state the tests draw it in, is drawn by a View
// that changes nothing: sizedView checks it on each of its calls; this
// test shows the check can fail.
func TestDumpStateSeesAResize(t *testing.T) {
	f := NewRawJSON(testContext(t, `{"schemaVersion":2,"id":"a","items":[]}`))
	f.SetSize(80, 24)
	before := uitest.DumpState(f)
	f.SetSize(100, 30)
	if uitest.DumpState(f) == before {
		t.Fatal("a resize left the dump unchanged; the purity check would see nothing")
	}
}
