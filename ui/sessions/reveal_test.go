package sessions

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
)

// revealNeedle is on line 150 of a 200-line tool result: far below what
// the collapsed detail shows (transcript.OutputCap lines).
const revealNeedle = "zebracorn"

// writeLongToolSession adds a session to the test workspace whose tool
// result e03 has 200 lines, line 150 holding the needle; e04 follows.
func writeLongToolSession(t *testing.T, hs *harness) string {
	t.Helper()
	var out []string
	for i := 1; i <= 200; i++ {
		line := fmt.Sprintf("output line %d", i)
		if i == 150 {
			line += " the " + revealNeedle + " is here"
		}
		out = append(out, line)
	}
	text, _ := json.Marshal(strings.Join(out, "\n"))
	lines := []string{
		`{"type":"session","version":3,"id":"01a2f000-0000-7000-8000-000000000009","timestamp":"2026-11-28T10:00:00.000Z","cwd":"` + testCwd + `"}`,
		`{"type":"message","id":"e01","parentId":null,"timestamp":"2026-11-28T10:00:01.000Z","message":{"role":"user","content":"list the files","timestamp":1795860001000}}`,
		`{"type":"message","id":"e02","parentId":"e01","timestamp":"2026-11-28T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"provider":"anthropic","model":"m","stopReason":"toolUse","timestamp":1795860002000}}`,
		`{"type":"message","id":"e03","parentId":"e02","timestamp":"2026-11-28T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":` + string(text) + `}],"isError":false,"timestamp":1795860003000}}`,
		`{"type":"message","id":"e04","parentId":"e03","timestamp":"2026-11-28T10:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"provider":"anthropic","model":"m","stopReason":"stop","timestamp":1795860004000}}`,
	}
	p := filepath.Join(hs.com.Workspace.AgentDir, "sessions", session.EncodeCwd(testCwd), "2026-11-28T10-00-00-000Z_01a2f000-0000-7000-8000-000000000009.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// detailShowsMarked fails unless the detail pane shows the needle's line
// with the needle marked in the match style.
func detailShowsMarked(t *testing.T, hs *harness) {
	t.Helper()
	view := hs.view()
	if !strings.Contains(ansi.Strip(view), "output line 150 the "+revealNeedle) {
		t.Fatalf("the detail does not show line 150 of the tool output:\n%s", ansi.Strip(view))
	}
	if mark := hs.com.Styles.List.Match.Render(revealNeedle); !strings.Contains(view, mark) {
		t.Fatalf("line 150 is shown but %q is not marked", revealNeedle)
	}
}

// A global search hit inside collapsed tool output lands on the line:
// the entry expands, the detail scrolls to the match and marks it.
func TestSearchJumpRevealsMatchInCollapsedToolOutput(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	file := writeLongToolSession(t, hs)
	hs.jump(file, "e03", revealNeedle)
	if hs.m.ls == nil || hs.m.ls.file != file {
		t.Fatal("the jump did not open the session")
	}
	detailShowsMarked(t, hs)
	// The landing is taken once: moving on ends the marks and reveals
	// nothing more.
	hs.Press("down")
	if strings.Contains(hs.view(), hs.com.Styles.List.Match.Render(revealNeedle)) {
		t.Fatal("the hit's marks outlive the entry")
	}
}

// The same jump without a query (another panel's jump) keeps the entry
// collapsed at the top: only search hits reveal.
func TestPlainJumpKeepsToolOutputCollapsed(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	file := writeLongToolSession(t, hs)
	hs.jump(file, "e03", "")
	if v := ansi.Strip(hs.view()); strings.Contains(v, revealNeedle) || !strings.Contains(v, "190 lines hidden") {
		t.Fatalf("a plain jump expanded the tool output:\n%s", v)
	}
}

// The Session panel's `/` search moving to an entry reveals the match
// there too.
func TestSessionSearchRevealsMatchInCollapsedToolOutput(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	file := writeLongToolSession(t, hs)
	hs.jump(file, "e01", "")
	hs.focusOn(paneTimeline)
	hs.Press("/")
	hs.Type(revealNeedle)
	hs.Press("enter")
	if cur := hs.m.currentEntry(); cur != hs.entryIndex("e03") {
		t.Fatalf("the search moved to entry %d, want e03", cur)
	}
	detailShowsMarked(t, hs)
}
