package cli

import (
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/config"
	"github.com/forgebench/forgebench/i18n"
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
	trace, progOpts, err := openTrace(os.Getenv(ui.TraceEnv))
	if err != nil {
		return err
	}
	defer func() { _ = trace.Close() }() // a trace is a measurement aid: losing its tail is not the user's loss
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
		Trace:         trace,
	})
	progOpts = append(progOpts, tea.WithFilter(ui.WheelFilter(time.Now)))
	if _, err := tea.NewProgram(model, progOpts...).Run(); err != nil {
		return i18n.Errorf("run the workbench: %w", err)
	}
	return nil
}

// openTrace starts the trace the FORGEBENCH_TRACE path asks for ("" =
// none: no trace, no options): the root records each message and frame,
// and the terminal's input and output are wrapped to record each read and
// write (ui.Trace).
func openTrace(path string) (*ui.Trace, []tea.ProgramOption, error) {
	if path == "" {
		return nil, nil, nil
	}
	trace, err := ui.OpenTrace(path)
	if err != nil {
		return nil, nil, fail(exitUsage, "%s: %v", ui.TraceEnv, err)
	}
	opts := []tea.ProgramOption{tea.WithOutput(trace.Output(os.Stdout))}
	if st, err := os.Stdin.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 { // else bubbletea opens the TTY itself; keys are still traced
		opts = append(opts, tea.WithInput(trace.Input(os.Stdin)))
	}
	return trace, opts, nil
}
