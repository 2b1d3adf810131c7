package capabilities

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// The panel's modals are on the kit's dialog stack: its dismiss key pops
// whichever is on top. Leaving an action's preview that way writes
// nothing and says so, as its cancel key does; the footer is the top
// dialog's keys.
func TestDismissLeavesThePreviewWritingNothing(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	file := hs.mainSession()
	size := fileSize(t, file)
	hs.selectCapability("project:review-mode")
	hs.Press("+")
	if hs.preview() == nil {
		t.Fatal("+ opens the preview")
	}
	if got := helpKeys(hs.m.ShortHelp()); got != "y n/esc" {
		t.Fatalf("the footer under the preview is %q, want its confirm and cancel keys", got)
	}
	hs.Press("esc")
	if hs.dialogOpen() || fileSize(t, file) != size {
		t.Fatal("esc must close the preview and write nothing")
	}
	if hs.m.status != "cancelled: nothing was written" {
		t.Fatalf("status after esc: %q", hs.m.status)
	}
}

// A user's binding of capabilities.dismiss reaches the stack (SetKeys),
// so the rebound key closes a prompt.
func TestReboundDismissClosesADialog(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	k := hs.m.keys
	k.Dismiss = key.NewBinding(key.WithKeys("ctrl+q"), key.WithHelp("ctrl+q", "cancel"))
	hs.m.SetKeys(k)
	hs.Press("a")
	if hs.prompt() == nil || !hs.m.CapturesInput() {
		t.Fatal("a opens the new-capability prompt, which takes the keys")
	}
	hs.Press("ctrl+q")
	if hs.dialogOpen() {
		t.Fatal("the rebound dismiss key must close the prompt")
	}
}

func helpKeys(bs []key.Binding) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Help().Key)
	}
	return strings.Join(out, " ")
}
