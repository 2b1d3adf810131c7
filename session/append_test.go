package session

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
)

var appendClock = time.Date(2026, 11, 29, 22, 47, 39, 368_900_000, time.UTC)

// stageSession copies a testdata file into a temp dir and backdates it so
// the live-file guard does not apply.
func stageSession(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/append", name))
	if err != nil {
		t.Fatal(err)
	}
	return stageBytes(t, data)
}

func stageBytes(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	must(t, os.WriteFile(path, data, 0o644))
	old := appendClock.Add(-time.Hour)
	must(t, os.Chtimes(path, old, old))
	return path
}

// fixedIDs returns the ids in order, then "" forever.
func fixedIDs(ids ...string) func() string {
	return func() string {
		if len(ids) == 0 {
			return ""
		}
		id := ids[0]
		ids = ids[1:]
		return id
	}
}

func guardOf(t *testing.T, path string) Guard {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return GuardOf(s)
}

func TestAppendWritesLikePi(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	orig, _ := os.ReadFile(path)
	g := guardOf(t, path)
	if g.LeafID != "0000aaa4" || g.Size != int64(len(orig)) {
		t.Fatalf("guard %+v", g)
	}
	data := jsonv.NewObject()
	data.Set("text", "<b>&\u2028é\x01")
	data.Set("n", 0.1)
	data.Set("10", true)
	res, err := Append(path, g, []NewEntry{
		CustomEntry("forgebench/note", data),
		LabelEntry("0000aaa2", "start"),
		SessionInfoEntry("  two\r\nlines "),
	}, AppendOptions{Now: func() time.Time { return appendClock }, NewID: fixedIDs("c0ffee01", "c0ffee02", "c0ffee03")})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"custom","customType":"forgebench/note","data":{"10":true,"text":"<b>&` + "\u2028é" + `\u0001","n":0.1},"id":"c0ffee01","parentId":"0000aaa4","timestamp":"2026-11-29T22:47:39.368Z"}` + "\n" +
		`{"type":"label","id":"c0ffee02","parentId":"c0ffee01","timestamp":"2026-11-29T22:47:39.368Z","targetId":"0000aaa2","label":"start"}` + "\n" +
		`{"type":"session_info","id":"c0ffee03","parentId":"c0ffee02","timestamp":"2026-11-29T22:47:39.368Z","name":"two lines"}` + "\n"
	got, _ := os.ReadFile(path)
	if !bytes.HasPrefix(got, orig) || string(got[len(orig):]) != want {
		t.Fatalf("appended:\n%s\nwant:\n%s", got[len(orig):], want)
	}
	if !slices.Equal(res.IDs, []string{"c0ffee01", "c0ffee02", "c0ffee03"}) || res.LeafID != "c0ffee03" ||
		res.Offset != int64(len(orig)) || res.Size != int64(len(got)) || res.RepairedNewline || res.Written != len(want) {
		t.Fatalf("result %+v", res)
	}

	// The file re-opens cleanly and the new entries continue the leaf's branch.
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Diagnostics.SkippedLines() != 0 || len(s.Entries) != 7 {
		t.Fatalf("reopen: %+v, %d entries", s.Diagnostics, len(s.Entries))
	}
	var ids []string
	for _, i := range s.PathTo(s.LeafIndex()) {
		ids = append(ids, s.Entries[i].ID)
	}
	if strings.Join(ids, ",") != "0000aaa1,0000aaa2,0000aaa4,c0ffee01,c0ffee02,c0ffee03" {
		t.Fatalf("branch %v", ids)
	}
	if name, ok := s.Name(); !ok || name != "two lines" {
		t.Fatalf("name %q", name)
	}
	if l, ok := s.LabelOf("0000aaa2"); !ok || l != "start" {
		t.Fatalf("label %q", l)
	}
	// The next append chains from the new leaf; a label can be cleared.
	res, err = Append(path, GuardOf(s), []NewEntry{LabelEntry("0000aaa2", "")}, AppendOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	s, _ = Open(path)
	leaf, _ := s.Leaf()
	if leaf.ParentID != "c0ffee03" || leaf.ID != res.LeafID || len(leaf.ID) != 8 || strings.Trim(leaf.ID, "0123456789abcdef") != "" {
		t.Fatalf("second append leaf %+v", leaf)
	}
	if _, ok := s.LabelOf("0000aaa2"); ok || strings.Contains(string(leaf.Raw), `"label":`) {
		t.Fatalf("label not cleared: %s", leaf.Raw)
	}
}

func TestAppendGuards(t *testing.T) {
	entry := []NewEntry{CustomEntry("x", nil)}
	opts := AppendOptions{Now: func() time.Time { return appendClock }}
	path := stageSession(t, "base.jsonl")
	orig, _ := os.ReadFile(path)
	g := guardOf(t, path)
	unchanged := func() {
		t.Helper()
		if now, _ := os.ReadFile(path); !bytes.Equal(now, orig) {
			t.Fatal("a refused append changed the file")
		}
	}

	stale := g
	stale.Size--
	if _, err := Append(path, stale, entry, opts); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale size: %v", err)
	}
	unchanged()
	stale = g
	stale.LeafID = "0000aaa3" // the other branch's tip is not the leaf
	if _, err := Append(path, stale, entry, opts); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale leaf: %v", err)
	}
	unchanged()

	// Modified 3 s "ago": live, refused unless forced.
	recent := appendClock.Add(-3 * time.Second)
	must(t, os.Chtimes(path, recent, recent))
	if _, err := Append(path, g, entry, opts); !errors.Is(err, ErrLive) {
		t.Fatalf("live file: %v", err)
	}
	unchanged()
	wide := opts
	wide.LiveWindow = time.Second
	if _, err := Append(path, g, entry, wide); err != nil {
		t.Fatalf("outside a 1 s live window: %v", err)
	}
	path = stageSession(t, "base.jsonl")
	must(t, os.Chtimes(path, recent, recent))
	forced := opts
	forced.Force = true
	if _, err := Append(path, g, entry, forced); err != nil {
		t.Fatalf("forced: %v", err)
	}
	// The guard taken before that append is now stale.
	if _, err := Append(path, g, entry, forced); !errors.Is(err, ErrConflict) {
		t.Fatalf("after a concurrent append: %v", err)
	}
}

func TestAppendNewlineRepair(t *testing.T) {
	for _, tc := range []struct {
		file, parent string
		malformed    int
	}{
		{"no-final-newline.jsonl", "0000aaa4", 0},
		// A torn last line is not an entry: the leaf is the line before it.
		{"truncated-last-line.jsonl", "0000aaa4", 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := stageSession(t, tc.file)
			orig, _ := os.ReadFile(path)
			res, err := Append(path, guardOf(t, path), []NewEntry{SessionInfoEntry("n")},
				AppendOptions{Now: func() time.Time { return appendClock }, NewID: fixedIDs("abcdef01")})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			line := `{"type":"session_info","id":"abcdef01","parentId":"` + tc.parent + `","timestamp":"2026-11-29T22:47:39.368Z","name":"n"}` + "\n"
			if string(got) != string(orig)+"\n"+line || !res.RepairedNewline || res.Offset != int64(len(orig))+1 {
				t.Fatalf("repair: %+v\n%s", res, got[len(orig):])
			}
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			leaf, _ := s.Leaf()
			if leaf.ID != "abcdef01" || s.Diagnostics.MalformedLines != tc.malformed || s.Diagnostics.MissingFinalNewline {
				t.Fatalf("reopen: leaf %s, %+v", leaf.ID, s.Diagnostics)
			}
		})
	}
}

func TestAppendIDsUnique(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	// Proposals collide with the file and with the batch itself.
	ids := fixedIDs("0000aaa1", "0000aaa4", "11111111", "11111111", "0000aaa2", "22222222")
	res, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("a", nil), CustomEntry("b", nil)},
		AppendOptions{Now: func() time.Time { return appendClock }, NewID: ids})
	if err != nil || !slices.Equal(res.IDs, []string{"11111111", "22222222"}) {
		t.Fatalf("ids %v, %v", res.IDs, err)
	}
	// A source that only repeats used ids falls back to a full UUID.
	s, _ := Open(path)
	res, err = Append(path, GuardOf(s), []NewEntry{CustomEntry("c", nil)},
		AppendOptions{Force: true, NewID: func() string { return "11111111" }})
	if err != nil || len(res.IDs[0]) != 36 || strings.Count(res.IDs[0], "-") != 4 {
		t.Fatalf("fallback id %v, %v", res.IDs, err)
	}
	// The default source gives 8 lowercase hex digits, unique in the file.
	seen := map[string]bool{}
	for range 200 {
		id := randomEntryID()
		if len(id) != 8 || strings.Trim(id, "0123456789abcdef") != "" || seen[id] {
			t.Fatalf("random id %q", id)
		}
		seen[id] = true
	}
}

func TestAppendRefusesBadEntries(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	orig, _ := os.ReadFile(path)
	g := guardOf(t, path)
	withKey := func(typ, k string, v any) NewEntry {
		f := jsonv.NewObject()
		f.Set(k, v)
		return NewEntry{Type: typ, Fields: f}
	}
	for name, entries := range map[string][]NewEntry{
		"none":           nil,
		"empty type":     {{Type: ""}},
		"header":         {{Type: TypeSession}},
		"context type":   {withKey(TypeMessage, "message", jsonv.NewObject())},
		"reserved key":   {withKey(TypeCustom, "parentId", "x")},
		"no customType":  {withKey(TypeCustom, "data", 1.0)},
		"no target":      {LabelEntry("", "x")},
		"second invalid": {CustomEntry("ok", nil), withKey(TypeLabel, "id", "x")},
	} {
		if _, err := Append(path, g, entries, AppendOptions{Force: true}); !errors.Is(err, ErrBadEntry) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, orig) {
		t.Fatal("refused entries changed the file")
	}
	if _, err := Append(filepath.Join(t.TempDir(), "missing.jsonl"), g, []NewEntry{CustomEntry("x", nil)}, AppendOptions{}); err == nil {
		t.Fatal("missing file must fail")
	}
	notSession := stageBytes(t, []byte(`{"type":"message","id":"x"}`+"\n"))
	if _, err := Append(notSession, Guard{Size: 28}, []NewEntry{CustomEntry("x", nil)}, AppendOptions{Force: true}); !errors.Is(err, ErrNotSession) {
		t.Fatalf("not a session: %v", err)
	}
	// v1/v2 files are never appended to (their ids exist only in memory).
	for _, old := range []string{"testdata/v1.jsonl", "testdata/v2.jsonl"} {
		data, err := os.ReadFile(old)
		if err != nil {
			t.Fatal(err)
		}
		p := stageBytes(t, data)
		if _, err := Append(p, guardOf(t, p), []NewEntry{CustomEntry("x", nil)}, AppendOptions{Force: true}); !errors.Is(err, ErrOldFormat) {
			t.Fatalf("%s: %v", old, err)
		}
	}
	// custom_message needs AllowContextTypes.
	cm := withKey(TypeCustomMessage, "customType", "n")
	if _, err := Append(path, g, []NewEntry{cm}, AppendOptions{Force: true, AllowContextTypes: true}); err != nil {
		t.Fatalf("allowed custom_message: %v", err)
	}
}

// TestAppendFixtureLines replays entries of Pi 1.6.0's own file: the file
// cut before the entry, plus Append of the same content with the same id and
// clock, must reproduce Pi's line byte for byte.
func TestAppendFixtureLines(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		"pi-sessions/generated-pi-1.6.0/agent/sessions/*/*.jsonl",
		"pi-subagent/synthetic-v5/agent/sessions/*/*.jsonl",
		"pi-subagent/synthetic-v5/agent/sessions/*/*.subagents/*/sessions/*.jsonl",
	} {
		files = append(files, fixtures.Glob(t, pattern)...)
	}
	replayed := 0
	for _, src := range files {
		replayed += replayFixture(t, src)
	}
	t.Logf("replayed %d of Pi's lines byte for byte", replayed)
	if replayed < 8 {
		t.Fatalf("replayed only %d entries", replayed)
	}
}

// replayFixture appends each custom, custom_message, label and session_info
// line of src (whose parent is the leaf, i.e. written by a plain append)
// onto the file cut before it and compares the bytes.
func replayFixture(t *testing.T, src string) int {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	replayed := 0
	for k := 1; k < len(lines); k++ {
		line := strings.TrimSuffix(lines[k], "\n")
		v, err := jsonv.Parse([]byte(line))
		if err != nil {
			continue
		}
		obj := v.(*jsonv.Object)
		typ, _ := obj.Get("type")
		if typ != TypeCustom && typ != TypeCustomMessage && typ != TypeLabel && typ != TypeSessionInfo {
			continue
		}
		fields := jsonv.NewObject()
		obj.Range(func(key string, val any) bool {
			if !slices.Contains(reservedKeys, key) {
				fields.Set(key, val)
			}
			return true
		})
		id, _ := obj.Get("id")
		parent, _ := obj.Get("parentId")
		ts, _ := obj.Get("timestamp")
		when, err := time.Parse(time.RFC3339Nano, ts.(string))
		if err != nil {
			t.Fatal(err)
		}
		prefix := strings.Join(lines[:k], "")
		path := stageBytes(t, []byte(prefix))
		g := guardOf(t, path)
		if p, _ := parent.(string); p != g.LeafID {
			continue // written after moving the leaf (branching), not a plain append
		}
		_, err = Append(path, g, []NewEntry{{Type: typ.(string), Fields: fields}},
			AppendOptions{Force: true, AllowContextTypes: true, NewID: fixedIDs(id.(string)), Now: func() time.Time { return when }})
		if err != nil {
			t.Fatalf("%s line %d: %v", filepath.Base(src), k+1, err)
		}
		got, _ := os.ReadFile(path)
		if appended := string(got[len(prefix):]); appended != line+"\n" {
			t.Errorf("%s line %d:\n got %s\nwant %s", filepath.Base(src), k+1, appended, line)
		}
		replayed++
	}
	return replayed
}

func TestFormatTimestamp(t *testing.T) {
	loc := time.FixedZone("x", 5*3600)
	if got := FormatTimestamp(time.Date(2026, 1, 2, 8, 4, 5, 999_999_999, loc)); got != "2026-01-02T03:04:05.999Z" {
		t.Fatalf("got %s", got)
	}
}

// FuzzAppend appends to arbitrary files that open as sessions and checks
// that the result re-opens with the new entry as leaf, chained to the old
// leaf, and that nothing before it changed.
func FuzzAppend(f *testing.F) {
	for _, name := range []string{"base.jsonl", "no-final-newline.jsonl", "truncated-last-line.jsonl"} {
		if data, err := os.ReadFile(filepath.Join("testdata/append", name)); err == nil {
			f.Add(data, "note")
		}
	}
	f.Add([]byte(`{"type":"session","version":3,"id":"s"}`+"\n"+`{"type":"custom","customType":"x","id":"ffffffff","parentId":null}`+"\r"), "a\u2028\"b")
	f.Add([]byte(`{"type":"session","version":3,"id":"s"}`), "")
	f.Add([]byte(`{"type":"session","id":"v1"}`+"\n"+`{"type":"message","message":{"role":"user","content":"x"}}`+"\n"), "v1")
	dir := f.TempDir()
	old := appendClock.Add(-time.Hour)
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		path := filepath.Join(dir, "a.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path)
		if err != nil {
			return
		}
		g := GuardOf(s)
		res, err := Append(path, g, []NewEntry{SessionInfoEntry(name), CustomEntry("fuzz", name)},
			AppendOptions{Now: func() time.Time { return appendClock }})
		if s.Migrated {
			if got, _ := os.ReadFile(path); !errors.Is(err, ErrOldFormat) || !bytes.Equal(got, data) {
				t.Fatalf("old format: %v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("append: %v", err)
		}
		got, _ := os.ReadFile(path)
		if !bytes.HasPrefix(got, data) {
			t.Fatal("existing bytes changed")
		}
		s2, err := Open(path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		leaf, _ := s2.Leaf()
		first, ok := s2.Entry(res.IDs[0])
		if !ok || leaf.ID != res.LeafID || leaf.ParentID != res.IDs[0] || first.ParentID != g.LeafID || first.HasParent != (g.LeafID != "") {
			t.Fatalf("leaf %+v first %+v guard %+v", leaf, first, g)
		}
		if len(s2.Entries) != len(s.Entries)+2 || s2.Diagnostics.DuplicateIDs != s.Diagnostics.DuplicateIDs {
			t.Fatalf("entries %d -> %d, duplicates %d -> %d", len(s.Entries), len(s2.Entries), s.Diagnostics.DuplicateIDs, s2.Diagnostics.DuplicateIDs)
		}
	})
}

// Pi normalizes a session name with name.replace(/[\r\n]+/g, " ").trim():
// a run of line breaks becomes one space.
func TestSessionInfoEntryCollapsesLineBreakRuns(t *testing.T) {
	for in, want := range map[string]string{
		"a\n\nb":         "a b",
		"a\r\n\r\nb":     "a b",
		"a\n \nb":        "a   b",
		" x\r\ry\n":      "x y",
		"\u00a0tab\t\n ": "tab",
	} {
		e := SessionInfoEntry(in)
		got, _ := e.Fields.Get("name")
		if got != want {
			t.Errorf("SessionInfoEntry(%q) name = %q, want %q", in, got, want)
		}
	}
}
