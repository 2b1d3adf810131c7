package draft

import (
	"strconv"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// FuzzEdit applies a set or delete at an arbitrary path to an arbitrary
// JSON document through a draft: it never panics, never changes the tree
// it was given, a successful set reads back, Dirty agrees with the
// serialised text and undo returns to the very tree it started from.
func FuzzEdit(f *testing.F) {
	f.Add(smallPreset, "items.1.options.maxMessages", `5`, false)
	f.Add(smallPreset, "items.0.content", `"typed"`, false)
	f.Add(smallPreset, "items.0", ``, true)
	f.Add(`{"items":[]}`, "items.0", `{"kind":"block"}`, false)
	f.Add(`{"a":{"b":[1,2,{"c":null}]}}`, "a.b.2.c.d", `"x"`, false)
	f.Add(`{"0":1,"z":2}`, "0", ``, true)
	f.Fuzz(func(t *testing.T, doc, rawPath, rawValue string, del bool) {
		v, err := jsonv.Parse([]byte(doc))
		root, ok := v.(*jsonv.Object)
		if err != nil || !ok {
			return
		}
		var value any
		if !del {
			if value, err = jsonv.Parse([]byte(rawValue)); err != nil {
				return
			}
		}
		var path Path
		for _, step := range strings.Split(rawPath, ".") {
			if n, err := strconv.Atoi(step); err == nil {
				path = append(path, n)
			} else {
				path = append(path, step)
			}
		}
		before := jsonv.Stringify(root)
		d := Open(root, "fuzz.json", preset.ScopeProject)
		err = d.Apply(Edit{Path: path, Value: value, Delete: del, Label: "fuzz", Coalesce: true})
		if jsonv.Stringify(root) != before {
			t.Fatalf("the input tree changed")
		}
		if err != nil {
			return
		}
		if !del {
			got, ok := Get(d.Tree(), path)
			if !ok || jsonv.Stringify(got) != jsonv.Stringify(value) {
				t.Fatalf("set %v: read back %v", path, got)
			}
		}
		if d.Dirty() != (jsonv.Stringify(d.Tree()) != before) {
			t.Fatalf("dirty %v disagrees with the text", d.Dirty())
		}
		// The typed view (patched or parsed) is what a full parse says.
		full := d.Snapshot().Check()
		if jsonv.Stringify(preset.ToJSON(d.Stack())) != jsonv.Stringify(preset.ToJSON(full.Stack)) {
			t.Fatalf("the typed view differs from a full parse")
		}
		if _, ok := d.Undo(); !ok || d.Tree() != root || d.Dirty() {
			t.Fatal("undo returns to the loaded tree")
		}
	})
}
