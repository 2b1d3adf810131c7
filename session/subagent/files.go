package subagent

import (
	"path/filepath"
	"sort"
)

// TranscriptFile is one pi-subagent session file of a root session.
type TranscriptFile struct {
	File string
	// Agent is the path of the agent whose session this is: an agent of
	// the tree the root selects, exactly as Open lists it (so `agents
	// show` finds it). It is "" for a file no such agent claims — a
	// session of another tree of the root, or one state.json does not
	// name: a transcript, but not the session of an agent of this tree.
	Agent string
}

// TranscriptFiles lists the agent sessions of the root session rootFile
// (whose session id is rootID): first the files of the agents of the tree
// it selects, as Open decides them (state.json's sessionFile kept to the
// tree's sessions/, or the descriptors when state.json is unreadable), in
// agent path order; then every other session file under
// <dir>/<rootID>.subagents/*/sessions/, in file order, with no agent.
// Full-text search reads these, so it names the same agents as `agents
// list`, `agents show` and the Agents panel.
func TranscriptFiles(rootFile, rootID string) []TranscriptFile {
	var out []TranscriptFile
	claimed := map[string]bool{}
	if t, err := Open(rootFile, Options{}); err == nil {
		for _, a := range t.Agents {
			if a.File == "" {
				continue
			}
			abs, err := filepath.Abs(a.File)
			if err != nil || claimed[abs] {
				continue
			}
			claimed[abs] = true
			out = append(out, TranscriptFile{File: a.File, Agent: a.Path})
		}
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(rootFile), rootID+".subagents", "*", "sessions", "*.jsonl"))
	sort.Strings(files)
	for _, f := range files {
		if abs, err := filepath.Abs(f); err == nil && !claimed[abs] {
			out = append(out, TranscriptFile{File: f})
		}
	}
	return out
}
