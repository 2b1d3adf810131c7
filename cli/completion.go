package cli

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/posener/complete"
	"github.com/willabides/kongplete"

	"github.com/forgebench/forgebench/engine/sanitize"
)

// Shell completion. forgebench is its own completer: the scripts that
// `forgebench completion SHELL` prints run it with COMP_LINE set to the
// command line up to the cursor (as bash's `complete -C` does), and Run
// then answers instead of running a command. kongplete turns the kong tree
// into posener/complete's model, which finds the word being completed and
// what may stand there: a command, a flag, an enum value, or live values
// (completion_values.go) named by a field's `predictor:"…"` tag. Each
// candidate is printed on its own line as "value" or
// "value<TAB>description"; the scripts show the descriptions.

//go:embed completions/forgebench.bash completions/_forgebench completions/forgebench.fish
var completionScripts embed.FS

// completionScriptFiles maps each shell to its script.
var completionScriptFiles = map[string]string{
	"bash": "completions/forgebench.bash",
	"zsh":  "completions/_forgebench",
	"fish": "completions/forgebench.fish",
}

// CompletionCmd prints a shell's completion script.
type CompletionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"bash (source <(forgebench completion bash) in ~/.bashrc), zsh (save as _forgebench in a directory of $$fpath) or fish (save as ~/.config/fish/completions/forgebench.fish). The packages install all three."`
}

// Run prints the script.
func (c *CompletionCmd) Run(g *Globals) error {
	script, err := completionScripts.ReadFile(completionScriptFiles[c.Shell])
	if err != nil {
		return fmt.Errorf("completion script for %s: %w", c.Shell, err) //i18n:raw an embedded file missing: a build bug
	}
	_, err = g.stdout.Write(script)
	return err
}

// completionRequest is the command line a shell asks to complete, cut at
// the cursor (COMP_POINT, a byte offset; absent or invalid means the end),
// and whether one was asked.
func completionRequest(getenv func(string) string) (string, bool) {
	line := getenv("COMP_LINE")
	if line == "" {
		return "", false
	}
	if point, err := strconv.Atoi(getenv("COMP_POINT")); err == nil && point >= 0 && point < len(line) {
		line = line[:point]
	}
	return line, true
}

// runCompletion answers one completion request for line (the command line
// up to the cursor) on stdout and returns the exit code. posener/complete
// reads the same line from the environment.
func runCompletion(parser *kong.Kong, cli *CLI, line string, stdout io.Writer) int {
	cmd, err := kongpleteCommand(parser, newCompletionValues(parser, cli, line))
	if err != nil { // a predictor tag names no predictor: a bug, caught by the tests
		fmt.Fprintln(parser.Stderr, "forgebench: completion:", err) //i18n:raw a bug the tests catch; the shell shows no stderr
		return exitFailed
	}
	var out bytes.Buffer
	completer := complete.New(parser.Model.Name, cmd)
	completer.Out = &out
	completer.Complete()
	writeCandidates(stdout, out.String())
	return exitOK
}

// kongpleteCommand is the kong tree as posener/complete's model, with the
// live values by predictor name.
func kongpleteCommand(parser *kong.Kong, values *completionValues) (complete.Command, error) {
	cmd, err := kongplete.Command(parser, kongplete.WithPredictors(values.predictors()))
	if err != nil {
		return cmd, fmt.Errorf("completion model: %w", err) //i18n:raw a bug the tests catch
	}
	keepCompletingAfterBoolFlags(parser.Model.Node, &cmd)
	return cmd, nil
}

// keepCompletingAfterBoolFlags removes the predictor kongplete gives a
// boolean flag (complete.PredictNothing): posener/complete stops at a
// flag that has one, so "--json <TAB>" would offer nothing, not the
// flags and arguments that may follow.
func keepCompletingAfterBoolFlags(node *kong.Node, cmd *complete.Command) {
	for _, f := range node.Flags {
		if !f.Value.IsBool() {
			continue
		}
		if _, ok := cmd.GlobalFlags["--"+f.Name]; ok {
			cmd.GlobalFlags["--"+f.Name] = nil
		}
		if f.Short != 0 {
			cmd.GlobalFlags["-"+string(f.Short)] = nil
		}
	}
	for _, child := range node.Children {
		if sub, ok := cmd.Sub[child.Name]; ok {
			keepCompletingAfterBoolFlags(child, &sub)
		}
	}
}

// writeCandidates prints the candidates posener/complete matched, one a
// line: values that cannot be typed as one word (blank, or with white
// space or control characters) are dropped, duplicates too, descriptions
// are cut to one clean line. Live values keep their order (newest
// first); a list without descriptions — commands, flags, enum values, in
// posener's map order — is sorted.
func writeCandidates(w io.Writer, matched string) {
	var lines []string
	seen := map[string]bool{}
	described := false
	for _, l := range strings.Split(matched, "\n") {
		value, desc, hasDesc := strings.Cut(l, "\t")
		if value == "" || seen[value] || strings.ContainsAny(value, " \t\r\n") || sanitize.HasControl(value) {
			continue
		}
		seen[value] = true
		if desc = sanitize.Clip(desc, 100); hasDesc && desc != "" {
			value += "\t" + desc
			described = true
		}
		lines = append(lines, value)
	}
	if !described {
		sort.Strings(lines)
	}
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}
