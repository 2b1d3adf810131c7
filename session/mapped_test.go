package session

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain maps every session file the tests open, however small, so the
// whole suite runs through the mapped reader where the platform maps;
// TestMappedMatchesRead compares it with the chunked reader.
func TestMain(m *testing.M) {
	mapMinBytes = 1
	os.Exit(m.Run())
}

// mapsFiles reports whether this platform maps session files.
func mapsFiles(t *testing.T) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "probe")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("x")
	if _, _, err := mapFile(f, f.Name(), 1); err != nil {
		t.Skipf("session files are read, not mapped, here: %v", err)
	}
}

// mappingOf returns the live mapping holding the session's entries.
func mappingOf(s *Session) *mapping {
	if len(s.Entries) == 0 {
		return nil
	}
	return mappingAt(addrOf(s.Entries[len(s.Entries)-1].Raw))
}

// sameSession compares what two reads of one file produced.
func sameSession(t *testing.T, name string, a, b *Session) {
	t.Helper()
	if !reflect.DeepEqual(a.Diagnostics, b.Diagnostics) || a.Size != b.Size || a.Migrated != b.Migrated ||
		!reflect.DeepEqual(a.Header, b.Header) || len(a.Entries) != len(b.Entries) {
		t.Fatalf("%s: mapped %+v (%d entries), read %+v (%d entries)", name, a.Diagnostics, len(a.Entries), b.Diagnostics, len(b.Entries))
	}
	for i := range a.Entries {
		ea, eb := a.Entries[i], b.Entries[i]
		if math.IsNaN(ea.timestampMs) && math.IsNaN(eb.timestampMs) {
			ea.timestampMs, eb.timestampMs = 0, 0
		}
		if !reflect.DeepEqual(ea, eb) {
			same := bytes.Equal(ea.Raw, eb.Raw)
			ea.Raw, eb.Raw = nil, nil
			t.Fatalf("%s: entry %d differs (same bytes: %v):\nmapped %+v\nread   %+v", name, i, same, ea, eb)
		}
	}
}

// readStream reads a file through the chunked stream reader.
func readStream(t *testing.T, path string, opt Options) *Session {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Read(plainReader{bytes.NewReader(data)}, opt)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// The mapped reader finds exactly the entries, diagnostics and skipped
// lines the chunked reader finds, on the repository's sessions, a generated
// big one and lines around the limit.
func TestMappedMatchesRead(t *testing.T) {
	mapsFiles(t)
	dir := t.TempDir()
	files, _ := filepath.Glob("testdata/*.jsonl")
	big, _ := writeGenerated(t, dir, 3<<20)
	files = append(files, big)
	huge := `{"type":"custom","id":"big","parentId":"e1","data":"` + strings.Repeat("y", 5000) + `"}`
	for name, body := range map[string]string{
		"limit.jsonl":      testHeader + "\n" + entryLine("e1", "") + "\n" + huge + "\n" + entryLine("e2", "e1") + "\n" + huge,
		"no-newline.jsonl": testHeader + "\n" + entryLine("e1", ""),
		"blank.jsonl":      "\n\n" + testHeader + "\r\n\n  \nnull\n[1]\n{bad\n" + entryLine("e1", ""),
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for _, path := range files {
		for _, opt := range []Options{{}, {MaxLineBytes: 5000}, {MaxLineBytes: 5050, Workers: 1}} {
			mapped, err := OpenWithOptions(path, opt)
			if err != nil {
				if _, rerr := Read(plainReader{bytes.NewReader(mustReadFile(t, path))}, opt); rerr == nil {
					t.Fatalf("%s: mapped read failed (%v), the stream read did not", path, err)
				}
				continue
			}
			if mappingOf(mapped) == nil && len(mapped.Entries) > 0 {
				t.Fatalf("%s was not mapped", path)
			}
			sameSession(t, filepath.Base(path), mapped, readStream(t, path, opt))
		}
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var sink int

// touchAll reads every byte of every entry and returns their sum.
func touchAll(s *Session) (sum int) {
	for i := range s.Entries {
		for _, c := range s.Entries[i].Raw {
			sum += int(c)
		}
	}
	return sum
}

func withoutWatch(t *testing.T) {
	t.Helper()
	registry.Lock()
	was := registry.noWatch
	registry.noWatch = true
	registry.Unlock()
	t.Cleanup(func() {
		registry.Lock()
		registry.noWatch = was
		registry.Unlock()
	})
}

// A mapped file truncated under a loaded session: touching the lost pages
// in a guarded call is ErrFileChanged, not a crash, and heals the mapping,
// so even unguarded code then reads zeros.
func TestTruncatedWhileMappedIsAnErrorNotACrash(t *testing.T) {
	mapsFiles(t)
	withoutWatch(t) // the guard alone must do it
	path, _ := writeGenerated(t, t.TempDir(), 2<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if mappingOf(s) == nil {
		t.Fatal("not mapped")
	}
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	err = GuardFaults(func() error { sink = touchAll(s); return nil })
	if !errors.Is(err, ErrFileChanged) || !strings.Contains(err.Error(), path) {
		t.Fatalf("guarded read of a truncated mapping: %v", err)
	}
	done := make(chan int)
	go func() { done <- touchAll(s) }() // an unguarded goroutine
	<-done
	last := s.Entries[len(s.Entries)-1].Raw
	if !bytes.Equal(last, make([]byte, len(last))) {
		t.Errorf("bytes past the new end read %q…, want zeros", last[:min(20, len(last))])
	}
	if first := s.Entries[0].Raw; first[0] != '{' {
		t.Errorf("bytes before the new end changed: %q", first[:min(20, len(first))])
	}
	// Decoding what is left is bad input, not a crash.
	if _, err := s.Entries[len(s.Entries)-1].Value(); err == nil {
		t.Error("a zeroed entry decoded")
	}
}

// The file watch heals a truncated mapping by itself, before any fault.
func TestWatchHealsTruncatedMapping(t *testing.T) {
	mapsFiles(t)
	path, _ := writeGenerated(t, t.TempDir(), 2<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m := mappingOf(s)
	registry.Lock()
	watching := registry.watcher != nil && registry.watched[path] > 0
	registry.Unlock()
	if m == nil || !watching {
		t.Skip("no file watch here")
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		m.mu.Lock()
		valid := m.valid
		m.mu.Unlock()
		if valid == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the watch did not heal the mapping")
		}
		time.Sleep(time.Millisecond)
	}
	if sum := touchAll(s); sum != 0 {
		t.Errorf("healed mapping sums to %d, want zeros", sum)
	}
}

// A file truncated while it is being read fails the read with
// ErrFileChanged.
func TestTruncatedDuringReadFails(t *testing.T) {
	mapsFiles(t)
	path, _ := writeGenerated(t, t.TempDir(), 2<<20)
	f, fi, err := openRegular(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, m, err := mapFile(f, path, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	s, err := readMapped(data, m, Options{})
	if !errors.Is(err, ErrFileChanged) || s != nil {
		t.Fatalf("read of a file truncated half-way: %v", err)
	}
}

// A file replaced by rename keeps its old contents under the mapping.
func TestReplacedWhileMappedKeepsItsBytes(t *testing.T) {
	mapsFiles(t)
	dir := t.TempDir()
	path, _ := writeGenerated(t, dir, 2<<20)
	before := mustReadFile(t, path)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	next := filepath.Join(dir, "next.jsonl")
	if err := os.WriteFile(next, []byte(testHeader+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, path); err != nil {
		t.Fatal(err)
	}
	last := s.Entries[len(s.Entries)-1]
	if !bytes.Contains(before, last.Raw) || touchAll(s) == 0 {
		t.Fatal("the mapping lost the replaced file's bytes")
	}
}

// A session that is no longer referenced gives its mapping back: the
// finalizer restores writable memory before the runtime reuses it.
func TestMappingReleasedWithItsSession(t *testing.T) {
	mapsFiles(t)
	path, _ := writeGenerated(t, t.TempDir(), 2<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m := mappingOf(s)
	if m == nil {
		t.Fatal("not mapped")
	}
	s = nil
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		m.mu.Lock()
		released := m.released
		m.mu.Unlock()
		if released {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the mapping was never released")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if mappingAt(m.addr) != nil {
		t.Error("a released mapping is still registered")
	}
	// The heap goes on working over the released range.
	for i := 0; i < 8; i++ {
		runtime.GC()
		b := make([]byte, 4<<20)
		for j := range b {
			b[j] = byte(j)
		}
	}
}

// Open on a huge line drops the skipped line's pages as it scans them.
func TestMappedSkipOfHugeLine(t *testing.T) {
	mapsFiles(t)
	path := filepath.Join(t.TempDir(), "huge.jsonl")
	huge := `{"type":"custom","id":"big","data":"` + strings.Repeat("z", 9<<20) + `"}`
	body := testHeader + "\n" + entryLine("e1", "") + "\n" + huge + "\n" + entryLine("e2", "e1") + "\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenWithOptions(path, Options{MaxLineBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	d := s.Diagnostics
	if len(s.Entries) != 2 || !reflect.DeepEqual(d.OversizedLines, []int{3}) || d.OversizedLineBytes[0] != int64(len(huge)) {
		t.Fatalf("entries %d, oversized %v %v", len(s.Entries), d.OversizedLines, d.OversizedLineBytes)
	}
	if d.Lines != 4 || d.MissingFinalNewline {
		t.Errorf("lines %d, missing newline %v", d.Lines, d.MissingFinalNewline)
	}
}

// FuzzMappedRead checks the in-place splitter of mapped files against the
// chunked stream reader on arbitrary bytes, with a small line limit so
// lines are skipped too.
func FuzzMappedRead(f *testing.F) {
	f.Add([]byte(testHeader + "\n" + entryLine("a", "") + "\n"))
	f.Add([]byte(testHeader + "\n" + strings.Repeat("x", 70) + "\n" + entryLine("a", "")))
	f.Add([]byte("\n\n" + testHeader + "\r\n" + entryLine("a", "") + "\n" + strings.Repeat(" ", 64)))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		f, err := os.CreateTemp(dir, "fuzz*.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		path := f.Name()
		defer os.Remove(path)
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{MaxLineBytes: 64, Workers: 2}
		mapped, merr := OpenWithOptions(path, opt)
		read, rerr := Read(plainReader{bytes.NewReader(data)}, Options{MaxLineBytes: 64, ChunkBytes: 29, Workers: 2})
		if (merr == nil) != (rerr == nil) {
			t.Fatalf("mapped error %v, read error %v", merr, rerr)
		}
		if merr == nil {
			sameSession(t, "fuzz", mapped, read)
		}
	})
}

// RepairNotes skips building the tree only when TreeNotes would say
// nothing: the repository's sessions, including cycles and orphans.
func TestRepairNotesMatchTreeNotes(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	hostile, _ := filepath.Glob("../test/hostile/sessions/*.jsonl")
	noted := 0
	for _, path := range append(files, hostile...) {
		s, err := OpenForDisplay(path)
		if err != nil {
			continue
		}
		want := s.TreeNotes(s.Tree())
		if got := s.RepairNotes(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: RepairNotes %q, TreeNotes %q", path, got, want)
		}
		if len(want) > 0 {
			noted++
		}
	}
	if noted == 0 {
		t.Error("no session with tree notes was checked")
	}
	// An entry that names itself as its parent is noted too.
	self := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}
{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}
{"type":"message","id":"b","parentId":"b","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"again"}}
`
	s, err := Read(strings.NewReader(self), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := s.TreeNotes(s.Tree())
	if got := s.RepairNotes(); len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("self-parent: RepairNotes %q, TreeNotes %q", got, want)
	}
}

// TestTruncatedSessionSaysSo: a mapped session whose file the watch finds
// cut says so (the Session panel and the header name it instead of
// drawing the zeros); one that is read, and one whose file only grew,
// do not.
func TestTruncatedSessionSaysSo(t *testing.T) {
	mapsFiles(t)
	path, _ := writeGenerated(t, t.TempDir(), 2<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Truncated() {
		t.Fatal("a fresh session is not truncated")
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n")
	f.Close()
	if err := os.Truncate(path, 1<<20+17); err != nil { // mid-line
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !s.Truncated() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond) // the watch heals the mapping on its own goroutine
	}
	if !s.Truncated() {
		t.Fatal("the watch did not report the cut file")
	}
	read, err := Read(strings.NewReader(testHeader+"\n"), Options{})
	if err != nil || read.Truncated() {
		t.Fatalf("a read session: %v, truncated %v", err, read != nil && read.Truncated())
	}
}
