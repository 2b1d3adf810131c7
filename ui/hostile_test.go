package ui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsregex"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/test/hostile"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/uitest"
)

// The whole program over the hostile corpus's trusted project (a cloned
// repository with a .pi/forge, the attack issue 9 describes): every tab,
// and the Presets panel walked through its lists and panes, draws no raw
// ESC/BEL/C1/bidi control beyond the program's own SGR styling.
func TestHostileCorpusEveryTab(t *testing.T) {
	savedMatch, savedWhole := jsregex.MatchTimeout, compile.RegexTimeLimit
	jsregex.MatchTimeout, compile.RegexTimeLimit = 50*time.Millisecond, 200*time.Millisecond
	defer func() { jsregex.MatchTimeout, compile.RegexTimeLimit = savedMatch, savedWhole }()
	st := hostile.Stage(t)
	m := New(Options{
		Workspace: resources.Workspace{Cwd: st.Cwd, AgentDir: st.AgentDir, ForgeDir: st.ForgeDir,
			Trust: resources.Trust{Trusted: true}},
		Theme: themes.Dark, Keys: keymap.DefaultSet(), Home: st.Dir,
	})
	h := uitest.ForModel(t, m)
	h.UseTimers(m.com) // polls and expiries wait in h.Timers: nothing sleeps
	done := make(chan struct{})
	go func() {
		h.Send(tea.WindowSizeMsg{Width: 160, Height: 48})
		h.Run(m.Init())
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("loading the hostile workspace did not finish")
	}
	shown := 0
	for tab := 1; tab <= 5; tab++ {
		h.Press(fmt.Sprint(tab))
		hostile.AssertCleanView(t, fmt.Sprintf("tab %d", tab), m.View().Content)
		// The focused thing whole (v), in every pane: the overlay shows
		// file text uncut, so it must be as clean as the panes.
		for pane := 0; pane < 4; pane++ {
			h.Press("v")
			if m.whole != nil {
				shown++
			}
			hostile.AssertCleanView(t, fmt.Sprintf("tab %d pane %d, view whole", tab, pane), m.View().Content)
			h.Press("esc", "tab")
		}
	}
	if shown < 5 {
		t.Fatalf("only %d overlays opened over the hostile corpus", shown)
	}
	h.Press("1")
	for pane := 0; pane < 4; pane++ {
		for row := 0; row < 8; row++ {
			h.Press("down")
			hostile.AssertCleanView(t, fmt.Sprintf("presets pane %d row %d", pane, row), m.View().Content)
		}
		h.Press("tab")
	}
}
