package main

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui"
)

// TuiCmd opens the full-screen workbench.
type TuiCmd struct{}

// Run starts the bubbletea program on the resolved workspace.
func (c *TuiCmd) Run(g *Globals) error {
	ws, err := g.workspace()
	if err != nil {
		return err
	}
	home, _ := os.UserHomeDir() // only shortens the header's cwd
	model := ui.New(ui.Options{
		Workspace: ws,
		Theme:     g.themeMode(),
		NoColor:   themes.NoColorRequested(os.Getenv),
		Keys:      keymap.DefaultSet(),
		Home:      home,
	})
	if _, err := tea.NewProgram(model).Run(); err != nil {
		return fmt.Errorf("run the workbench: %w", err)
	}
	return nil
}
