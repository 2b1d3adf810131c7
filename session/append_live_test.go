package session

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAppendFutureModificationSaysClockSkew: a file whose modification
// time is ahead of the clock is refused as possibly live, and the message
// says so instead of a negative age ("-23h59m ago").
func TestAppendFutureModificationSaysClockSkew(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	orig, _ := os.ReadFile(path)
	ahead := appendClock.Add(24*time.Hour - time.Minute)
	must(t, os.Chtimes(path, ahead, ahead))
	_, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, AppendOptions{Now: func() time.Time { return appendClock }})
	if err == nil {
		t.Fatal("appended to a file modified in the future without --force")
	}
	if msg := err.Error(); !strings.Contains(msg, "modified in the future (clock skew?)") || strings.Contains(msg, "-23h") || strings.Contains(msg, "ago") {
		t.Fatalf("message: %v", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, orig) {
		t.Fatal("a refused append changed the file")
	}
}

// TestAppendRefusesWhilePiRuns: a Pi process in the session's project
// holds the session in memory; Append refuses naming it unless forced.
func TestAppendRefusesWhilePiRuns(t *testing.T) {
	project := t.TempDir()
	data := []byte(`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T08:00:00.000Z","cwd":` + quoteJSON(project) + `}` + "\n" +
		`{"type":"message","id":"0000aaa2","parentId":null,"timestamp":"2026-11-20T08:00:01.000Z","message":{"role":"user","content":"Hello","timestamp":1795680001000}}` + "\n")
	path := stageBytes(t, data)
	var asked []string
	pi := func(p string) ([]PiProcess, error) {
		asked = append(asked, p)
		return []PiProcess{{PID: 4242, Command: "pi"}}, nil
	}
	opts := AppendOptions{Now: func() time.Time { return appendClock }, FindPi: pi}
	_, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, opts)
	var running *PiRunningError
	if !errors.Is(err, ErrPiRunning) || !errors.As(err, &running) || running.Processes[0].PID != 4242 {
		t.Fatalf("want a running-Pi refusal, got %v", err)
	}
	for _, want := range []string{"pid 4242", project, "in-memory leaf", "abandoned branch"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %v", want, err)
		}
	}
	if len(asked) != 1 || asked[0] != project {
		t.Fatalf("looked for Pi in %v, want the header's cwd %s", asked, project)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, data) {
		t.Fatal("a refused append changed the file")
	}
	// The caller's own last write does not excuse a running Pi.
	own := opts
	own.RecentWriteIsOwn = true
	if _, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, own); !errors.Is(err, ErrPiRunning) {
		t.Fatalf("own write: %v", err)
	}
	forced := opts
	forced.Force = true
	if _, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, forced); err != nil {
		t.Fatalf("--force: %v", err)
	}
}

// TestAppendRecentOwnWriteSkipsOnlyTheWindow: RecentWriteIsOwn lets a
// caller append again right after its own append.
func TestAppendRecentOwnWriteSkipsOnlyTheWindow(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	recent := appendClock.Add(-time.Second)
	must(t, os.Chtimes(path, recent, recent))
	opts := AppendOptions{Now: func() time.Time { return appendClock }, FindPi: noPi}
	if _, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, opts); !errors.Is(err, ErrLive) {
		t.Fatalf("recent file: %v", err)
	}
	opts.RecentWriteIsOwn = true
	if _, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, opts); err != nil {
		t.Fatalf("own recent write: %v", err)
	}
}

func noPi(string) ([]PiProcess, error) { return nil, nil }

// TestAppendRefusesAnotherProjectsSession: the caller's project must be
// the one the session's header names.
func TestAppendRefusesAnotherProjectsSession(t *testing.T) {
	project, other := t.TempDir(), t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	must(t, os.Symlink(project, link))
	data := []byte(`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T08:00:00.000Z","cwd":` + quoteJSON(project) + `}` + "\n" +
		`{"type":"message","id":"0000aaa2","parentId":null,"timestamp":"2026-11-20T08:00:01.000Z","message":{"role":"user","content":"Hello","timestamp":1795680001000}}` + "\n")
	path := stageBytes(t, data)
	opts := AppendOptions{Now: func() time.Time { return appendClock }, FindPi: noPi, Project: other}
	_, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, opts)
	if !errors.Is(err, ErrForeignProject) || !strings.Contains(err.Error(), project) || !strings.Contains(err.Error(), other) {
		t.Fatalf("foreign project: %v", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, data) {
		t.Fatal("a refused append changed the file")
	}
	// The same directory through a symbolic link is the same project.
	opts.Project = link
	if _, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, opts); err != nil {
		t.Fatalf("same project via a link: %v", err)
	}
}

// TestAppendMarksItsIDs: the default ids carry forgebench's mark, which a
// later read recognises from the file alone; ids Pi wrote do not.
func TestAppendMarksItsIDs(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	res, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("a", nil), CustomEntry("b", nil), LabelEntry("0000aaa2", "x")},
		AppendOptions{Now: func() time.Time { return appendClock }, FindPi: noPi})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	marked := map[string]bool{}
	for i := range s.Entries {
		e := &s.Entries[i]
		if len(e.ID) != 8 || strings.Trim(e.ID, "0123456789abcdef") != "" {
			t.Fatalf("id %q is not 8 lowercase hex digits", e.ID)
		}
		if WrittenByForgebench(e) {
			marked[e.ID] = true
		}
	}
	if len(marked) != 3 || !marked[res.IDs[0]] || !marked[res.IDs[1]] || !marked[res.IDs[2]] {
		t.Fatalf("marked %v, appended %v", marked, res.IDs)
	}
	// The mark binds the id to its parent: the same id under another
	// parent is not marked.
	e := s.Entries[len(s.Entries)-1]
	e.ParentID = "0000aaa1"
	if WrittenByForgebench(&e) {
		t.Fatal("a re-chained copy kept the mark")
	}
	// Random ids carry it about once in 2^20.
	hits := 0
	for range 20000 {
		e.ID = randomEntryID()
		if WrittenByForgebench(&e) {
			hits++
		}
	}
	if hits > 2 {
		t.Fatalf("%d of 20000 random ids look marked", hits)
	}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
