package stats

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
	gen "github.com/forgebench/forgebench/internal/sessiongen"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// digestMatchesReader checks that a digest agrees with the full reader on
// entries, diagnostics and statistics.
func digestMatchesReader(t *testing.T, path string, cat *catalog.Catalog) {
	t.Helper()
	s, err := session.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	d, err := ReadDigest(path, DigestOptions{})
	if err != nil {
		t.Fatalf("digest %s: %v", path, err)
	}
	if d.Header.ID != s.Header.ID || d.Header.ParentSession != s.Header.ParentSession {
		t.Errorf("%s: header %+v, want %+v", path, d.Header.ID, s.Header.ID)
	}
	if len(d.Entries) != len(s.Entries) {
		t.Fatalf("%s: %d entries, reader has %d", path, len(d.Entries), len(s.Entries))
	}
	for i := range s.Entries {
		e, de := &s.Entries[i], &d.Entries[i]
		sameIDs := s.Migrated || de.ID == e.ID && de.ParentID == e.ParentID
		if de.Line != e.Line || !sameIDs || de.HasParent != e.HasParent || de.Type != e.Type || de.Role != e.Role {
			t.Fatalf("%s entry %d: digest %+v, reader line %d %s/%s id %s", path, i, de, e.Line, e.Type, e.Role, e.ID)
		}
		if de.Offset >= 0 {
			line, err := d.ReadLine(i)
			if err != nil || string(line) != string(e.Raw) {
				t.Fatalf("%s entry %d: ReadLine %q (%v)", path, i, line, err)
			}
		}
	}
	want := s.Diagnostics
	got := d.Diagnostics
	if got.Lines != want.Lines || got.BlankLines != want.BlankLines || got.MalformedLines != want.MalformedLines ||
		got.FalsyLines != want.FalsyLines || got.ExtraHeaders != want.ExtraHeaders ||
		got.MissingFinalNewline != want.MissingFinalNewline || got.DuplicateIDs != want.DuplicateIDs {
		t.Errorf("%s: diagnostics %+v, reader %+v", path, got, want)
	}
	full := SessionStats(s, cat)
	full.Context = nil
	dst := d.Stats(0, cat)
	if !reflect.DeepEqual(dst, full) {
		t.Errorf("%s: digest stats\n%+v\nreader stats\n%+v", path, dst, full)
	}
}

func TestDigestMatchesReaderOnTestdata(t *testing.T) {
	var files []string
	// Ours and session's format corpus.
	for _, root := range []string{"testdata", filepath.Join("..", "testdata")} {
		_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 5 {
		t.Fatalf("only %d testdata sessions", len(files))
	}
	for _, p := range files {
		if _, err := session.Open(p); err != nil {
			continue // not a session (discovery fixtures with broken files)
		}
		t.Run(p, func(t *testing.T) { digestMatchesReader(t, p, catalog.Default()) })
	}
}

func TestDigestMatchesReaderOnGenerated(t *testing.T) {
	dir := t.TempDir()
	for seed := range 3 {
		path, _ := writeGenerated(t, dir, 2<<20+int64(seed)*300<<10)
		renamed := filepath.Join(dir, fmt.Sprintf("g%d.jsonl", seed))
		if err := os.Rename(path, renamed); err != nil {
			t.Fatal(err)
		}
		digestMatchesReader(t, renamed, catalog.Default())
	}
}

func TestDigestMatchesReaderOnPiFixtures(t *testing.T) {
	var files []string
	for _, root := range []string{"pi-sessions", "pi-subagent"} {
		_ = filepath.Walk(fixtures.Path(t, root), func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 5 {
		t.Fatalf("only %d fixture sessions", len(files))
	}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) { digestMatchesReader(t, p, catalog.Default()) })
	}
}

// TestDigestOddLines covers lines the fast path must hand to the full
// parser or count as the reader does.
func TestDigestOddLines(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}`,
		`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}`,
		``,
		`{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"toolResult","toolCallId":"t","content":[{"type":"text","text":"x"}],"usage":{"input":5,"output":1,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.5}}}}`,
		`{"type":"message","id":"c","parentId":"b","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","nestedCalls":{"calls":[{"id":"1"},{"id":"2"}],"complete":true},"content":[]}}`,
		`{"type":"message","id":"d","parentId":"c","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"user","content":"broken`,
		`{"id":"e","type":"message","parentId":"c","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"user","content":"other order"}}`,
		`null`,
		`{"type":"message","id":"f","parentId":"e","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"x","name":"read","arguments":{}}],"provider":"anthropic","model":"claude-sonnet-4-5","responseModel":"claude-sonnet-4-5-20250929","stopReason":"toolUse","thinkingLevel":"high","usage":{"input":10,"output":2,"cacheRead":0,"cacheWrite":0}}}`,
		`{"type":"message","id":"g","parentId":"f","timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"custom","customType":"pi-subagent/message-v2","content":"[Agent task: /root → /root/a]\nx","display":true}}`,
		`{"type":"custom_message","customType":"note","content":"c","display":false,"id":"h","parentId":"g","timestamp":"2026-01-01T00:00:08.000Z"}`,
	}
	path := filepath.Join(t.TempDir(), "odd.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	digestMatchesReader(t, path, catalog.Default())
	d, err := ReadDigest(path, DigestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]DigestEntry{}
	for _, e := range d.Entries {
		byID[e.ID] = e
	}
	if byID["c"].NestedCalls != 2 {
		t.Errorf("nested calls %d, want 2", byID["c"].NestedCalls)
	}
	if f := byID["f"]; f.ResponseModel != "claude-sonnet-4-5-20250929" || f.StopReason != "toolUse" || f.ThinkingLevel != "high" || f.ToolCalls() != 1 {
		t.Errorf("assistant fields %+v", f)
	}
	if byID["g"].CustomType != "pi-subagent/message-v2" || byID["h"].CustomType != "note" {
		t.Errorf("custom types %q %q", byID["g"].CustomType, byID["h"].CustomType)
	}
	if _, ok := byID["d"]; ok {
		t.Error("a malformed line became an entry")
	}
	if got := d.PathTo(d.LeafIndex()); len(got) != 7 {
		t.Errorf("path to leaf has %d entries, want 7 (a b c e f g h): %v", len(got), got)
	}
}

// TestDigestFramedLines pins the one documented difference from Pi's loader
// (see Digest): a user/toolResult/... message line whose frame is sound but
// whose content is not JSON (a bad escape, a raw control character, a bare
// word, a missing comma deep inside) is counted, where JSON.parse drops it.
// The same faults in the frame itself (the entry's type, id, parentId,
// timestamp, message.role, a key, the braces) drop the line as Pi does.
func TestDigestFramedLines(t *testing.T) {
	head := `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}`
	msg := func(role, ts, content string) string {
		return `{"type":"message","id":"b","parentId":"a","timestamp":` + ts + `,"message":{"role":` + role + `,"content":` + content + `}}`
	}
	write := func(name, line string) *Digest {
		t.Helper()
		lines := []string{head,
			`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"ok"}}`,
			line,
			`{"type":"message","id":"c","parentId":"b","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"user","content":"after"}}`}
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := ReadDigest(path, DigestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := session.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Entries) != 2 || s.Diagnostics.MalformedLines != 1 {
			t.Fatalf("%s: the reader (JSON.parse) kept %d entries, want 2", name, len(s.Entries))
		}
		return d
	}
	ts := `"2026-01-01T00:00:02.000Z"`
	deep := []string{
		`"bad escape \q"`,
		`"bad unicode \u12G4"`,
		"\"raw control \x01 char\"",
		`[{"type":"text","text":"x"} {"type":"text","text":"y"}]`,
		`[{"type":"text" "text":"x"}]`,
		`[{"type":"text","text":tru}]`,
		`[{"type":"text","text":01}]`,
		`[{"type":"text","text":"x",}]`,
		`[1}`,
	}
	for k, content := range deep {
		if d := write(fmt.Sprintf("deep%d.jsonl", k), msg(`"user"`, ts, content)); len(d.Entries) != 3 || d.Diagnostics.MalformedLines != 0 {
			t.Errorf("content %s: %d entries, %d malformed; the documented framing counts the line", content, len(d.Entries), d.Diagnostics.MalformedLines)
		}
	}
	frame := []string{
		msg(`"user"`, `"bad \q"`, `"x"`),
		msg(`"us\qer"`, ts, `"x"`),
		msg(`"user"`, `tru`, `"x"`),
		msg(`"user"`, ts, `"x"`) + `x`,
		strings.Replace(msg(`"user"`, ts, `"x"`), `"parentId":"a"`, `"parentId":"a" "x":1`, 1),
	}
	for k, line := range frame {
		if d := write(fmt.Sprintf("frame%d.jsonl", k), line); len(d.Entries) != 2 || d.Diagnostics.MalformedLines != 1 {
			t.Errorf("line %s: %d entries, %d malformed; Pi drops it", line, len(d.Entries), d.Diagnostics.MalformedLines)
		}
	}
}

func TestDigestLongLinesAndOldFormat(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 3000)
	content := `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}` + "\n" +
		`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"` + long + `"}}` + "\n" +
		`{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"` + long + long + `"}}` + "\n"
	path := filepath.Join(dir, "long.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := ReadDigest(path, DigestOptions{BufferBytes: 1024, MaxLineBytes: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entries) != 1 || len(d.Diagnostics.OversizedLines) != 1 || d.Diagnostics.OversizedLines[0] != 3 {
		t.Errorf("entries %d oversized %v", len(d.Entries), d.Diagnostics.OversizedLines)
	}
	if line, err := d.ReadLine(0); err != nil || len(line) != d.Entries[0].Length {
		t.Errorf("ReadLine of a line longer than the buffer: %d bytes, %v", len(line), err)
	}
	d2, err := ReadDigest("../testdata/v1.jsonl", DigestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := session.Open("../testdata/v1.jsonl")
	if len(d2.Entries) != len(s.Entries) || !d2.Entries[len(s.Entries)-1].HasID || d2.Entries[0].Offset != -1 {
		t.Errorf("a v1 digest is not built from the migrated session")
	}
	if _, err := ReadDigest(filepath.Join(dir, "missing.jsonl"), DigestOptions{}); err == nil {
		t.Error("digest of a missing file did not fail")
	}
	empty := filepath.Join(dir, "empty.jsonl")
	_ = os.WriteFile(empty, nil, 0o600)
	if _, err := ReadDigest(empty, DigestOptions{}); err == nil || !strings.Contains(err.Error(), session.ErrEmptySession.Error()) {
		t.Errorf("empty file: %v", err)
	}
}

func FuzzDigest(f *testing.F) {
	f.Add([]byte(`{"type":"session","version":3,"id":"s"}` + "\n" + `{"type":"message","id":"a","parentId":null,"timestamp":"x","message":{"role":"toolResult","content":"y"}}`))
	f.Add([]byte(`{"type":"session","version":3,"id":"s"}` + "\n" + `{"type":"message","id":"a","parentId":null,"timestamp":"x","message":{"role":"user","content":"\u0000"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := ReadDigest(path, DigestOptions{BufferBytes: 64})
		s, serr := session.Open(path)
		if (err == nil) != (serr == nil) {
			t.Fatalf("digest err %v, reader err %v", err, serr)
		}
		if err != nil {
			return
		}
		// The fast path may accept lines the reader drops only when they
		// are not valid JSON deep inside; on valid input both agree.
		if d.Diagnostics.MalformedLines == s.Diagnostics.MalformedLines && len(d.Entries) != len(s.Entries) {
			t.Fatalf("entries %d vs %d", len(d.Entries), len(s.Entries))
		}
		_ = d.Stats(0, nil)
		_ = d.PathTo(d.LeafIndex())
	})
}

// BenchmarkDigest digests sixteen generated 1 MB sessions per iteration,
// the inner loop of listing a large agent tree.
func BenchmarkDigest(b *testing.B) {
	dir := b.TempDir()
	var files []string
	for i := range 16 {
		p := filepath.Join(dir, fmt.Sprintf("s%02d.jsonl", i))
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := gen.Write(f, gen.Config{TargetBytes: 1 << 20, Seed: uint64(i)}); err != nil {
			b.Fatal(err)
		}
		f.Close()
		files = append(files, p)
	}
	b.SetBytes(16 << 20)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range files {
			d, err := ReadDigest(p, DigestOptions{})
			if err != nil {
				b.Fatal(err)
			}
			_ = d.Stats(0, nil)
		}
	}
}

// BenchmarkOpenForComparison is the full reader on the same kind of files.
func BenchmarkOpenForComparison(b *testing.B) {
	path, _ := writeGenerated(b, b.TempDir(), 16<<20)
	b.SetBytes(16 << 20)
	for b.Loop() {
		s, err := session.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		_ = SessionStats(s, nil)
	}
}

// TestDigestSizesEntriesOnce: the entries of a big file are sized from the
// first megabyte, not doubled (a doubled slice of a 1 GB session's digest
// entries held 170 MB where 90 MB were used).
func TestDigestSizesEntriesOnce(t *testing.T) {
	for _, size := range []int64{3 << 20, 5 << 20, 7 << 20} {
		path, st := writeGenerated(t, t.TempDir(), size)
		d, err := ReadDigest(path, DigestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Entries) != st.Entries {
			t.Fatalf("%d entries, want %d", len(d.Entries), st.Entries)
		}
		if limit := len(d.Entries)*5/4 + 16; cap(d.Entries) > limit {
			t.Errorf("%d MB: room for %d entries for %d (at most %d)", size>>20, cap(d.Entries), len(d.Entries), limit)
		}
	}
}
