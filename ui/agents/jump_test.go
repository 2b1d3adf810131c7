package agents

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// A global search hit in an agent transcript selects the root session and
// names the agent's file and entry: the panel opens that transcript with
// the entry's header on screen, once.
func TestJumpOpensTheAgentTranscriptAtTheEntry(t *testing.T) {
	hs := newHarness(t, 160, 48)
	var agent, entry, file string
	for _, a := range hs.m.tree.Agents {
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
	sel.AgentPath, sel.AgentFile, sel.AgentEntryID = agent, file, entry
	hs.Send(common.SelectionChangedMsg{Selection: sel})
	if hs.m.screen != screenTranscript || hs.m.tr.path != agent {
		t.Fatalf("screen %v on %q, want the transcript of %s", hs.m.screen, hs.m.tr.path, agent)
	}
	if line := ansi.Strip(hs.m.tr.lines[hs.m.tr.offset]); !strings.Contains(line, entry) {
		t.Fatalf("the transcript starts at %q, want the header of %s", line, entry)
	}
	// The same selection again (another panel echoing it) does not jump back.
	hs.Press("esc")
	hs.Send(common.SelectionChangedMsg{Selection: sel})
	if hs.m.screen == screenTranscript {
		t.Fatal("a jump is taken once")
	}
}
