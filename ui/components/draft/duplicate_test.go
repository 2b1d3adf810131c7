package draft

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Every copy d makes has a name of its own, so the lists tell copies of
// the same item apart (and a copy of a copy too).
func TestDuplicateNamesEveryCopyDistinctly(t *testing.T) {
	v, _ := jsonv.Parse([]byte(`{"schemaVersion":2,"id":"p","items":[{"kind":"block","id":"intro","name":"Intro","content":"x"}]}`))
	d := Open(v.(*jsonv.Object), "p.json", preset.ScopeProject)
	names := map[string]bool{"Intro": true}
	for range 3 {
		i, err := d.DuplicateItem(0)
		if err != nil {
			t.Fatal(err)
		}
		name := *d.Stack().Items[i].Name
		if names[name] {
			t.Fatalf("a second item is named %q", name)
		}
		names[name] = true
	}
	i, _ := d.DuplicateItem(1) // a copy of a copy
	if name := *d.Stack().Items[i].Name; names[name] {
		t.Fatalf("the copy of a copy is named %q again", name)
	}
}
