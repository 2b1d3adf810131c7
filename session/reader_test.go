package session

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session/internal/scan"
)

func mustRead(t testing.TB, file string) *Session {
	t.Helper()
	s, err := Read(strings.NewReader(file), Options{})
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return s
}

const testHeader = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`

func entryLine(id, parent string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"custom","customType":"x","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-01-01T00:00:01.000Z"}`
}

func TestReaderSkipsBlankAndMalformedLines(t *testing.T) {
	file := strings.Join([]string{
		"", testHeader, "   ", entryLine("e1", ""), `{"type":"custom","id":"bad",`, "\t\r",
		`{"a":1} trailing`, "null", "0", `""`, "\u00a0\u3000", entryLine("e2", "e1") + "\r", "",
	}, "\n")
	s := mustRead(t, file)
	d := s.Diagnostics
	if len(s.Entries) != 2 || s.Entries[1].ID != "e2" {
		t.Fatalf("entries = %d", len(s.Entries))
	}
	if d.BlankLines != 4 || d.MalformedLines != 2 || d.FalsyLines != 3 {
		t.Errorf("blank=%d malformed=%d falsy=%d, want 4/2/3", d.BlankLines, d.MalformedLines, d.FalsyLines)
	}
	if !reflectEqualInts(d.MalformedLineNumbers, []int{5, 7}) {
		t.Errorf("malformed line numbers = %v", d.MalformedLineNumbers)
	}
	if d.SkippedLines() != 9 || d.Lines != 12 || d.MissingFinalNewline {
		t.Errorf("skipped=%d lines=%d missingNL=%v", d.SkippedLines(), d.Lines, d.MissingFinalNewline)
	}
	if s.Entries[0].Line != 4 || s.Header.Line != 2 {
		t.Errorf("line numbers: header %d, first entry %d", s.Header.Line, s.Entries[0].Line)
	}
}

func reflectEqualInts(a, b []int) bool {
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

func TestReaderPartialLastLine(t *testing.T) {
	// A complete JSON value without a final newline is an entry.
	s := mustRead(t, testHeader+"\n"+entryLine("e1", ""))
	if len(s.Entries) != 1 || !s.Diagnostics.MissingFinalNewline {
		t.Fatalf("entries=%d missingNL=%v", len(s.Entries), s.Diagnostics.MissingFinalNewline)
	}
	// A truncated last line is malformed and skipped; the file is untouched.
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	content := testHeader + "\n" + entryLine("e1", "") + "\n" + `{"type":"custom","id":"e2","par`
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 1 || s.Diagnostics.MalformedLines != 1 || !s.Diagnostics.MissingFinalNewline {
		t.Errorf("entries=%d malformed=%d", len(s.Entries), s.Diagnostics.MalformedLines)
	}
	after, _ := os.ReadFile(path)
	if string(after) != content {
		t.Error("reader modified the file")
	}
	if leaf, _ := s.Leaf(); leaf.ID != "e1" {
		t.Errorf("leaf = %s", leaf.ID)
	}
}

func TestReaderRequiresHeaderFirst(t *testing.T) {
	cases := map[string]string{
		"entry first":       entryLine("e1", "") + "\n" + testHeader + "\n",
		"header without id": `{"type":"session","version":3}` + "\n" + entryLine("e1", "") + "\n",
		"number first":      "42\n" + testHeader + "\n",
		"array first":       "[1]\n" + testHeader + "\n",
		"only blank":        "\n\n  \n",
	}
	for name, file := range cases {
		if _, err := Read(strings.NewReader(file), Options{}); !errors.Is(err, ErrNotSession) {
			t.Errorf("%s: err = %v, want ErrNotSession", name, err)
		}
	}
	if _, err := Read(strings.NewReader(""), Options{}); !errors.Is(err, ErrEmptySession) {
		t.Errorf("empty: err = %v", err)
	}
	// Malformed lines before the header are skipped: the first *parsed* line counts.
	s := mustRead(t, "{oops\n"+testHeader+"\n"+entryLine("e1", "")+"\n")
	if s.Header.ID != "s1" || len(s.Entries) != 1 {
		t.Errorf("header after malformed line not accepted")
	}
}

func TestReaderHugeLineIsSkippedUnread(t *testing.T) {
	huge := `{"type":"custom","id":"big","parentId":"e1","data":"` + strings.Repeat("x", 5000) + `"}`
	file := testHeader + "\n" + entryLine("e1", "") + "\n" + huge + "\n" + entryLine("e2", "e1") + "\n" + huge
	for _, chunk := range []int{64, 1000, 4096} {
		s, err := Read(strings.NewReader(file), Options{MaxLineBytes: 1000, ChunkBytes: chunk})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Entries) != 2 || s.Entries[1].ID != "e2" {
			t.Fatalf("chunk %d: entries = %d", chunk, len(s.Entries))
		}
		if !reflectEqualInts(s.Diagnostics.OversizedLines, []int{3, 5}) {
			t.Errorf("chunk %d: oversized = %v", chunk, s.Diagnostics.OversizedLines)
		}
		if s.Diagnostics.Lines != 5 {
			t.Errorf("chunk %d: lines = %d", chunk, s.Diagnostics.Lines)
		}
	}
	// A line of exactly the limit is accepted.
	line := entryLine("e3", "e1")
	s, err := Read(strings.NewReader(testHeader+"\n"+line+"\n"), Options{MaxLineBytes: len(line), ChunkBytes: 16})
	if err != nil || len(s.Entries) != 1 {
		t.Fatalf("line at the limit rejected: %v", err)
	}
}

func TestReaderChunkBoundaries(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(testHeader + "\n")
	prev := ""
	for i := 0; i < 300; i++ {
		id := "e" + strings.Repeat("0", i%7) + string(rune('a'+i%26)) + itoa(i)
		b.WriteString(entryLine(id, prev) + "\n")
		prev = id
	}
	for _, chunk := range []int{1, 7, 100, 1 << 20} {
		for _, workers := range []int{1, 3} {
			s, err := Read(bytes.NewReader(b.Bytes()), Options{ChunkBytes: chunk, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Entries) != 300 || s.Entries[299].ID != prev || len(s.PathTo(299)) != 300 {
				t.Fatalf("chunk %d workers %d: %d entries", chunk, workers, len(s.Entries))
			}
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

func TestReaderKeepsUnknownTypesAndNonObjects(t *testing.T) {
	file := testHeader + "\n" + `{"type":"brand_new","id":"n1","parentId":null,"timestamp":"t","z":[1,{"q":2}]}` +
		"\n" + `"just text"` + "\n" + `{"type":"session","id":"again"}` + "\n"
	s := mustRead(t, file)
	if len(s.Entries) != 2 || s.Entries[0].Type != "brand_new" || !s.Entries[1].NotObject {
		t.Fatalf("entries = %+v", s.Entries)
	}
	if got := string(s.Entries[0].Field("z")); got != `[1,{"q":2}]` {
		t.Errorf("unknown field = %s", got)
	}
	if s.Diagnostics.ExtraHeaders != 1 {
		t.Errorf("extra headers = %d", s.Diagnostics.ExtraHeaders)
	}
	p, err := s.Entries[0].Payload()
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := p.(*UnknownEntry); !ok || u.Type != "brand_new" {
		t.Errorf("payload = %#v", p)
	}
	// Pi's default leaf is the last entry even when it is not an object.
	c, err := s.Context(s.LeafIndex())
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Path) != 1 || len(c.AgentMessages()) != 0 {
		t.Errorf("path=%d messages=%d", len(c.Path), len(c.AgentMessages()))
	}
}

func TestReaderDuplicateKeysLastWins(t *testing.T) {
	s := mustRead(t, testHeader+"\n"+`{"type":"custom","id":"x1","id":"x2","parentId":null,"timestamp":"t"}`+"\n")
	if s.Entries[0].ID != "x2" {
		t.Errorf("id = %s, want x2", s.Entries[0].ID)
	}
	s = mustRead(t, testHeader+"\n"+`{"type":"custom","\u0069d":"esc","parentId":null,"timestamp":"t"}`+"\n")
	if s.Entries[0].ID != "esc" {
		t.Errorf("escaped key not decoded: %q", s.Entries[0].ID)
	}
}

func TestScannerValidation(t *testing.T) {
	valid := []string{`{}`, `[]`, `{"a":[1,-2.5e+3,true,false,null,"x\u00e9\n"]}`, `0`, `-0.0E5`, ` "s" `,
		`[[[[{"a":{"b":[]}}]]]]`, "\"\xff\xfe\""}
	invalid := []string{`{`, `{"a"}`, `{"a":}`, `[1,]`, `{"a":1,}`, `01`, `1.`, `.5`, `-`, `1e`, `tru`, `"a`,
		"\"\x01\"", `"\x"`, `"\u12g4"`, `{"a":1}}`, `[1 2]`, `{1:2}`, `NaN`, `'a'`, "\ufeff{}"}
	for _, v := range valid {
		end, ok := scan.SkipValue([]byte(v), 0)
		if !ok || scan.SkipWS([]byte(v), end) != len(v) {
			t.Errorf("valid %q rejected", v)
		}
	}
	for _, v := range invalid {
		end, ok := scan.SkipValue([]byte(v), 0)
		if ok && scan.SkipWS([]byte(v), end) == len(v) {
			t.Errorf("invalid %q accepted", v)
		}
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	if _, ok := scan.SkipValue([]byte(deep), 0); !ok {
		t.Error("deep nesting rejected (V8 accepts it)")
	}
}

// plainReader hides ReaderAt/Seeker so the buffering fallback is used.
type plainReader struct{ r io.Reader }

func (p plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

func TestReaderHugeLineWithoutSeek(t *testing.T) {
	huge := `{"type":"custom","id":"big","data":"` + strings.Repeat("y", 3000) + `"}`
	file := testHeader + "\n" + huge + "\n" + entryLine("e1", "") + "\n" + huge
	s, err := Read(plainReader{strings.NewReader(file)}, Options{MaxLineBytes: 1000, ChunkBytes: 128})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 1 || !reflectEqualInts(s.Diagnostics.OversizedLines, []int{2, 4}) || !s.Diagnostics.MissingFinalNewline {
		t.Errorf("entries=%d diag=%+v", len(s.Entries), s.Diagnostics)
	}
}

// virtualFile serves header + a line of size hugeLen + one entry without
// storing the big line, as a seekable reader.
type virtualFile struct {
	head, tail string
	hugeLen    int64
	pos        int64
}

func (v *virtualFile) size() int64 { return int64(len(v.head)) + v.hugeLen + int64(len(v.tail)) }

func (v *virtualFile) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) && off < v.size() {
		switch {
		case off < int64(len(v.head)):
			k := copy(b[n:], v.head[off:])
			n, off = n+k, off+int64(k)
		case off < int64(len(v.head))+v.hugeLen:
			k := min(int64(len(b)-n), int64(len(v.head))+v.hugeLen-off)
			for i := int64(0); i < k; i++ {
				b[n+int(i)] = 'x'
			}
			n, off = n+int(k), off+k
		default:
			k := copy(b[n:], v.tail[off-int64(len(v.head))-v.hugeLen:])
			n, off = n+k, off+int64(k)
		}
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

func (v *virtualFile) Read(b []byte) (int, error) {
	n, err := v.ReadAt(b, v.pos)
	v.pos += int64(n)
	if n > 0 && err == io.EOF {
		err = nil
	}
	return n, err
}

func (v *virtualFile) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += v.pos
	case io.SeekEnd:
		off += v.size()
	}
	v.pos = off
	return off, nil
}

func TestReaderLineOverOneGiBIsNotAllocated(t *testing.T) {
	if testing.Short() {
		t.Skip("scans 1 GiB")
	}
	vf := &virtualFile{head: testHeader + "\n", tail: "\n" + entryLine("e1", "") + "\n", hugeLen: DefaultMaxLineBytes + 10}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := Read(vf, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 1 || !reflectEqualInts(s.Diagnostics.OversizedLines, []int{2}) || s.Size != vf.size() {
		t.Fatalf("entries=%d diag=%+v size=%d", len(s.Entries), s.Diagnostics, s.Size)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("allocated %d MiB for an oversized line", alloc>>20)
	}
}
