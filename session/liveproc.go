package session

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/internal/regfile"
)

// PiProcess is a running Pi found by FindPi.
type PiProcess struct {
	// PID is the process id.
	PID int
	// Command is how the process shows itself ("pi", "node …/cli.js").
	Command string
}

// maxCmdline bounds how much of a process's command line is read.
const maxCmdline = 64 << 10

// FindPiIn lists the Pi processes whose working directory is project,
// reading a /proc-style tree at root: for each numeric entry, <pid>/cwd
// (compared with project as the same directory on disk), then
// <pid>/cmdline and <pid>/exe (IsPiCommand). Processes it may not inspect
// (another user's) are skipped. Pi runs in the project it serves unless it
// was started elsewhere with --session, which this check cannot see: Pi
// replaces its command line with its process title ("pi") at start.
func FindPiIn(root, project string) ([]PiProcess, error) {
	want, err := os.Stat(project)
	if err != nil {
		return nil, nil // no Pi can run in a directory that does not exist
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var found []PiProcess
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		dir := filepath.Join(root, e.Name())
		cwd, err := os.Stat(filepath.Join(dir, "cwd"))
		if err != nil || !os.SameFile(cwd, want) {
			continue
		}
		cmdline, err := readProcFile(filepath.Join(dir, "cmdline"))
		if err != nil {
			continue
		}
		exe, _ := os.Readlink(filepath.Join(dir, "exe"))
		if cmd, ok := IsPiCommand(splitCmdline(cmdline), exe); ok {
			found = append(found, PiProcess{PID: pid, Command: cmd})
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].PID < found[j].PID })
	return found, nil
}

// readProcFile reads up to maxCmdline bytes of a regular file, opened
// without blocking (regfile.Open). Proc files are regular but report size
// 0, so the read is bounded by maxCmdline, not by the size at open.
func readProcFile(path string) ([]byte, error) {
	f, _, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxCmdline))
}

// splitCmdline splits a NUL-separated command line; the NULs Pi's process
// title leaves behind (it overwrites the whole argument area) end it.
func splitCmdline(b []byte) []string {
	s := strings.TrimRight(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

// IsPiCommand reports whether a command line (and the target of its
// /proc/<pid>/exe link, "" when unknown) is a running Pi, and how to name
// it:
//   - argv[0] is "pi" or "pi-rpc" (any directory): Pi's process title,
//     which it sets at start (APP_NAME, or APP_NAME-rpc in RPC mode), or a
//     `pi` binary run by name or path;
//   - the executable is a file named "pi" (a compiled Pi run under another
//     name);
//   - node, nodejs or bun running a script named "pi" (the npm bin link) or
//     a script inside a pi-coding-agent package directory (Pi before it
//     set its title).
//
// Anything else — a shell whose cwd is the project, `node server.js`, a
// python `pi.py` — is not Pi.
func IsPiCommand(argv []string, exe string) (string, bool) {
	if len(argv) == 0 {
		return "", false
	}
	name := baseName(argv[0])
	switch {
	case name == "pi" || name == "pi-rpc":
		return name, true
	case baseName(exe) == "pi":
		return exe, true
	}
	runtime := name
	if !isJSRuntime(runtime) {
		runtime = baseName(exe)
	}
	if !isJSRuntime(runtime) {
		return "", false
	}
	script := scriptArg(argv[1:], strings.HasPrefix(strings.ToLower(runtime), "bun"))
	if script == "" {
		return "", false
	}
	if baseName(script) == "pi" || inPiPackage(script) {
		return name + " " + script, true
	}
	return "", false
}

// baseName is the last element of a slash- or backslash-separated path.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// isJSRuntime recognises node, nodejs and bun executables (also
// versioned names such as node22 and Windows' node.exe).
func isJSRuntime(name string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".exe")
	for _, rt := range []string{"nodejs", "node", "bun"} {
		if rest, ok := strings.CutPrefix(name, rt); ok && strings.Trim(rest, "0123456789.-") == "" {
			return true
		}
	}
	return false
}

// nodeValueOptions are runtime options whose value is the next argument.
var nodeValueOptions = map[string]bool{
	"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true,
	"-C": true, "--conditions": true, "--env-file": true, "--title": true, "--inspect-port": true,
	"--stack-size": true, "--max-old-space-size": true, "--input-type": true,
}

// scriptArg is the script a JS runtime runs: the first argument that is
// not an option (nor an option's value); "" for -e/-p/--eval or none. For
// bun, the subcommands run and x come before the script.
func scriptArg(args []string, bun bool) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "-p" || a == "--eval" || a == "--print":
			return ""
		case a == "--":
			if i+1 < len(args) {
				return args[i+1]
			}
			return ""
		case nodeValueOptions[a]:
			i++
		case strings.HasPrefix(a, "-"):
		case bun && (a == "run" || a == "x"): // bun run <script>, bun x <package>
		default:
			return a
		}
	}
	return ""
}

// inPiPackage reports a path inside a pi-coding-agent package directory
// (node_modules/@earendil-works/pi-coding-agent/…, a checkout's
// packages/coding-agent is named differently and not matched).
func inPiPackage(p string) bool {
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == "pi-coding-agent" {
			return true
		}
	}
	return false
}
