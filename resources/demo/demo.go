// Package demo holds the embedded demo workspace that `forgebench --demo`
// unpacks: a fake home directory with a Pi agent dir (settings, trust, sessions
// and a pi-subagent tree), a global pi-forge library, and a small project with
// its own pi-forge Presets, capabilities and agent profiles. A newcomer can open
// every panel of forgebench without a Pi installation.
//
// The embedded files cannot know where they will be unpacked, so every absolute
// path inside them is written with a placeholder token that Unpack replaces
// (see the token constants). The session directory name, which Pi derives from
// the project path, is a placeholder directory name as well.
package demo

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/sessiondir"
)

//go:embed all:workspace
var workspaceFS embed.FS

// workspaceRoot is the directory inside workspaceFS that mirrors the unpacked root.
const workspaceRoot = "workspace"

// Placeholder tokens used in the embedded files. Inside .json and .jsonl files
// the replacement is JSON-string escaped; elsewhere it is inserted verbatim.
const (
	// TokenProjectDir stands for the absolute project directory (the session cwd).
	TokenProjectDir = "@@DEMO_PROJECT_DIR@@"
	// TokenProjectDirSlash stands for the project directory with `\` turned into
	// `/`, the form Pi prints in the `cwd` section of its system prompt.
	TokenProjectDirSlash = "@@DEMO_PROJECT_DIR_SLASH@@"
	// TokenProjectRealPath stands for the project directory with symlinks
	// resolved, the key form Pi's trust.json uses.
	TokenProjectRealPath = "@@DEMO_PROJECT_REALPATH@@"
	// TokenAgentDir stands for the absolute Pi agent directory.
	TokenAgentDir = "@@DEMO_AGENT_DIR@@"
	// TokenSessionDir stands for the encoded-cwd session directory name (§1.2 of
	// the session spec, engine/sessiondir); it is also the name of the embedded
	// session directory.
	TokenSessionDir = "@@DEMO_SESSION_DIR@@"
)

// writeFile writes one unpacked file; tests replace it to inject failures.
var writeFile = writeFileFully

// tokenPrefix starts every placeholder token; no unpacked file may contain it.
const tokenPrefix = "@@DEMO_"

// Relative locations inside the unpacked root.
const (
	projectRel = "projects/demo-app"
	agentRel   = "home/.pi/agent"
	forgeRel   = "home/.pi/forge"
)

// Layout names the directories of an unpacked demo workspace. All paths are
// absolute.
type Layout struct {
	// Root is the new temporary directory that holds everything.
	Root string
	// ProjectDir is the demo project, the working directory of every session.
	ProjectDir string
	// AgentDir is the Pi agent directory (use it as PI_CODING_AGENT_DIR).
	AgentDir string
	// ForgeDir is the global pi-forge directory (use it as PI_FORGE_GLOBAL_DIR).
	ForgeDir string
	// SessionDir is where Pi keeps the project's sessions:
	// <AgentDir>/sessions/<encoded ProjectDir>.
	SessionDir string
}

// Unpack writes the demo into a new directory created under parent with
// os.MkdirTemp(parent, "forgebench-demo-*") (parent "" means os.TempDir()) and
// returns its layout. Files are written with mode 0644 and directories with
// 0755. On any failure the new directory is removed again.
func Unpack(parent string) (Layout, error) {
	root, err := os.MkdirTemp(parent, "forgebench-demo-*")
	if err != nil {
		return Layout{}, fmt.Errorf("create demo directory: %w", err)
	}
	layout, err := unpackInto(root)
	if err != nil {
		if rmErr := os.RemoveAll(root); rmErr != nil {
			err = errors.Join(err, fmt.Errorf("remove incomplete demo directory: %w", rmErr))
		}
		return Layout{}, err
	}
	return layout, nil
}

// unpackInto fills the freshly created root directory.
func unpackInto(root string) (Layout, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return Layout{}, fmt.Errorf("resolve demo directory %q: %w", root, err)
	}
	layout := Layout{
		Root:       absRoot,
		ProjectDir: filepath.Join(absRoot, filepath.FromSlash(projectRel)),
		AgentDir:   filepath.Join(absRoot, filepath.FromSlash(agentRel)),
		ForgeDir:   filepath.Join(absRoot, filepath.FromSlash(forgeRel)),
	}
	layout.SessionDir = filepath.Join(layout.AgentDir, "sessions", sessiondir.Name(layout.ProjectDir))
	if err := os.MkdirAll(layout.ProjectDir, 0o755); err != nil {
		return Layout{}, fmt.Errorf("create demo project directory: %w", err)
	}
	realProject, err := filepath.EvalSymlinks(layout.ProjectDir)
	if err != nil {
		return Layout{}, fmt.Errorf("resolve demo project directory: %w", err)
	}
	values := map[string]string{
		TokenProjectDir:      layout.ProjectDir,
		TokenProjectDirSlash: strings.ReplaceAll(layout.ProjectDir, `\`, "/"),
		TokenProjectRealPath: realProject,
		TokenAgentDir:        layout.AgentDir,
		TokenSessionDir:      sessiondir.Name(layout.ProjectDir),
	}
	raw, escaped := newReplacers(values)

	walkErr := fs.WalkDir(workspaceFS, workspaceRoot, func(name string, entry fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("read embedded %s: %w", name, err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(name, workspaceRoot), "/")
		target := filepath.Join(absRoot, filepath.FromSlash(raw.Replace(rel)))
		if entry.IsDir() {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return fmt.Errorf("create %s: %w", target, err)
			}
			return nil
		}
		data, err := workspaceFS.ReadFile(name)
		if err != nil {
			return fmt.Errorf("read embedded %s: %w", name, err)
		}
		content := string(data)
		if isJSONFile(name) {
			content = escaped.Replace(content)
		} else {
			content = raw.Replace(content)
		}
		if strings.Contains(content, tokenPrefix) {
			return fmt.Errorf("embedded %s contains an unknown placeholder token", name)
		}
		if err := writeFile(target, []byte(content)); err != nil {
			return err
		}
		return backdateSession(target, content)
	})
	if walkErr != nil {
		return Layout{}, walkErr
	}
	return layout, nil
}

// newReplacers builds one replacer that inserts the values verbatim and one that
// inserts them as the inside of a JSON string literal.
func newReplacers(values map[string]string) (raw, escaped *strings.Replacer) {
	var rawPairs, escapedPairs []string
	for token, value := range values {
		rawPairs = append(rawPairs, token, value)
		escapedPairs = append(escapedPairs, token, escapeJSONStringContent(value))
	}
	return strings.NewReplacer(rawPairs...), strings.NewReplacer(escapedPairs...)
}

// isJSONFile reports whether the embedded file holds JSON or JSON lines.
func isJSONFile(name string) bool {
	ext := path.Ext(name)
	return ext == ".json" || ext == ".jsonl"
}

// escapeJSONStringContent escapes s the way JSON.stringify does inside a string
// literal, without the surrounding quotes.
func escapeJSONStringContent(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// backdateSession gives a session file (.jsonl) the modification time of
// its last entry, as if Pi had just finished writing it then: a session
// modified a moment ago looks live, and forgebench refuses to append to
// live sessions.
func backdateSession(target, content string) error {
	if !strings.HasSuffix(target, ".jsonl") {
		return nil
	}
	lines := strings.Split(strings.TrimRight(content, "\n"), "\n")
	var last struct {
		Timestamp string `json:"timestamp"`
	}
	if json.Unmarshal([]byte(lines[len(lines)-1]), &last) != nil {
		return nil
	}
	when, err := time.Parse(time.RFC3339Nano, last.Timestamp)
	if err != nil {
		return nil
	}
	if err := os.Chtimes(target, when, when); err != nil {
		return fmt.Errorf("set the time of %s: %w", target, err)
	}
	return nil
}

// writeFileFully writes data to a temporary file next to target and renames it
// into place, so a failed write never leaves a truncated file behind.
func writeFileFully(target string, data []byte) error {
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".demo-*.tmp")
	if err != nil {
		return fmt.Errorf("create temporary file for %s: %w", target, err)
	}
	tmpName := tmp.Name()
	_, writeErr := tmp.Write(data)
	closeErr := tmp.Close()
	if err := errors.Join(writeErr, closeErr); err != nil {
		_ = os.Remove(tmpName)
		return fmt.Errorf("write %s: %w", target, err)
	}
	if err := os.Chmod(tmpName, 0o644); err != nil {
		_ = os.Remove(tmpName)
		return fmt.Errorf("set mode of %s: %w", target, err)
	}
	if err := os.Rename(tmpName, target); err != nil {
		_ = os.Remove(tmpName)
		return fmt.Errorf("move %s into place: %w", target, err)
	}
	return nil
}
