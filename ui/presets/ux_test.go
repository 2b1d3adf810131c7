package presets

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// statusText is the panel's last row without styling or padding.
func statusText(hs *harness) string {
	view := hs.m.View()
	rows := strings.Split(view, "\n")
	return strings.TrimSpace(ansi.Strip(rows[len(rows)-1]))
}

func TestAStatusMessageGivesWayToTheNextKey(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.press("space", "u")
	if got := statusText(hs); !strings.HasPrefix(got, "undid ") {
		t.Fatalf("after u the status says what was undone, got %q", got)
	}
	hs.press("space")
	got := statusText(hs)
	if strings.Contains(got, "undid") {
		t.Fatalf("a later edit still shows the old undo message: %q", got)
	}
	if !strings.Contains(got, "unsaved changes") {
		t.Fatalf("the status should fall back to the draft state, got %q", got)
	}
}

func TestItemCountsAgreeWithTheirNumber(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 errors"}, {1, "1 error"}, {2, "2 errors"}} {
		if got := countOf(c.n, "error"); got != c.want {
			t.Errorf("countOf(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:beta")
	view := ansi.Strip(hs.m.View())
	if strings.Contains(view, "1 errors") || strings.Contains(view, "0 warnings") {
		t.Errorf("the items pane reports counts ungrammatically or a zero count:\n%s", view)
	}
}
