package presets

import (
	"strconv"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// FuzzDraftEdit applies a set or delete at an arbitrary path to an
// arbitrary JSON document: it never panics, never changes the tree it was
// given, and a successful set can be read back.
func FuzzDraftEdit(f *testing.F) {
	f.Add(smallPreset, "items.1.options.maxMessages", `5`, false)
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
		next, err := setPath(root, path, value, del)
		if jsonv.Stringify(root) != before {
			t.Fatalf("the input tree changed")
		}
		if err != nil {
			return
		}
		if !del {
			got, ok := getPath(next, path)
			if !ok || jsonv.Stringify(got) != jsonv.Stringify(value) {
				t.Fatalf("set %v: read back %v", path, got)
			}
		}
		d := newDraft(next, "fuzz.json", preset.ScopeProject)
		_ = d.items()
	})
}
