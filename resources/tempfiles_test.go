package resources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tempNamesIn lists the names in dir that look like temporary files of any
// forgebench version.
func tempNamesIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if isOwnTempName(e.Name()) || isLegacyTempName(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// Temporary names are short and fixed-length, whatever the target's name.
func TestTempNamesAreShort(t *testing.T) {
	dir := t.TempDir()
	f, err := createTemp(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	f.Close()
	name := filepath.Base(f.Name())
	if len(name) > 48 || !strings.HasPrefix(name, ".") || !isOwnTempName(name) {
		t.Errorf("temporary name %q", name)
	}
	if pid, ok := tempWriterPID(name); !ok || pid != os.Getpid() {
		t.Errorf("writer pid of %q = %d, %v", name, pid, ok)
	}
}

// Stale temporary files — an hour old, or left by a writer that is gone —
// are removed by the next write in their directory; fresh ones of a live
// writer, and everything that is not ours, stay.
func TestNextWriteRemovesStaleTempFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "prompt-stacks")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	mk := func(name string, mtime time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	live := mk(tempNameFor(hostMarker(), os.Getpid(), "00000001"), time.Now()) // this process: alive
	liveOld := mk(tempNameFor(hostMarker(), os.Getpid(), "00000002"), old)     // alive but an hour old
	gone := mk(tempNameFor(hostMarker(), deadPID(t), "00000003"), time.Now())  // writer gone
	legacyOld := mk(".a.json.tmp-123456789", old)                              // older forgebench, an hour old
	legacyNew := mk(".b.json.tmp-42", time.Now())                              // older forgebench, recent
	otherHost := mk(tempNameFor(otherHostMarker(), 1, "00000004"), time.Now()) // another host's writer
	userFile := mk(".notes.tmp-1", old)                                        // not a .json temp: not ours
	plain := mk("keep.json.tmp-1", old)                                        // not hidden: not ours
	if err := WriteFileAtomic(filepath.Join(dir, "target.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	for p, want := range map[string]bool{
		live: true, liveOld: false, gone: false, legacyOld: false, legacyNew: true,
		otherHost: true, userFile: true, plain: true,
	} {
		if exists(p) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), exists(p), want)
		}
	}
}

// Outside a resource directory — where an export writes — a file named
// like an earlier version's temporary file may be another program's
// (os.CreateTemp with a ".x.json.tmp-*" pattern): it stays, however old.
// Our own stale temporary files still go.
func TestExportDirectoriesKeepOtherProgramsTempFiles(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	theirs := filepath.Join(dir, ".report.json.tmp-123456")
	ours := filepath.Join(dir, tempNameFor(hostMarker(), os.Getpid(), "0000000a"))
	for _, p := range []string{theirs, ours} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFileExclusive(filepath.Join(dir, "export.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(theirs); err != nil {
		t.Errorf("another program's temporary file was removed: %v", err)
	}
	if _, err := os.Lstat(ours); err == nil {
		t.Error("our stale temporary file stayed")
	}
}

// otherHostMarker is a host marker that is not this host's.
func otherHostMarker() string {
	m := []byte(hostMarker())
	if m[0] == '0' {
		m[0] = '1'
	} else {
		m[0] = '0'
	}
	return string(m)
}

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{})
	if err != nil {
		t.Skipf("start a process: %v", err)
	}
	pid := p.Pid
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	return pid
}

// Discovery never lists a temporary file, whatever it holds.
func TestLibraryIgnoresTempFiles(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		projStacks + tempNameFor(hostMarker(), 1, "0000000a"): stackJSON("from-temp", ""),
		projStacks + ".x.json.tmp-12":                         stackJSON("from-legacy-temp", ""),
		projStacks + "real.json":                              stackJSON("real", ""),
	})
	lib := mustLoad(t, ws)
	if len(lib.Presets) != 1 || lib.Presets[0].ID != "real" {
		t.Errorf("library lists %s", summary(lib))
	}
}

// FuzzTempNames checks the temporary-name parser: it never panics, what it
// accepts is exactly what tempNameFor builds, and no name the library or
// session discovery would list (*.json, *.jsonl) is ever taken for ours.
func FuzzTempNames(f *testing.F) {
	f.Add(tempNameFor("abcdef", 42, "0123abcd"))
	f.Add(".a.json.tmp-123")
	f.Add(".forgebench-abcdef-+5-0123abcd.tmp")
	f.Add(".forgebench-abcdef-007-0123abcd.tmp")
	f.Add(".forgebench-abcdef--1-0123abcd.tmp")
	f.Add(".forgebench-abcdef-1-0123abcd.tmp.json")
	f.Fuzz(func(t *testing.T, name string) {
		host, pid, ok := parseTempName(name)
		if ok {
			random := strings.TrimSuffix(name[strings.LastIndexByte(name, '-')+1:], tempSuffix)
			if tempNameFor(host, pid, random) != name {
				t.Fatalf("%q parsed as %s/%d/%s", name, host, pid, random)
			}
		}
		if (ok || isLegacyTempName(name)) && (strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl") || name[0] != '.') {
			t.Fatalf("%q would be both a temporary file and a listed file", name)
		}
	})
}
