package capabilities

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/uitest"
)

// sessionPane is the session pane's text, its lines joined and trimmed.
func sessionPane(hs *harness) string {
	hs.focusOn(paneSession)
	var out []string
	for _, l := range strings.Split(ansi.Strip(hs.m.View()), "\n") {
		out = append(out, strings.TrimSpace(strings.Trim(l, "┃│ ")))
	}
	return strings.Join(out, "\n")
}

// TestSessionViewListsWhatTheAgentMayEnable: panel 2 says what the agent
// may enable through forge_capability at the followed entry — what
// capability status --json lists as modelCallable (the Runtime's
// ModelCallable): at the demo leaf the active guarded-worker binds
// write-access model-callable; before any Preset, and in an untrusted
// project, nothing.
func TestSessionViewListsWhatTheAgentMayEnable(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	if got := fmt.Sprint(hs.m.view.callable); got != "[{write-access project:write-access Write access}]" {
		t.Fatalf("callable at the leaf: %s", got)
	}
	want := st(hs.m.view.state.Runtime.ModelCallable())
	if got := st(hs.m.view.callable); got != want {
		t.Errorf("the panel lists %s, the Runtime %s", got, want)
	}
	pane := sessionPane(hs)
	if !strings.Contains(pane, "agent may   enable through forge_capability:\nwrite-access → project:write-access (Write access)") {
		t.Errorf("the session pane does not list the model-callable binding:\n%s", pane)
	}
	s, err := session.Open(hs.mainSession())
	if err != nil {
		t.Fatal(err)
	}
	hs.follow(hs.mainSession(), s.Entries[3].ID) // before the Preset's selection
	if pane := sessionPane(hs); len(hs.m.view.callable) != 0 || !strings.Contains(pane, "agent may   enable nothing through forge_capability") {
		t.Errorf("before any Preset: %v\n%s", hs.m.view.callable, pane)
	}
	untrusted := newHarness(t, 160, 48, false)
	if pane := sessionPane(untrusted); len(untrusted.m.view.callable) != 0 || !strings.Contains(pane, "enable nothing through forge_capability") {
		t.Errorf("untrusted: %v\n%s", untrusted.m.view.callable, pane)
	}
}

func st(v any) string { return fmt.Sprintf("%+v", v) }

// TestGoldenNothingCallable: the session view of an untrusted project,
// where the agent may enable nothing (pi-forge's list action needs
// trust) and the state's problem says why capabilities do not apply.
func TestGoldenNothingCallable(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		name := fmt.Sprintf("session_untrusted_%dx%d", size.w, size.h)
		t.Run(name, func(t *testing.T) {
			hs := newHarness(t, size.w, size.h, false)
			hs.focusOn(paneSession)
			view := hs.m.View()
			uitest.AssertFills(t, view, size.w, size.h)
			uitest.Golden(t, name, view)
		})
	}
}
