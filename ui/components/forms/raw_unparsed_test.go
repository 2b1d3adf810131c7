package forms

import (
	"strings"
	"testing"
)

// Text that does not parse is reported to the panel (which refuses to save
// while it is typed); esc drops it, and the view then shows the draft with
// no stale error.
func TestRawJSONUnparsedTextAndEsc(t *testing.T) {
	ctx := testContext(t, propsDraft)
	d := drive(t, NewRawJSON(ctx))
	if Unparsed(d.Model) != "" {
		t.Fatal("a form that is not being typed in reports a problem")
	}
	d.press("enter", "ctrl+end", "backspace")
	if p := Unparsed(d.Model); !strings.Contains(p, "invalid JSON at line") {
		t.Fatalf("Unparsed = %q", p)
	}
	d.press("esc")
	v := sizedView(d.Model, 160, 48)
	if Unparsed(d.Model) != "" || strings.Contains(v, "invalid JSON") || !strings.Contains(v, "✓ valid JSON") {
		t.Fatalf("esc left the dropped text's error:\n%s", v)
	}
	if got := d.Model.(*rawForm).Text(); !strings.HasSuffix(strings.TrimSpace(got), "}") {
		t.Fatalf("esc did not go back to the draft's text: %q", got)
	}
	if Unparsed(NewSlotOptions(testContext(t, slotDraft), 1)) != "" {
		t.Fatal("another form reports a problem")
	}
}
