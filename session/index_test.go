package session

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestIndexWhileReadingMatchesOnePass: a file read with its size known
// is indexed batch by batch while it is decoded; the id index, duplicate
// count, labels, name and parent links are those of a stream of unknown
// size, indexed in one pass at the end.
func TestIndexWhileReadingMatchesOnePass(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"idx","timestamp":"2026-11-27T10:00:00.000Z","cwd":"/tmp"}` + "\n")
	parent := "null"
	for i := 0; i < 5000; i++ {
		id := fmt.Sprintf("e%d", i%4700) // the last 300 ids repeat earlier ones
		switch {
		case i%97 == 0:
			fmt.Fprintf(&b, `{"type":"label","id":"%s","parentId":%s,"timestamp":"2026-11-27T10:00:00.000Z","targetId":"e%d","label":"L%d"}`+"\n", id, parent, i/2, i)
		case i%401 == 0:
			fmt.Fprintf(&b, `{"type":"session_info","id":"%s","parentId":%s,"timestamp":"2026-11-27T10:00:00.000Z","name":"name %d"}`+"\n", id, parent, i)
		case i%89 == 0:
			// A parent named before it exists in the file.
			fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":"e%d","timestamp":"2026-11-27T10:00:00.000Z","message":{"role":"user","content":"x"}}`+"\n", id, i+50)
		default:
			fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-11-27T10:00:00.000Z","message":{"role":"user","content":"%s"}}`+"\n", id, parent, strings.Repeat("x", i%300))
		}
		parent = `"` + id + `"`
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	sized, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := Read(struct{ io.Reader }{strings.NewReader(b.String())}, Options{}) // no size: indexed at the end
	if err != nil {
		t.Fatal(err)
	}
	if sized.Diagnostics.DuplicateIDs != 300 || stream.Diagnostics.DuplicateIDs != 300 {
		t.Fatalf("duplicate ids: sized %d, stream %d, want 300", sized.Diagnostics.DuplicateIDs, stream.Diagnostics.DuplicateIDs)
	}
	if len(sized.Labels()) == 0 {
		t.Fatal("no labels resolved")
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"byID", sized.byID, stream.byID},
		{"labels", sized.Labels(), stream.Labels()},
		{"parents", sized.parent, stream.parent},
		{"up", sized.up, stream.up},
		{"duplicates", sized.dups, stream.dups},
		{"diagnostics", sized.Diagnostics, stream.Diagnostics},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s differ between indexing while reading and in one pass", c.what)
		}
	}
	n1, ok1 := sized.Name()
	n2, ok2 := stream.Name()
	if n1 != n2 || ok1 != ok2 || n1 != "name 4812" {
		t.Errorf("name: sized %q, stream %q", n1, n2)
	}
}
