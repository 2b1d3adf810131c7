package resources

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestMigrateStacks(t *testing.T) {
	files := map[string]string{
		legacy + "a.json":     stackJSON("a", ""),
		legacy + "b.json":     stackJSON("b", `,"name":"legacy b"`),
		legacy + "notes.txt":  "not a stack",
		projStacks + "b.json": stackJSON("b", `,"name":"forge b"`),
	}
	ws := newWorkspace(t, files)
	src, dst := LegacyPresetsDir(ws.Cwd), StorageDir(ws, KindPreset, ScopeProject)

	// Dry run: report only.
	r, err := MigrateStacks(ws, true, false, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []MigrationFile{
		{Name: "a.json", SourcePath: filepath.Join(src, "a.json"), TargetPath: filepath.Join(dst, "a.json"), Action: MigrateCopy, DeleteLegacy: true},
		{Name: "b.json", SourcePath: filepath.Join(src, "b.json"), TargetPath: filepath.Join(dst, "b.json"), Action: MigrateSkip, Reason: "target already exists"},
	}
	if !equalFiles(r.Files, want) || r.Copied != 1 || r.Skipped != 1 || r.DeletedLegacy != 0 {
		t.Errorf("dry run report %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dst, "a.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("dry run wrote a file")
	}

	// Overwrite without deleting: both copied byte for byte.
	r, err = MigrateStacks(ws, false, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Copied != 1 || r.Overwritten != 1 || r.Errors != 0 || r.Files[1].Action != MigrateOverwrite {
		t.Errorf("overwrite report %+v", r)
	}
	for _, name := range []string{"a.json", "b.json"} {
		if string(readBytes(t, filepath.Join(dst, name))) != files[legacy+name] {
			t.Errorf("%s not copied byte for byte", name)
		}
	}
	// Delete legacy: targets exist now, so without overwrite they are skipped
	// and nothing is deleted; with overwrite the legacy files go away.
	r, _ = MigrateStacks(ws, false, false, true)
	if r.Skipped != 2 || r.DeletedLegacy != 0 {
		t.Errorf("skip report %+v", r)
	}
	r, _ = MigrateStacks(ws, false, true, true)
	if r.Overwritten != 2 || r.DeletedLegacy != 2 {
		t.Errorf("delete report %+v", r)
	}
	if _, err := os.Stat(filepath.Join(src, "a.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("legacy file not deleted")
	}
	lib := mustLoad(t, ws)
	if got := summary(lib); got != "preset project:a a.json\npreset project:b b.json\n" {
		t.Errorf("library after migration:\n%s", got)
	}
	// No legacy directory: an empty report.
	if r, err := MigrateStacks(ws, false, false, false); err != nil || len(r.Files) != 0 {
		t.Errorf("empty migration %+v %v", r, err)
	}
}

func TestMigrateRefusesSymlinks(t *testing.T) {
	ws := newWorkspace(t, map[string]string{legacy + "a.json": stackJSON("a", ""), "p/elsewhere/.keep": ""})
	if err := os.MkdirAll(filepath.Join(ws.Cwd, ".pi", "forge"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws.Cwd, "elsewhere"), StorageDir(ws, KindPreset, ScopeProject)); err != nil {
		t.Fatal(err)
	}
	r, err := MigrateStacks(ws, false, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 1 || r.Files[0].Action != MigrateError || r.Errors != 1 ||
		r.Files[0].Reason != "Migration path is outside prompt-stack storage or traverses a symbolic link." {
		t.Errorf("symlink migration report %+v", r)
	}
	if _, err := os.Stat(filepath.Join(ws.Cwd, "elsewhere", "a.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("migration wrote through a symlink")
	}
	if _, err := os.Stat(filepath.Join(LegacyPresetsDir(ws.Cwd), "a.json")); err != nil {
		t.Error("legacy file deleted after a refused copy")
	}
}

func equalFiles(a, b []MigrationFile) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// pi-forge refuses a migration in an untrusted project but still runs a dry
// run (it writes nothing); the report lists what would be copied.
func TestMigrateDryRunWhileUntrusted(t *testing.T) {
	ws := newWorkspace(t, map[string]string{legacy + "l.json": stackJSON("l", "")})
	ws.Trust = Trust{Trusted: false, Source: "test"}
	rep, err := MigrateStacks(ws, true, false, true)
	if err != nil {
		t.Fatalf("untrusted dry run refused: %v", err)
	}
	if len(rep.Files) != 1 || rep.Files[0].Action != MigrateCopy || rep.Copied != 1 || rep.DeletedLegacy != 0 {
		t.Fatalf("dry run report: %+v", rep)
	}
	if _, err := os.Stat(wsPath(ws, projStacks+"l.json")); err == nil {
		t.Fatal("an untrusted dry run wrote a file")
	}
	if _, err := os.Stat(wsPath(ws, legacy+"l.json")); err != nil {
		t.Fatal("an untrusted dry run deleted the legacy file")
	}
	if _, err := MigrateStacks(ws, false, false, false); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("untrusted migration: %v", err)
	}
}
