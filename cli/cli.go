// Package cli is forgebench's kong command tree: one file per command group,
// each command a thin adapter over engine/, resources/, session/ and ui/.
// main calls Run; nothing else in the binary parses arguments.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
)

// Exit codes shared by every command (DESIGN.md §2).
const (
	exitOK       = 0
	exitFailed   = 1 // the checked thing failed
	exitUsage    = 2
	exitConflict = 3 // stale revision or guard
	exitRefused  = 4 // untrusted project, live session
)

// CLI is the whole command tree.
type CLI struct {
	Globals

	Tui         TuiCmd         `cmd:"" default:"1" hidden:"" help:"Open the workbench (the default when no command is given)."`
	Preset      PresetCmd      `cmd:"" help:"Prompt presets (pi-forge prompt stacks): list, show, validate, preview, compile, new, fork, delete, migrate-stacks."`
	Capability  CapabilityCmd  `cmd:"" help:"Capabilities: library, preset bindings, and capability state in a session (status, enable, enable-bound, disable, reset, add)."`
	Profile     ProfileCmd     `cmd:"" help:"Agent profiles: list, show, validate, preview, delete."`
	Session     SessionCmd     `cmd:"" help:"Pi session files: list, show, tree, context, stats, tail, export, fork."`
	Agents      AgentsCmd      `cmd:"" help:"pi-subagent agent trees: list, show, transcript."`
	Payload     PayloadCmd     `cmd:"" help:"Saved provider payloads: show, diff."`
	Search      SearchCmd      `cmd:"" help:"Search the text of sessions (and agent transcripts) straight from the files, newest first."`
	Cache       CacheCmd       `cmd:"" help:"Prompt-cache economics: every lost cache prefix as Pi counts it, blamed on its cause, priced (report)."`
	Template    TemplateCmd    `cmd:"" help:"forge-v1 templates: render."`
	Fingerprint FingerprintCmd `cmd:"" help:"Print the sha256:v1 canonical-JSON fingerprint of a JSON document."`
	Version     VersionCmd     `cmd:"" help:"Print version, commit and build date."`
	Completion  CompletionCmd  `cmd:"" help:"Print the shell completion script for bash, zsh or fish."`
	Man         ManCmd         `cmd:"" help:"Print the manual page, forgebench(1), as roff (view it with: forgebench man | man -l -)."`
}

// exitError carries an exit code to Run; its message goes to stderr.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func fail(code int, format string, args ...any) error {
	return &exitError{code: code, err: fmt.Errorf(format, args...)}
}

// failErr is fail for an error already made, an i18n.Errorf in the run's
// language.
func failErr(code int, err error) error {
	return &exitError{code: code, err: err}
}

// Run parses args (without the program name), runs the selected command
// with its output on stdout and diagnostics on stderr, and returns the
// process exit code: 0 ok, 1 the checked thing failed, 2 usage, 3 conflict,
// 4 refused.
func Run(args []string, stdout, stderr io.Writer) int {
	var cli CLI
	exitCode := -1
	early := earlyLang(args)
	i18n.SetLanguage(runLanguage(early)) // before kong: --help and usage errors print in it
	parser, err := kong.New(&cli,
		kong.Name("forgebench"),
		kong.Description(i18n.Mark("A terminal workbench for Pi with pi-forge and pi-subagent: presets, sessions, capabilities, payload diffs and agent trees, with zero model calls.")),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exitCode = code }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, Summary: true}),
		kong.Help(helpPrinter),
		kong.Vars{"leaf_help": leafHelp},
	)
	if err != nil {
		fmt.Fprintln(stderr, "forgebench:", err)
		return exitUsage
	}
	if line, ok := completionRequest(os.Getenv); ok { // a shell's completion script asks
		return runCompletion(parser, &cli, line, stdout)
	}
	ctx, err := parser.Parse(args)
	if exitCode >= 0 { // --help or a kong-internal exit
		return exitCode
	}
	if err != nil {
		// A usage error quotes the arguments, which can be file names
		// (a shell glob over a hostile directory).
		fmt.Fprintln(stderr, "forgebench:", sanitize.Text(usageMessage(err)))
		return exitUsage
	}
	if string(cli.Globals.Lang) != early { // every run decides afresh (tests run many in one process)
		i18n.SetLanguage(cli.Globals.language(os.Getenv))
	}
	// Human output goes through the sanitiser, JSON through the one JSON
	// writer (output.go).
	cli.Globals.stdout, cli.Globals.stderr = humanWriter(stdout), humanWriter(stderr)
	var jsonOut jsonWriter
	if node := ctx.Selected(); node != nil && exactOutput(node.Target) {
		jsonOut = newJSONWriter(stdout)
		cli.Globals.stdout = jsonOut
	}
	// Large session files are memory-mapped: a truncation by another
	// process while a command reads one is an error, not a crash.
	err = session.GuardFaults(func() error { return ctx.Run(&cli.Globals) })
	if jsonOut != nil {
		if ferr := jsonOut.Flush(); err == nil {
			err = ferr
		}
	}
	cli.Globals.cleanup()
	if err == nil {
		return exitOK
	}
	// Error messages can quote file names and file text: they reach the
	// terminal through the sanitiser like every other human line.
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err.Error() != "" {
			fmt.Fprintln(stderr, "forgebench:", sanitize.Text(ee.err.Error()))
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "forgebench:", sanitize.Text(err.Error()))
	return exitFailed
}
