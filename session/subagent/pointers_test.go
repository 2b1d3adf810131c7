package subagent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// state.json's sessionFile is data, not a pointer: only files of the
// tree's own sessions/ directory are read as transcripts, a relative path
// is resolved against the tree directory (never forgebench's cwd), and
// anything else is refused with a warning.

// pointerTree is a tree of four agents whose records are then rewritten
// by edit (key → record) before state.json is written.
func pointerTree(t *testing.T, edit func(b *treeBuilder, recs map[string]map[string]any)) (*treeBuilder, string) {
	t.Helper()
	b := newTreeBuilder(t)
	for _, p := range []string{"/root/a", "/root/b", "/root/c", "/root/d"} {
		b.addAgent(spec{path: p, status: StatusCompleted, runs: 1, onBranch: true})
	}
	recs := map[string]map[string]any{}
	for k, v := range b.records {
		recs[k] = v.(map[string]any)
	}
	edit(b, recs)
	b.records = map[string]any{}
	for k, v := range recs {
		b.records[k] = v
	}
	return b, b.finish()
}

// otherSession writes a session of another project (what a hostile
// state.json may point at).
func otherSession(t *testing.T, dir, name string) string {
	t.Helper()
	s := newJSONL(filepath.Join(dir, name), "01a2219b-0000-7000-8000-0000000ffff0", "", newTreeBuilder(t).start)
	s.message(map[string]any{"role": "user", "content": "another project's secret"})
	s.write(t)
	return s.path
}

func TestSessionFileOutsideTheTreeIsRefused(t *testing.T) {
	other := otherSession(t, t.TempDir(), "other.jsonl")
	cwd := t.TempDir()
	// A file named like an agent's under forgebench's own cwd: a relative
	// path must not find it.
	relName := filepath.Join("sessions", "rel.jsonl")
	otherSession(t, filepath.Join(cwd, "sessions"), "rel.jsonl")
	t.Chdir(cwd)
	var linkTarget string
	b, root := pointerTree(t, func(b *treeBuilder, recs map[string]map[string]any) {
		recs["/root/a"]["sessionFile"] = other // another project's session, by absolute path
		// Relative to the tree directory but out of sessions/: the root
		// session itself.
		recs["/root/b"]["sessionFile"] = filepath.Join("..", "..", filepath.Base(b.root.path))
		// Relative to the tree directory: its own sessions/ file.
		bFile := b.files["/root/c"].path
		recs["/root/c"]["sessionFile"] = filepath.Join("sessions", filepath.Base(bFile))
		// A name under sessions/ that is a symlink to the other project.
		linkTarget = filepath.Join(b.treeDir(), "sessions", "link.jsonl")
		recs["/root/d"]["sessionFile"] = relName
	})
	if err := os.Symlink(other, linkTarget); err != nil {
		t.Skipf("symlink: %v", err)
	}
	tree := openBuilt(t, root)
	get := func(p string) *Agent {
		a, ok := tree.Agent(p)
		if !ok {
			t.Fatalf("no agent %s", p)
		}
		return a
	}
	if a := get("/root/a"); a.File != "" || a.Summary != nil {
		t.Errorf("/root/a reads %q, another project's session", a.File)
	}
	if a := get("/root/b"); a.File != "" {
		t.Errorf("/root/b reads %q through a relative path out of the tree", a.File)
	}
	if a := get("/root/c"); a.File != b.files["/root/c"].path || a.Summary == nil {
		t.Errorf("/root/c: a path relative to the tree directory reads %q, want its own file", a.File)
	}
	if a := get("/root/d"); a.File != "" {
		t.Errorf("/root/d reads %q: a relative path resolved against the cwd", a.File)
	}
	if !hasDiag(tree, SevWarning, "outside the tree's sessions/ directory") {
		t.Errorf("no warning for a session file outside the tree: %v", tree.Diagnostics)
	}
	// The symlink in sessions/ that leads out of the tree is refused too.
	if file, _, ok := tree.sessionFileOf(tree.listSessions(), linkTarget); ok {
		t.Errorf("a symlink out of sessions/ accepted as %q", file)
	}
	for _, d := range tree.Diagnostics {
		if strings.Contains(d.Message, "secret") {
			t.Errorf("read another project's session: %v", d)
		}
	}
}

// A record whose key pi-subagent would refuse ("/root" itself, a path not
// under /root) is left out; it does not become everyone's parent and hide
// the real agents.
func TestRecordWithARejectedKeyIsDropped(t *testing.T) {
	_, root := pointerTree(t, func(b *treeBuilder, recs map[string]map[string]any) {
		for _, key := range []string{"/root", "root/x", "/root/Bad Name", "/root/a/"} {
			rec := map[string]any{}
			for k, v := range recs["/root/a"] {
				rec[k] = v
			}
			recs[key] = rec
		}
	})
	tree := openBuilt(t, root)
	var paths []string
	for _, a := range tree.Agents {
		paths = append(paths, a.Path)
	}
	if got := strings.Join(paths, ","); got != "/root/a,/root/b,/root/c,/root/d" {
		t.Fatalf("agents %s", got)
	}
	if n := len(tree.VisibleAgents(false)); n != 4 {
		t.Errorf("%d visible agents, want 4", n)
	}
	if n := len(tree.Roots()); n != 4 {
		t.Errorf("%d roots, want 4", n)
	}
	if !hasDiag(tree, SevError, `"/root" — the key is not a canonical agent path`) || !hasDiag(tree, SevError, "left out") {
		t.Errorf("diagnostics %v", tree.Diagnostics)
	}
}

// Recovered from the descriptors (state.json unreadable), an agent path
// pi-subagent would refuse is not an agent either, and a path claimed by
// two files is one agent (the first file by name).
func TestRecoveryDropsRejectedAndDuplicatePaths(t *testing.T) {
	b := newTreeBuilder(t)
	b.addAgent(spec{path: "/root/a", status: StatusCompleted, runs: 1, onBranch: true})
	b.addAgent(spec{path: "/root/b", status: StatusCompleted, onBranch: true})
	root := b.finish()
	b.writeState("{") // corrupt: agents come from the descriptors
	rewrite := func(from, to, file string) {
		data, err := os.ReadFile(b.files[from].path)
		if err != nil {
			t.Fatal(err)
		}
		out := strings.ReplaceAll(string(data), `"path":"`+from+`"`, `"path":"`+to+`"`)
		if err := os.WriteFile(file, []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sessions := filepath.Join(b.treeDir(), "sessions")
	rewrite("/root/b", "/root", filepath.Join(sessions, "z-root.jsonl"))
	rewrite("/root/b", "/root/a", filepath.Join(sessions, "zz-dup.jsonl"))
	tree := openBuilt(t, root)
	var paths []string
	for _, a := range tree.Agents {
		paths = append(paths, a.Path+"="+filepath.Base(a.File))
	}
	want := "/root/a=" + filepath.Base(b.files["/root/a"].path) + ",/root/b=" + filepath.Base(b.files["/root/b"].path)
	if got := strings.Join(paths, ","); got != want {
		t.Fatalf("agents %s, want %s", got, want)
	}
	if !hasDiag(tree, SevWarning, "is not a canonical agent path") || !hasDiag(tree, SevWarning, "already recovered from") {
		t.Errorf("diagnostics %v", tree.Diagnostics)
	}
}
