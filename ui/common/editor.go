package common

import (
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/forgebench/forgebench/i18n"
)

// ExternalEditor is the $EDITOR hand-off every panel shares (a Preset
// block, the raw JSON of a Preset or a profile, a capability's content).
// Edit returns the command that hands text to the editor and, once it
// exits, delivers done(edited, err): the text it left, or why there is
// none. The file IO and the process run in that command, never in Update.
// Common.Editor holds one; tests put a fake there.
type ExternalEditor interface {
	// Edit hands text to the editor; pattern names its temporary file
	// (os.CreateTemp's pattern: the extension tells the editor the
	// syntax).
	Edit(text, pattern string, done func(edited string, err error) tea.Msg) tea.Cmd
}

// EnvEditor is the user's editor: $VISUAL, else $EDITOR (a program and its
// arguments, "code -w"), else vi, run on a temporary file with the
// terminal handed over; the file is read back and removed after.
type EnvEditor struct {
	// Getenv reads the environment (nil: os.Getenv).
	Getenv func(string) string
	// Exec hands the terminal to the program (nil: tea.ExecProcess).
	Exec func(cmd *exec.Cmd, done tea.ExecCallback) tea.Cmd
}

// ExternalEditor is the $EDITOR hand-off: Common.Editor when set, else the
// user's editor run through Common.Exec.
func (c *Common) ExternalEditor() ExternalEditor {
	if c.Editor != nil {
		return c.Editor
	}
	return EnvEditor{Exec: c.Exec}
}

// EditorArgs is the editor program and its arguments from the
// environment: $VISUAL wins over $EDITOR, vi when neither is set.
func EditorArgs(getenv func(string) string) []string {
	editor := getenv("VISUAL")
	if strings.TrimSpace(editor) == "" {
		editor = getenv("EDITOR")
	}
	if args := strings.Fields(editor); len(args) > 0 {
		return args
	}
	return []string{"vi"}
}

// Edit implements ExternalEditor.
func (e EnvEditor) Edit(text, pattern string, done func(edited string, err error) tea.Msg) tea.Cmd {
	getenv, run := e.Getenv, e.Exec
	if getenv == nil {
		getenv = os.Getenv
	}
	if run == nil {
		run = tea.ExecProcess
	}
	return func() tea.Msg {
		args := EditorArgs(getenv)
		f, err := os.CreateTemp("", pattern)
		if err != nil {
			return done("", i18n.Errorf("create the editor file: %w", err))
		}
		path := f.Name()
		_, werr := f.WriteString(text)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(path)
			return done("", i18n.Errorf("write the editor file: %w", werr))
		}
		cmd := exec.Command(args[0], append(args[1:], path)...)
		return run(cmd, func(runErr error) tea.Msg {
			defer os.Remove(path)
			if runErr != nil {
				return done("", i18n.Errorf("editor %s: %w", args[0], runErr))
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return done("", i18n.Errorf("read back the editor file: %w", err))
			}
			return done(string(data), nil)
		})()
	}
}
