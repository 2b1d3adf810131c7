package capabilities

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestUnreadableHistoryIsShownNotActedOn: an invalid capability event on
// the branch is reported with its entry in the session view (pi-forge's
// message), no snapshot card is drawn from the rest, and enabling from the
// library writes nothing.
func TestUnreadableHistoryIsShownNotActedOn(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	file := hs.mainSession()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var leaf struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &leaf); err != nil {
		t.Fatal(err)
	}
	bad := `{"type":"custom","customType":"pi-forge-capability-event","data":{"schemaVersion":1,"eventId":"not an id!","op":"reset","actor":"user","createdAt":1},"id":"badbad01","parentId":"` + leaf.ID + `","timestamp":"2026-11-27T10:00:00.000Z"}` + "\n"
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(bad); err != nil {
		t.Fatal(err)
	}
	f.Close()
	size := fileSize(t, file)
	hs.Run(hs.m.reopenSession())
	hs.follow(file, "")
	view := ansi.Strip(hs.m.View())
	if !strings.Contains(view, "Invalid Forge capability history: Invalid eventId (entry badbad01)") {
		t.Fatalf("the session view does not report the broken history:\n%s", view)
	}
	if strings.Contains(view, "active ──") {
		t.Fatalf("snapshot cards drawn from an unreadable history:\n%s", view)
	}
	hs.selectCapability("project:review-mode")
	hs.Press("+")
	if d := hs.preview(); d != nil && d.preview.canWrite() {
		hs.Press("y")
	}
	if fileSize(t, file) != size {
		t.Fatal("an action wrote to a session whose capability history is unreadable")
	}
}
