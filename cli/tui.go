package cli

import (
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/config"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui"
)

// TuiCmd opens the full-screen workbench.
type TuiCmd struct{}

// Run starts the bubbletea program on the resolved workspace.
func (c *TuiCmd) Run(g *Globals) error {
	home, _ := os.UserHomeDir() // finds the settings file; shortens the header's cwd
	settings, err := config.Load(config.Path(os.Getenv, home))
	if err != nil {
		return fail(exitUsage, "%v", err) // before the demo unpacks or the TUI starts
	}
	svc, err := g.services()
	if err != nil {
		return err
	}
	theme := g.themeMode()
	if g.Theme == "" && settings.Theme != "" { // --theme wins over the file
		theme = settings.Theme
	}
	model := ui.New(ui.Options{
		Workspace: svc.Workspace(),
		Services:  svc, // the process's one: the TUI builds none of its own
		Theme:     theme,
		NoColor:   themes.NoColorRequested(os.Getenv),
		Keys:      settings.Keys,
		Home:      home,
		// The Presets panel notices preset and profile files changed on
		// disk.
		WatchFiles: true,
		// A burst of keys draws a frame per interval, not per key.
		FrameInterval: ui.FrameInterval,
	})
	if _, err := tea.NewProgram(model, tea.WithFilter(ui.WheelFilter(time.Now))).Run(); err != nil {
		return fmt.Errorf("run the workbench: %w", err)
	}
	return nil
}
