package subagent

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// state.json's sessionFile is data, not a pointer: only a file of the
// tree's own sessions/ directory is read as an agent's session — the
// recorded path when it is there (a relative one resolved against the tree
// directory, never against forgebench's cwd), else a file of the same name
// there (a copied or moved tree, §16). A path elsewhere is refused with a
// warning, so another project's session never shows as an agent's
// transcript. The directory is listed once, whatever the number of agents.

// sessionsListing is the tree's sessions/ directory as listed once.
type sessionsListing struct {
	dir     string
	entries map[string]fs.DirEntry // by name
	real    string                 // dir with symbolic links resolved, when needed ("" until then)
}

// listSessions lists the tree's sessions/ directory (empty when it cannot
// be read).
func (t *Tree) listSessions() *sessionsListing {
	l := &sessionsListing{dir: t.sessionsDir(), entries: map[string]fs.DirEntry{}}
	ents, _ := os.ReadDir(l.dir)
	for _, e := range ents {
		l.entries[e.Name()] = e
	}
	return l
}

// own reports whether name is a regular file that really lies in the
// directory: a symbolic link there is followed and must stay in it.
func (l *sessionsListing) own(name string) bool {
	e, ok := l.entries[name]
	switch {
	case !ok:
		return false
	case e.Type().IsRegular():
		return true
	case e.Type()&fs.ModeSymlink == 0:
		return false
	}
	path := filepath.Join(l.dir, name)
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	if l.real == "" {
		if l.real, err = filepath.EvalSymlinks(l.dir); err != nil {
			return false
		}
	}
	return filepath.Dir(target) == l.real
}

// sessionFiles are the *.jsonl files of the directory, sorted.
func (l *sessionsListing) sessionFiles() []string {
	var out []string
	for name := range l.entries {
		if strings.HasSuffix(name, ".jsonl") && l.own(name) {
			out = append(out, filepath.Join(l.dir, name))
		}
	}
	sort.Strings(out)
	return out
}

// resolveFiles finds each agent's session file (sessionFileOf) and reports
// the agents whose file is refused or missing, the files found by name,
// and the session files no agent claims.
func (t *Tree) resolveFiles() {
	l := t.listSessions()
	claimed := map[string]bool{}
	relocated := 0
	// The same two messages for every agent concerned: made once (a pruned
	// tree can miss 100,000 files).
	missing := fmt.Sprintf("agent session file not found (also not under %s)", l.dir)
	outside := fmt.Sprintf("the session file is outside the tree's sessions/ directory (%s) and none of that name is there; not read", l.dir)
	for _, a := range t.Agents {
		if a.SessionFile != "" {
			a.File, a.Relocated, _ = t.sessionFileOf(l, a.SessionFile)
		}
		switch {
		case a.File != "":
			claimed[a.File] = true
			if a.Relocated {
				relocated++
			}
		case a.SessionFile == "" || t.inSessionsDir(t.recordedPath(a.SessionFile)):
			t.Diagnostics = append(t.Diagnostics, Diagnostic{Severity: SevWarning, Agent: a.Path, File: a.SessionFile, Message: missing})
		default:
			t.Diagnostics = append(t.Diagnostics, Diagnostic{Severity: SevWarning, Agent: a.Path, File: a.SessionFile, Message: outside})
		}
	}
	if relocated > 0 {
		t.diag(SevInfo, "", t.StateFile, "%d session file path%s in state.json point elsewhere (a copied or moved tree); found by name under %s", relocated, plural(relocated, "", "s"), l.dir)
	}
	orphans := 0
	for _, f := range l.sessionFiles() {
		if !claimed[f] {
			orphans++
		}
	}
	if orphans > 0 && t.State != nil {
		t.diag(SevInfo, "", l.dir, "%d session file%s in sessions/ belong%s to no agent of state.json", orphans, plural(orphans, "", "s"), plural(orphans, "s", ""))
	}
}

// recordedPath is a recorded sessionFile as a clean absolute path: a
// relative one is taken relative to the tree directory.
func (t *Tree) recordedPath(recorded string) string {
	if recorded == "" {
		return ""
	}
	if !filepath.IsAbs(recorded) {
		recorded = filepath.Join(t.Dir, recorded)
	}
	return filepath.Clean(recorded)
}

// inSessionsDir reports whether path (clean) names a file directly
// inside the tree's sessions/ directory (by name; the file may not exist).
func (t *Tree) inSessionsDir(path string) bool {
	dir := t.sessionsDir()
	return len(path) > len(dir)+1 && path[:len(dir)] == dir && os.IsPathSeparator(path[len(dir)]) &&
		!strings.ContainsRune(path[len(dir)+1:], filepath.Separator)
}

// sessionsDir is the tree's sessions/ directory.
func (t *Tree) sessionsDir() string {
	if t.sessions == "" {
		t.sessions = filepath.Join(t.Dir, "sessions")
	}
	return t.sessions
}

// sessionFileOf decides which file of the tree holds the session state.json
// records as recorded: the recorded path itself when it names a file of
// the listed sessions/ directory, else the file of the same base name
// there (relocated). ok is false when no file of the tree is found.
func (t *Tree) sessionFileOf(l *sessionsListing, recorded string) (file string, relocated, ok bool) {
	if p := t.recordedPath(recorded); t.inSessionsDir(p) && l.own(p[len(l.dir)+1:]) {
		return p, false, true
	}
	switch name := filepath.Base(recorded); name {
	case "", ".", "..", string(filepath.Separator):
	default:
		if l.own(name) {
			return filepath.Join(l.dir, name), true, true
		}
	}
	return "", false, false
}
