package resources

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

func TestCheckTargetMessages(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"g/elsewhere/x.json": "{}"})
	pRoot := StorageDir(ws, KindPreset, ScopeProject)
	gRoot := StorageDir(ws, KindPreset, ScopeGlobal)
	cRoot := StorageDir(ws, KindCapability, ScopeProject)
	prRoot := StorageDir(ws, KindProfile, ScopeGlobal)
	if err := os.MkdirAll(filepath.Join(cRoot, "dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(ws.ForgeDir, "elsewhere", "x.json")
	cases := []struct {
		kind     Kind
		scope    Scope
		path, id string
		sentinel error
		wantMsg  string
	}{
		{KindPreset, ScopeProject, filepath.Join(pRoot, "a.json"), "a", nil, ""},
		{KindPreset, ScopeProject, outside, "", ErrRefused, "Prompt stack path is outside project prompt-stack storage or traverses a symbolic link: " + outside},
		{KindPreset, ScopeGlobal, filepath.Join(gRoot, "sub", "a.json"), "", ErrRefused, "Prompt stack path is outside global prompt-stack storage or traverses a symbolic link: " + filepath.Join(gRoot, "sub", "a.json")},
		{KindPreset, ScopeProject, filepath.Join(pRoot, ".a.json"), "", ErrRefused, "Prompt stack path is outside project prompt-stack storage or traverses a symbolic link: " + filepath.Join(pRoot, ".a.json")},
		{KindPreset, ScopeProject, filepath.Join(pRoot, "a.json"), "b", ErrRefused, "Invalid ID or rename mismatch: a.json"},
		{KindProfile, ScopeGlobal, outside, "", ErrRefused, "Profile path is outside global agent-profile storage or traverses a symbolic link: " + outside},
		{KindProfile, ScopeGlobal, filepath.Join(prRoot, "r.json"), "r", nil, ""},
		{KindCapability, ScopeProject, outside, "", ErrRefused, "Path is outside project root (" + cRoot + "): " + outside},
		{KindCapability, ScopeProject, filepath.Join(cRoot, ".h.json"), "", ErrRefused, "File must be a non-hidden .json file: .h.json"},
		{KindCapability, ScopeProject, filepath.Join(cRoot, "a.txt"), "", ErrRefused, "File must be a non-hidden .json file: a.txt"},
		{KindCapability, ScopeProject, filepath.Join(cRoot, "-a.json"), "", ErrRefused, "Invalid ID or rename mismatch: -a.json"},
		{KindCapability, ScopeProject, filepath.Join(cRoot, "dir.json"), "", ErrRefused, "Path is a directory: " + filepath.Join(cRoot, "dir.json")},
		{KindCapability, "team", filepath.Join(cRoot, "a.json"), "", ErrRefused, "Invalid scope: team"},
		{KindCapability, ScopeProject, "", "", ErrRefused, "File path is required."},
	}
	for _, c := range cases {
		err := CheckTarget(ws, c.kind, c.scope, c.path, c.id)
		if c.sentinel == nil {
			if err != nil {
				t.Errorf("%s %s %s: unexpected %v", c.kind, c.scope, c.path, err)
			}
			continue
		}
		if !errors.Is(err, c.sentinel) || err.Error() != c.wantMsg {
			t.Errorf("%s %s %s:\n got %v\nwant %s", c.kind, c.scope, c.path, err, c.wantMsg)
		}
	}
}

func TestSymlinkRefusals(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		"p/real-stacks/s.json": stackJSON("s", ""),
		"g/real/c.json":        capJSON("c"),
	})
	// A symlinked project prompt-stacks directory: readable, never writable.
	if err := os.MkdirAll(filepath.Join(ws.Cwd, ".pi", "forge"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws.Cwd, "real-stacks"), StorageDir(ws, KindPreset, ScopeProject)); err != nil {
		t.Fatal(err)
	}
	lib := mustLoad(t, ws)
	p, err := lib.ResolvePreset("s")
	if err != nil {
		t.Fatalf("a symlinked directory is still read: %v", err)
	}
	before := readBytes(t, p.Path)
	stack := *p.Stack
	_, err = SavePreset(ws, ScopeProject, "s", &stack, p.SourceRevision)
	wantMsg := "Prompt stack path is outside project prompt-stack storage or traverses a symbolic link: " + p.Path
	if !errors.Is(err, ErrRefused) || err.Error() != wantMsg {
		t.Errorf("save through symlinked dir: %v", err)
	}
	if _, err := CreatePreset(ws, ScopeProject, &preset.Stack{SchemaVersion: 1, ID: "new"}); !errors.Is(err, ErrRefused) {
		t.Errorf("create through symlinked dir: %v", err)
	}
	if _, err := DeletePreset(ws, ScopeProject, "s", p.SourceRevision); !errors.Is(err, ErrRefused) {
		t.Errorf("delete through symlinked dir: %v", err)
	}
	if !bytes.Equal(readBytes(t, p.Path), before) {
		t.Error("file changed through a refused write")
	}

	// A symlinked file inside a real global capabilities directory.
	cdir := StorageDir(ws, KindCapability, ScopeGlobal)
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(cdir, "c.json")
	if err := os.Symlink(filepath.Join(ws.ForgeDir, "real", "c.json"), link); err != nil {
		t.Fatal(err)
	}
	lib = mustLoad(t, ws)
	c, err := lib.ResolveCapability("global:c")
	if err != nil {
		t.Fatalf("a symlinked capability file is still read: %v", err)
	}
	if _, err := SaveCapability(ws, ScopeGlobal, "c", c.Capability, c.SourceRevision); !errors.Is(err, ErrRefused) ||
		err.Error() != "Path traverses or targets a symlink: "+link {
		t.Errorf("save of symlinked capability: %v", err)
	}
	if _, err := DeleteCapability(ws, ScopeGlobal, "c", c.SourceRevision); !errors.Is(err, ErrRefused) {
		t.Errorf("delete of symlinked capability: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("symlink was replaced")
	}

	// The capability anchor itself (the global forge root) may not be a link.
	linkedRoot := filepath.Join(filepath.Dir(ws.ForgeDir), "forge-link")
	if err := os.Symlink(ws.ForgeDir, linkedRoot); err != nil {
		t.Fatal(err)
	}
	ws2 := ws
	ws2.ForgeDir = linkedRoot
	target := TargetPath(ws2, KindCapability, ScopeGlobal, "fresh")
	if err := CheckTarget(ws2, KindCapability, ScopeGlobal, target, "fresh"); !errors.Is(err, ErrRefused) ||
		err.Error() != "Path traverses or targets a symlink: "+target {
		t.Errorf("symlinked anchor: %v", err)
	}
}

func readBytes(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCreateSaveDeletePreset(t *testing.T) {
	ws := newWorkspace(t, nil)
	stack, _ := preset.Parse([]byte(stackJSON("fresh", `,"name":"Fresh"`)), "fresh.json")
	res, err := CreatePreset(ws, ScopeProject, stack)
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != TargetPath(ws, KindPreset, ScopeProject, "fresh") || res.SourceRevision != sourceRevision(readBytes(t, res.Path)) {
		t.Fatalf("create result %+v", res)
	}
	if !bytes.Equal(readBytes(t, res.Path), preset.Serialize(stack)) {
		t.Error("created file is not the pi-forge serialization")
	}
	if _, err := CreatePreset(ws, ScopeProject, stack); !errors.Is(err, ErrConflict) || err.Error() != "Prompt stack already exists: "+res.Path {
		t.Errorf("second create: %v", err)
	}

	lib := mustLoad(t, ws)
	p, err := lib.ResolvePreset("fresh")
	if err != nil || p.SourceRevision != res.SourceRevision {
		t.Fatalf("reload: %v %s", err, p.SourceRevision)
	}
	edited := *p.Stack
	name := "Edited"
	edited.Name = &name

	// Stale and missing revisions leave the file byte-identical.
	original := readBytes(t, p.Path)
	stale := strings.Repeat("0", 64)
	for _, c := range []struct{ rev, msg string }{
		{"", "expectedSourceRevision is required."},
		{stale, "Revision conflict: expected " + stale + ", got " + p.SourceRevision + "."},
	} {
		if _, err := SavePreset(ws, ScopeProject, "fresh", &edited, c.rev); !errors.Is(err, ErrConflict) || err.Error() != c.msg {
			t.Errorf("save with %q: %v", c.rev, err)
		}
		if _, err := DeletePreset(ws, ScopeProject, "fresh", c.rev); !errors.Is(err, ErrConflict) || err.Error() != c.msg {
			t.Errorf("delete with %q: %v", c.rev, err)
		}
		if !bytes.Equal(readBytes(t, p.Path), original) {
			t.Fatal("refused write changed the file")
		}
	}
	// Ids are immutable on save.
	renamed := edited
	renamed.ID = "other"
	if _, err := SavePreset(ws, ScopeProject, "fresh", &renamed, p.SourceRevision); !errors.Is(err, ErrInvalid) ||
		err.Error() != "Invalid ID or rename mismatch: fresh.json" {
		t.Errorf("rename on save: %v", err)
	}
	saved, err := SavePreset(ws, ScopeProject, "fresh", &edited, p.SourceRevision)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readBytes(t, p.Path), []byte(`"name": "Edited"`)) || saved.SourceRevision == p.SourceRevision {
		t.Error("save did not write the edit")
	}
	// The old revision is now stale.
	if _, err := SavePreset(ws, ScopeProject, "fresh", &edited, p.SourceRevision); !errors.Is(err, ErrConflict) {
		t.Errorf("second save with the old revision: %v", err)
	}
	// Fork to a new id in the global scope.
	lib = mustLoad(t, ws)
	p, _ = lib.ResolvePreset("fresh")
	forked, err := ForkPreset(ws, p, ScopeGlobal, "fresh-copy")
	if err != nil {
		t.Fatal(err)
	}
	lib = mustLoad(t, ws)
	if f, err := lib.ResolvePreset("global:fresh-copy"); err != nil || f.Name() != "Edited" || f.Path != forked.Path {
		t.Errorf("fork: %v", err)
	}
	if _, err := DeletePreset(ws, ScopeProject, "fresh", saved.SourceRevision); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Error("delete left the file")
	}
	if _, err := DeletePreset(ws, ScopeProject, "fresh", saved.SourceRevision); !errors.Is(err, ErrConflict) ||
		err.Error() != "File does not exist: "+p.Path {
		t.Errorf("delete of a missing file: %v", err)
	}
}

func TestCapabilityWrites(t *testing.T) {
	ws := newWorkspace(t, map[string]string{globCaps + "taken.json": capJSON("taken")})
	lib := mustLoad(t, ws)
	taken, _ := lib.ResolveCapability("taken")
	if _, err := CreateCapability(ws, ScopeGlobal, taken.Capability); !errors.Is(err, ErrConflict) ||
		err.Error() != "Capability capability already exists: "+taken.Path {
		t.Errorf("create over existing: %v", err)
	}
	bad := taken.Capability.Clone()
	bad.ID, bad.Content = "empty", " "
	if _, err := CreateCapability(ws, ScopeGlobal, bad); !errors.Is(err, ErrInvalid) ||
		err.Error() != "Capability capability must have non-empty content or at least one tool effect (add or remove)." {
		t.Errorf("invalid capability: %v", err)
	}
	forked, err := ForkCapability(ws, taken, ScopeProject, "mine")
	if err != nil {
		t.Fatal(err)
	}
	lib = mustLoad(t, ws)
	mine, err := lib.ResolveCapability("mine")
	if err != nil || mine.Scope != ScopeProject || mine.SourceRevision != forked.SourceRevision {
		t.Fatalf("forked capability: %v", err)
	}
	edit := mine.Capability.Clone()
	edit.Content = "Be thorough."
	if _, err := SaveCapability(ws, ScopeProject, "mine", edit, mine.SourceRevision); err != nil {
		t.Fatal(err)
	}
	if _, err := DeleteCapability(ws, ScopeProject, "mine", mine.SourceRevision); !errors.Is(err, ErrConflict) {
		t.Errorf("delete with the pre-save revision: %v", err)
	}
}

func TestUntrustedWritesRefused(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projStacks + "p.json": stackJSON("p", ""), legacy + "l.json": stackJSON("l", "")})
	rev := sourceRevision(readBytes(t, wsPath(ws, projStacks+"p.json")))
	ws.Trust = Trust{Trusted: false, Source: "test"}
	stack, _ := preset.Parse([]byte(stackJSON("p", "")), "p.json")
	capStack := &preset.Stack{SchemaVersion: 1, ID: "q"}
	checks := []struct {
		name string
		err  error
		msg  string
	}{}
	add := func(name string, err error, msg string) {
		checks = append(checks, struct {
			name string
			err  error
			msg  string
		}{name, err, msg})
	}
	_, err := CreatePreset(ws, ScopeProject, capStack)
	add("create", err, "Project is not trusted; refusing to modify project prompt stacks.")
	_, err = SavePreset(ws, ScopeProject, "p", stack, rev)
	add("save", err, "Project is not trusted; refusing to modify project prompt stacks.")
	_, err = DeletePreset(ws, ScopeProject, "p", rev)
	add("delete", err, "Project is not trusted; refusing to modify project prompt stacks.")
	_, err = DeleteFile(ws, KindCapability, ScopeProject, "c", rev)
	add("capability delete", err, "Project is not trusted; capability writes are disabled.")
	_, err = MigrateStacks(ws, false, false, false)
	add("migrate", err, "pi-forge: project is not trusted; refusing to migrate prompt stacks.")
	for _, c := range checks {
		if !errors.Is(c.err, ErrUntrusted) || c.err.Error() != c.msg {
			t.Errorf("%s: %v", c.name, c.err)
		}
	}
	if _, err := os.Stat(wsPath(ws, projStacks+"l.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("untrusted migration wrote a file")
	}
	// The global scope stays writable.
	if _, err := CreatePreset(ws, ScopeGlobal, capStack); err != nil {
		t.Errorf("global create in an untrusted project: %v", err)
	}
}

func TestCreateFallsBackWithoutHardLinks(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projStacks + "taken.json": "{}"})
	linkHook = func(string, string) error { return &os.LinkError{Op: "link", Err: errPerm} }
	noReplaceHook = func(string, string) error { return errNoAtomicRename }
	defer func() { linkHook, noReplaceHook = os.Link, renameNoReplace }()
	stack := &preset.Stack{SchemaVersion: 1, ID: "nolink"}
	res, err := CreatePreset(ws, ScopeProject, stack)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readBytes(t, res.Path), preset.Serialize(stack)) {
		t.Error("fallback create wrote the wrong bytes")
	}
	// The O_EXCL claim still refuses a name that appeared after the check.
	if err := createExclusive(wsPath(ws, projStacks+"taken.json"), []byte("x"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("fallback create over an existing file: %v", err)
	}
	if got := string(readBytes(t, wsPath(ws, projStacks+"taken.json"))); got != "{}" {
		t.Errorf("existing file replaced: %q", got)
	}
	entries, _ := os.ReadDir(StorageDir(ws, KindPreset, ScopeProject))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// Without renameat2 (other platforms, some file systems) an exclusive
// create is a hard link, which refuses an existing name just as well.
func TestCreateWithoutRenameat2UsesALink(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projStacks + "taken.json": "{}"})
	noReplaceHook = func(string, string) error { return errNoAtomicRename }
	defer func() { noReplaceHook = renameNoReplace }()
	if err := createExclusive(wsPath(ws, projStacks+"taken.json"), []byte("x"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("linked create over an existing file: %v", err)
	}
	path := wsPath(ws, projStacks+"new.json")
	if err := createExclusive(path, []byte("new"), 0o644); err != nil || string(readBytes(t, path)) != "new" {
		t.Errorf("linked create: %v", err)
	}
	entries, _ := os.ReadDir(StorageDir(ws, KindPreset, ScopeProject))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

var errPerm = syscall.EPERM
