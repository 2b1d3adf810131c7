package resources

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ContextFile is one project-instructions file Pi puts into the system
// prompt's project_context section.
type ContextFile struct {
	Path    string // absolute
	Content string
}

// contextFileNames are tried in order in each directory; the first that
// exists is used (Pi 1.6.0).
var contextFileNames = []string{"AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"}

// DiscoverContextFiles finds the context files Pi 1.6.0 loads for cwd: the
// agent dir first, then every ancestor of cwd from the filesystem root down
// to cwd itself, at most one file per directory. Discovery is not gated by
// trust. (Pi also lets a linked git worktree's copy shadow the main
// repository's file; forgebench reads the worktree it is pointed at.)
func DiscoverContextFiles(agentDir, cwd string) ([]ContextFile, error) {
	dirs := []string{agentDir}
	var chain []string
	for d := filepath.Clean(cwd); ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if chain[i] != agentDir {
			dirs = append(dirs, chain[i])
		}
	}
	var files []ContextFile
	for _, dir := range dirs {
		for _, name := range contextFileNames {
			p := filepath.Join(dir, name)
			raw, err := readRegularFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				var pe *fs.PathError
				if errors.As(err, &pe) && isDirErr(p) {
					continue
				}
				return nil, fmt.Errorf("read context file: %w", err)
			}
			files = append(files, ContextFile{Path: p, Content: string(raw)})
			break
		}
	}
	return files, nil
}

func isDirErr(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
