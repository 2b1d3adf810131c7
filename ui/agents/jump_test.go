package agents

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// A global search hit in an agent transcript is a jump to the root
// session, the agent's file and entry: the panel opens that transcript
// with the entry's header on screen. A jump is an event: a later
// selection (the Session panel moving) does not take the panel back.
func TestJumpOpensTheAgentTranscriptAtTheEntry(t *testing.T) {
	hs := newHarness(t, 160, 48)
	var agent, entry, file string
	for _, a := range hs.m.live.tree.Agents {
		s, err := session.Open(a.File)
		if err != nil || len(s.Entries) < 4 {
			continue
		}
		agent, file, entry = a.Path, a.File, s.Entries[2].ID // an early entry: not on the last screen
		break
	}
	if agent == "" {
		t.Fatal("the demo tree has no agent with a transcript")
	}
	sel := hs.com.Selection
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelAgents, SessionFile: sel.SessionFile,
		AgentPath: agent, AgentFile: file, AgentEntryID: entry}})
	if hs.m.screen != screenTranscript || hs.m.tr.path != agent {
		t.Fatalf("screen %v on %q, want the transcript of %s", hs.m.screen, hs.m.tr.path, agent)
	}
	if line := ansi.Strip(hs.m.tr.lines[hs.m.tr.offset]); !strings.Contains(line, entry) {
		t.Fatalf("the transcript starts at %q, want the header of %s", line, entry)
	}
	// The selection moving afterwards does not jump back.
	hs.Press("esc")
	sel.EntryID = "moved"
	hs.Send(common.SelectionChangedMsg{Selection: sel})
	if hs.m.screen == screenTranscript {
		t.Fatal("a jump is taken once")
	}
}
