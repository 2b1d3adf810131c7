package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SessionFiles lists the session files of one project by ListCwd's rule —
// the *.jsonl files of its default directory, plus those of a custom
// session directory whose header cwd is this cwd — without summarising
// them (only custom-directory files have their header read). Full-text
// search uses it: it reads every byte anyway and needs no windows first.
func SessionFiles(loc Locations, cwd, home string) ([]string, error) {
	cands, err := dirCandidates(loc.DefaultSessionDir(cwd, home), SourceDefault, "")
	if err != nil {
		return nil, err
	}
	if loc.SessionDir != "" {
		more, err := dirCandidates(loc.SessionDir, SourceCustom, resolveCwd(cwd, home))
		if err != nil {
			return nil, err
		}
		cands = append(cands, more...)
	}
	var out []string
	for _, c := range cands {
		if c.wantCwd != "" {
			h, err := OpenHeader(c.path)
			if err != nil || h.Cwd == "" || resolveCwd(h.Cwd, home) != c.wantCwd {
				continue
			}
		}
		out = append(out, c.path)
	}
	return out, nil
}

// AllSessionFiles lists every project's session files by ListAll's rule
// (*.jsonl one level below AgentDir/sessions, pi-subagent tree directories
// excluded, plus the custom session directory) without reading them.
func AllSessionFiles(loc Locations) ([]string, error) {
	cands, err := allCandidates(loc)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		out = append(out, c.path)
	}
	return out, nil
}

// allCandidates is every project's session files by ListAll's rule,
// each once: *.jsonl one level below AgentDir/sessions (pi-subagent
// tree directories excluded; Pi follows symlinked directories there too,
// isDirectory() || isSymbolicLink()) plus the custom session directory.
func allCandidates(loc Locations) ([]candidate, error) {
	root := loc.SessionsRoot()
	dirs, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("list sessions root: %w", err)
	}
	var cands []candidate
	for _, d := range dirs {
		if strings.HasSuffix(d.Name(), subagentsSuffix) {
			continue
		}
		if !d.IsDir() && (d.Type()&os.ModeSymlink == 0 || !isDirPath(filepath.Join(root, d.Name()))) {
			continue
		}
		more, err := dirCandidates(filepath.Join(root, d.Name()), SourceDefault, "")
		if err != nil {
			return nil, err
		}
		cands = append(cands, more...)
	}
	if loc.SessionDir != "" {
		more, err := dirCandidates(loc.SessionDir, SourceCustom, "")
		if err != nil {
			return nil, err
		}
		cands = append(cands, more...)
	}
	return dedupe(cands), nil
}
