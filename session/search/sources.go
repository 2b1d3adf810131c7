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
	"github.com/forgebench/forgebench/session/subagent"
)

// Source is one file to search.
type Source struct {
	Path    string
	Size    int64
	ModTime time.Time
	// AgentPath is the pi-subagent agent path ("/root/review") of an
	// agent's transcript, as subagent.TranscriptFiles decides it: "" for a
	// Pi session and for a transcript no agent of the tree claims.
	AgentPath string
	// RootFile is the root session file of a transcript.
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
// given id as session/subagent decides them (subagent.TranscriptFiles):
// the sessions of the agents of the tree its active branch selects, in
// agent path order, then the other session files of its trees with no
// agent path. Files that vanished or are not regular are left out.
func agentSources(rootFile, rootID string) []Source {
	files := subagent.TranscriptFiles(rootFile, rootID)
	paths := make([]string, len(files))
	agents := make(map[string]string, len(files))
	for i, f := range files {
		paths[i] = f.File
		agents[f.File] = f.Agent
	}
	out := statAll(paths)
	for i := range out {
		out[i].RootFile, out[i].AgentPath = rootFile, agents[out[i].Path]
	}
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
