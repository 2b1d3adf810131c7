package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// hostilePreset carries escape sequences, a carriage return, a bell and a
// bidi override in its name, an item's id, name and content, a slot name
// and a profile: none of it may reach the terminal.
const hostilePreset = `{"schemaVersion":2,"id":"evil","name":"Evil \u001b[31mRED\u001b[0m \u001b]0;title\u0007",
 "items":[
  {"kind":"block","id":"b\u001b[2Jx","role":"system","name":"Blk \u001b[41mBG\u001b[0m","content":"line1 \u001b[31mred\u001b[0m\r\ncarriage\rover \u202eevil\u202c \u001b]52;c;aGk=\u0007"},
  {"kind":"slot","id":"s1","slot":"chat\u001b[2J-history"}
 ]}`

// leaks lists what must never appear in a view built from hostilePreset.
var leaks = []string{"\x1b]", "\x1b[2J", "\x1b[31m", "\x1b[41m", "\r", "\a", "\u202e", "\u202c"}

func writeHostile(t testing.TB, cwd string) {
	t.Helper()
	p := filepath.Join(cwd, ".pi", "forge", "prompt-stacks", "evil.json")
	if err := os.WriteFile(p, []byte(hostilePreset), 0o644); err != nil {
		t.Fatal(err)
	}
}

func assertNoLeak(t *testing.T, where, view string) {
	t.Helper()
	for _, bad := range leaks {
		if strings.Contains(view, bad) {
			t.Errorf("%s: the view contains %q:\n%s", where, bad, ansi.Strip(view))
		}
	}
}

func TestTextFromPresetFilesIsCleanedBeforeTheScreen(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		hs := newHarnessWith(t, size.w, size.h, writeHostile)
		hs.openByID("project:evil")
		view := hs.m.View()
		assertNoLeak(t, "block", view)
		if !strings.Contains(ansi.Strip(view), "line1 red") {
			t.Errorf("the block's text should still show, cleaned:\n%s", ansi.Strip(view))
		}
		hs.Press("down") // the slot
		assertNoLeak(t, "slot", hs.m.View())
		hs.m.focus = paneItems
		hs.Press("x")
		assertNoLeak(t, "delete dialog", hs.m.View())
		hs.Press("esc")
		for _, row := range []int{hs.m.d.Len(), hs.m.d.Len() + 5} { // parameters, bindings
			hs.m.focus = paneItems
			hs.m.items.SetCursor(row)
			hs.Press("enter")
			assertNoLeak(t, "form", hs.m.View())
		}
	}
}

func TestABlockWithControlCharactersIsEditedInTheExternalEditor(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, writeHostile)
	hs.openByID("project:evil")
	hs.m.focus = paneItems
	hs.Press("enter")
	if hs.m.editing {
		t.Fatal("the inline editor would show and then rewrite the block's control characters")
	}
	if got := statusText(hs); !strings.Contains(got, "$EDITOR") {
		t.Fatalf("the status should point to $EDITOR, got %q", got)
	}
	if hs.m.d.Dirty() {
		t.Fatal("refusing to edit must not change the draft")
	}
}

func TestTheStatusLineIsCleaned(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.m.setStatus("profile x: bad \x1b[31mname\x1b[0m\r", true)
	assertNoLeak(t, "status", hs.m.View())
}
