package agents

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// A global search hit inside an agent's collapsed tool output: the
// transcript expands, scrolls to the matching line and marks the query.
func TestJumpRevealsMatchInCollapsedToolOutput(t *testing.T) {
	hs := newHarness(t, 160, 48)
	var agent, file string
	var s *session.Session
	for _, a := range hs.m.live.tree.Agents {
		got, err := session.Open(a.File)
		if err == nil && len(got.Entries) > 0 {
			agent, file, s = a.Path, a.File, got
			break
		}
	}
	if agent == "" {
		t.Fatal("the demo tree has no agent with a transcript")
	}
	// A tool result of 200 lines, line 150 holding the needle, appended
	// to the agent's file (a copy in the test's temp dir).
	var out []string
	for i := 1; i <= 200; i++ {
		line := fmt.Sprintf("output line %d", i)
		if i == 150 {
			line += " the zebracorn is here"
		}
		out = append(out, line)
	}
	text, _ := json.Marshal(strings.Join(out, "\n"))
	parent := s.Entries[len(s.Entries)-1].ID
	entry := `{"type":"message","id":"zz000150","parentId":"` + parent + `","timestamp":"2026-11-28T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":` + string(text) + `}],"isError":false,"timestamp":1795860003000}}` + "\n"
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(entry); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelAgents, SessionFile: hs.com.Selection.SessionFile,
		AgentPath: agent, AgentFile: file, AgentEntryID: "zz000150", SearchQuery: "zebracorn"}})
	if hs.m.screen != screenTranscript || hs.m.tr.path != agent {
		t.Fatalf("screen %v on %q, want the transcript of %s", hs.m.screen, hs.m.tr.path, agent)
	}
	view := hs.m.View()
	if !strings.Contains(ansi.Strip(view), "output line 150 the zebracorn") {
		t.Fatalf("the transcript does not show line 150 of the tool output:\n%s", ansi.Strip(view))
	}
	if !strings.Contains(view, hs.com.Styles.List.Match.Render("zebracorn")) {
		t.Fatal("line 150 is shown but the query is not marked")
	}
}
