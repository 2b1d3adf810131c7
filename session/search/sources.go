package search

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/forgebench/forgebench/session"
)

// Source is one file to search.
type Source struct {
	Path    string
	Size    int64
	ModTime time.Time
	// AgentPath is the pi-subagent agent path ("/root/review") of an agent
	// transcript, "" for a Pi session.
	AgentPath string
	// RootFile is the root session file of an agent transcript.
	RootFile string
}

// Scope says which files a search reads.
type Scope struct {
	Loc  session.Locations
	Cwd  string
	Home string
	// AllProjects searches every project's sessions, not only Cwd's.
	AllProjects bool
	// Agents adds the pi-subagent agent transcripts of each session.
	Agents bool
}

// ListSources returns the files of a scope, newest modified first (the
// order the search reads and reports them in); with Agents each session is
// followed by its agent transcripts in agent-path order. Files that vanish
// while being listed are left out.
func ListSources(sc Scope) ([]Source, error) {
	var paths []string
	var err error
	if sc.AllProjects {
		paths, err = session.AllSessionFiles(sc.Loc)
	} else {
		paths, err = session.SessionFiles(sc.Loc, sc.Cwd, sc.Home)
	}
	if err != nil {
		return nil, fmt.Errorf("list session files: %w", err)
	}
	roots := statAll(paths)
	sort.SliceStable(roots, func(a, b int) bool {
		if !roots[a].ModTime.Equal(roots[b].ModTime) {
			return roots[a].ModTime.After(roots[b].ModTime)
		}
		return roots[a].Path < roots[b].Path
	})
	if !sc.Agents {
		return roots, nil
	}
	owners := treeOwners(roots)
	out := make([]Source, 0, len(roots))
	for _, r := range roots {
		out = append(out, r)
		if id, ok := owners[r.Path]; ok {
			out = append(out, agentSources(r.Path, id)...)
		}
	}
	return out, nil
}

// statAll stats the files on a few goroutines (directories with thousands
// of sessions); vanished and non-regular files are dropped.
func statAll(paths []string) []Source {
	out := make([]Source, len(paths))
	ok := make([]bool, len(paths))
	var wg sync.WaitGroup
	const workers = 8
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(paths); i += workers {
				fi, err := os.Stat(paths[i])
				if err != nil || !fi.Mode().IsRegular() {
					continue
				}
				out[i] = Source{Path: paths[i], Size: fi.Size(), ModTime: fi.ModTime()}
				ok[i] = true
			}
		}()
	}
	wg.Wait()
	kept := out[:0]
	for i := range out {
		if ok[i] {
			kept = append(kept, out[i])
		}
	}
	return kept
}

// agentSources lists the agent transcripts of the root session with the
// given id: every <dir>/<rootId>.subagents/<treeId>/sessions/*.jsonl (spec
// §16), each named by its path in the tree's state.json, else by its own
// descriptor.
//
// TODO(h7): replace with session/subagent's tree reading once it is on main.
func agentSources(rootFile, rootID string) []Source {
	base := filepath.Join(filepath.Dir(rootFile), rootID+".subagents")
	treeDirs, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	var out []Source
	for _, t := range treeDirs {
		if !t.IsDir() {
			continue
		}
		treeDir := filepath.Join(base, t.Name())
		byFile := statePaths(filepath.Join(treeDir, "state.json"))
		files, _ := filepath.Glob(filepath.Join(treeDir, "sessions", "*.jsonl"))
		for _, src := range statAll(files) {
			src.RootFile = rootFile
			src.AgentPath = byFile[filepath.Base(src.Path)]
			if src.AgentPath == "" {
				src.AgentPath = descriptorPath(src.Path)
			}
			out = append(out, src)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].AgentPath < out[b].AgentPath })
	return out
}

// treeOwners maps the root session files that own a pi-subagent tree
// directory (<id>.subagents next to them) to their session id. The id in
// the header is authoritative; the file name (<time>_<id>.jsonl) only says
// which header to read first, so a directory of thousands of sessions
// costs a few header reads.
func treeOwners(roots []Source) map[string]string {
	byDir := map[string][]string{}
	for _, r := range roots {
		byDir[filepath.Dir(r.Path)] = append(byDir[filepath.Dir(r.Path)], r.Path)
	}
	owners := map[string]string{}
	read := map[string]string{} // header ids read so far
	headerID := func(path string) string {
		id, ok := read[path]
		if !ok {
			if h, err := session.OpenHeader(path); err == nil {
				id = h.ID
			}
			read[path] = id
		}
		return id
	}
	for dir, files := range byDir {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			id, isTree := strings.CutSuffix(e.Name(), ".subagents")
			if !e.IsDir() || !isTree || id == "" || strings.ContainsAny(id, `/\`) {
				continue
			}
			owner := ""
			for _, f := range files {
				if strings.HasSuffix(filepath.Base(f), "_"+id+".jsonl") && headerID(f) == id {
					owner = f
					break
				}
			}
			for _, f := range files {
				if owner != "" {
					break
				}
				if _, named := owners[f]; !named && headerID(f) == id {
					owner = f
				}
			}
			if owner != "" {
				owners[owner] = id
			}
		}
	}
	return owners
}
