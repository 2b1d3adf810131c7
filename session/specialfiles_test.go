//go:build unix

package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/forgebench/forgebench/test/hostile"
)

// mkfifo creates a FIFO at path (created at test time: a FIFO cannot be
// committed).
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// specialSessionPaths builds a directory holding a valid session, a FIFO,
// a symlink to /dev/zero and a directory, all named *.jsonl.
func specialSessionPaths(t *testing.T) (dir, valid, fifo, zero, subdir string) {
	t.Helper()
	dir = t.TempDir()
	valid = filepath.Join(dir, "valid.jsonl")
	if err := os.WriteFile(valid, []byte(testHeader+"\n"+entryLine("e1", "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo = filepath.Join(dir, "fifo.jsonl")
	mkfifo(t, fifo)
	zero = filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	subdir = filepath.Join(dir, "dir.jsonl")
	if err := os.Mkdir(subdir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, valid, fifo, zero, subdir
}

func TestOpenRefusesSpecialFiles(t *testing.T) {
	_, valid, fifo, zero, subdir := specialSessionPaths(t)
	for _, c := range []struct{ path, kind string }{
		{fifo, "named pipe"}, {zero, "character device"}, {subdir, "directory"},
	} {
		returnsWithin(t, "Open "+c.path, func() {
			_, err := Open(c.path)
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), c.kind) {
				t.Errorf("Open(%s) = %v, want ErrNotRegular naming a %s", filepath.Base(c.path), err, c.kind)
			}
		})
		returnsWithin(t, "OpenHeader "+c.path, func() {
			if _, err := OpenHeader(c.path); !errors.Is(err, ErrNotRegular) {
				t.Errorf("OpenHeader(%s) = %v, want ErrNotRegular", filepath.Base(c.path), err)
			}
		})
		returnsWithin(t, "Tail "+c.path, func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if _, err := TailWithOptions(ctx, c.path, 0, TailOptions{NoWatch: true}); !errors.Is(err, ErrNotRegular) {
				t.Errorf("Tail(%s) = %v, want ErrNotRegular", filepath.Base(c.path), err)
			}
		})
	}
	if _, err := Open(valid); err != nil {
		t.Fatalf("a regular session must still open: %v", err)
	}
}

// Discovery lists special *.jsonl files with a problem instead of blocking
// on them (a FIFO made `session list` and the Session panel hang).
func TestDiscoveryReportsSpecialFiles(t *testing.T) {
	dir, valid, fifo, zero, _ := specialSessionPaths(t)
	var items []ListItem
	returnsWithin(t, "ListDir", func() {
		var err error
		items, err = ListDir(dir, ListOptions{})
		if err != nil {
			t.Error(err)
		}
	})
	problems := map[string]string{}
	for _, it := range items {
		problems[it.Path] = it.Problem
	}
	if p, ok := problems[valid]; !ok || p != "" {
		t.Errorf("valid session: listed %v, problem %q", ok, p)
	}
	for path, kind := range map[string]string{fifo: "named pipe", zero: "character device"} {
		if p := problems[path]; !strings.Contains(p, "not a regular file") || !strings.Contains(p, kind) {
			t.Errorf("%s: problem %q, want one naming a %s", filepath.Base(path), p, kind)
		}
	}
	if _, listed := problems[filepath.Join(dir, "dir.jsonl")]; listed {
		t.Error("a directory named *.jsonl is not a session candidate")
	}
	returnsWithin(t, "SummarizeFile", func() {
		if it := SummarizeFile(fifo, ListOptions{}); !strings.Contains(it.Problem, "named pipe") {
			t.Errorf("SummarizeFile(fifo).Problem = %q", it.Problem)
		}
	})
}

// A settings file that is a FIFO must not block location resolution.
func TestResolveLocationsSettingsFIFO(t *testing.T) {
	agent := t.TempDir()
	mkfifo(t, filepath.Join(agent, "settings.json"))
	returnsWithin(t, "ResolveLocationsFor", func() {
		loc, _ := ResolveLocationsFor(t.TempDir(), agent, "", func(string) string { return "" }, t.TempDir())
		if loc.SessionDir != "" {
			t.Errorf("session dir %q from a FIFO", loc.SessionDir)
		}
	})
}

// Reads are bounded by the size at open: bytes appended while the file is
// read are not part of the snapshot.
func TestOpenReadsTheSizeAtOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grow.jsonl")
	if err := os.WriteFile(path, []byte(testHeader+"\n"+entryLine("e1", "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, err := openRegular(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString(entryLine("e2", "e1") + "\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s, err := readOpened(f, fi, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 1 || s.Size != fi.Size() {
		t.Fatalf("entries %d size %d, want 1 entry and %d bytes", len(s.Entries), s.Size, fi.Size())
	}
}

// The payload reader refuses special files too: a FIFO given as a capture
// must not block it (session/stats holds the digest's test).
func TestPayloadRefusesSpecialFiles(t *testing.T) {
	_, _, fifo, zero, _ := specialSessionPaths(t)
	for _, path := range []string{fifo, zero} {
		returnsWithin(t, "ReadPayloadFile "+filepath.Base(path), func() {
			if _, err := ReadPayloadFile(path); !errors.Is(err, ErrNotRegular) {
				t.Errorf("ReadPayloadFile(%s) = %v, want ErrNotRegular", filepath.Base(path), err)
			}
		})
	}
}

// Append opens its file for writing before it takes the write lock: a
// FIFO or a link to /dev/zero where the session was is refused at once,
// not opened (which could block) nor appended to.
func TestAppendRefusesSpecialFiles(t *testing.T) {
	for _, kind := range hostile.SpecialKinds {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		hostile.MakeSpecial(t, path, kind)
		var err error
		returnsWithin(t, "Append to a "+kind, func() {
			_, err = Append(path, Guard{}, []NewEntry{CustomEntry("x", nil)}, AppendOptions{Force: true})
		})
		var nr *NotRegularError
		if !errors.As(err, &nr) {
			t.Errorf("Append to a %s: %v, want a not-regular refusal", kind, err)
		}
	}
}
