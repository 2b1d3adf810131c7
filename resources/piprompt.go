package resources

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// PiPromptFiles are the files Pi reads to build its default system prompt
// besides the context files: SYSTEM.md (replaces the preamble) and
// APPEND_SYSTEM.md (the addendum). Each comes from the trusted project's
// .pi/ directory, else from the agent dir.
type PiPromptFiles struct {
	System       *string // nil = not configured
	SystemPath   string
	Append       string
	AppendPath   string
	ContextFiles []ContextFile
}

// LoadPiPromptFiles reads SYSTEM.md, APPEND_SYSTEM.md and the context files
// for the workspace as Pi 1.6.0 would.
func LoadPiPromptFiles(ws Workspace) (PiPromptFiles, error) {
	var out PiPromptFiles
	pick := func(name string) (string, string, bool, error) {
		var dirs []string
		if ws.Trust.Trusted {
			dirs = append(dirs, filepath.Join(ws.Cwd, ".pi"))
		}
		dirs = append(dirs, ws.AgentDir)
		for _, d := range dirs {
			p := filepath.Join(d, name)
			raw, err := os.ReadFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return "", "", false, fmt.Errorf("read %s: %w", name, err)
			}
			return string(raw), p, true, nil
		}
		return "", "", false, nil
	}
	sys, sysPath, ok, err := pick("SYSTEM.md")
	if err != nil {
		return out, err
	}
	if ok {
		out.System, out.SystemPath = &sys, sysPath
	}
	if out.Append, out.AppendPath, _, err = pick("APPEND_SYSTEM.md"); err != nil {
		return out, err
	}
	if out.ContextFiles, err = DiscoverContextFiles(ws.AgentDir, ws.Cwd); err != nil {
		return out, err
	}
	return out, nil
}
