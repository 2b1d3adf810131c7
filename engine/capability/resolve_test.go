package capability

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

func capJSON(id, content string, add, remove string) string {
	return `{"schemaVersion":1,"type":"pi-forge.capability","id":"` + id + `","name":"` + id + ` name","content":"` + content + `","tools":{"add":[` + add + `],"remove":[` + remove + `]}}`
}

func entry(scope preset.Scope, file, text string) *Entry {
	return Load([]byte(text), "/lib/"+file, scope)
}

func testCatalog() *Catalog {
	return NewCatalog(
		entry(preset.ScopeGlobal, "g-only.json", capJSON("g-only", "global only", "", "")),
		entry(preset.ScopeGlobal, "shadow.json", capJSON("shadow", "global shadow", "", "")),
		entry(preset.ScopeGlobal, "broken-shadow.json", capJSON("broken-shadow", "fine globally", "", "")),
		entry(preset.ScopeGlobal, "dup-shadow.json", capJSON("dup-shadow", "fine globally", "", "")),
		entry(preset.ScopeProject, "p.json", capJSON("p", "project", `"bash"`, "")),
		entry(preset.ScopeProject, "shadow.json", capJSON("shadow", "project shadow", "", "")),
		entry(preset.ScopeProject, "broken-shadow.json", `{"schemaVersion":1,"type":"pi-forge.capability","id":"broken-shadow","content":1}`),
		entry(preset.ScopeProject, "a.json", capJSON("dup-shadow", "one", "", "")),
		entry(preset.ScopeProject, "b.json", capJSON("dup-shadow", "two", "", "")),
		entry(preset.ScopeProject, "empty.json", capJSON("empty", "", "", "")),
	)
}

func TestResolve(t *testing.T) {
	cat := testCatalog()
	cases := []struct {
		selector, wantContent, wantErr string
		wantScope                      preset.Scope
	}{
		{"p", "project", "", preset.ScopeProject},
		{" project:p ", "project", "", preset.ScopeProject},
		{"global:p", "", `Capability capability "global:p" not found.`, ""},
		{"g-only", "global only", "", preset.ScopeGlobal},
		{"project:g-only", "", `Capability capability "project:g-only" not found.`, ""},
		{"shadow", "project shadow", "", preset.ScopeProject},
		{"global:shadow", "global shadow", "", preset.ScopeGlobal},
		{"broken-shadow", "", `Capability capability "project:broken-shadow" has errors: content must be a string.`, ""},
		{"global:broken-shadow", "fine globally", "", preset.ScopeGlobal},
		{"dup-shadow", "", `Ambiguous capability "project:dup-shadow": multiple definitions found.`, ""},
		{"global:dup-shadow", "fine globally", "", preset.ScopeGlobal},
		{"empty", "", `Capability capability "project:empty" has errors: Capability capability must have non-empty content or at least one tool effect (add or remove).`, ""},
		{"missing", "", `Capability capability "missing" not found.`, ""},
		{"", "", "Resource selector must not be empty.", ""},
		{"   ", "", "Resource selector must not be empty.", ""},
		{"team:p", "", `Unknown scope prefix: team. Expected "project" or "global".`, ""},
		{"project:", "", "Invalid resource id: . Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens.", ""},
		{"_x", "", "Invalid resource id: _x. Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens.", ""},
	}
	for _, c := range cases {
		got, err := Resolve(cat, c.selector)
		if err != c.wantErr {
			t.Errorf("%q: error %q, want %q", c.selector, err, c.wantErr)
			continue
		}
		if c.wantErr != "" {
			if got != nil {
				t.Errorf("%q: entry with error", c.selector)
			}
			continue
		}
		if got.Capability.Content != c.wantContent || got.Scope != c.wantScope {
			t.Errorf("%q: got %s %q", c.selector, got.Scope, got.Capability.Content)
		}
	}
	if _, err := Resolve(nil, "x"); err != `Capability capability "x" not found.` {
		t.Errorf("nil catalog: %q", err)
	}
}

func TestDuplicateAnnotation(t *testing.T) {
	cat := testCatalog()
	want := `Duplicate project capability id: "dup-shadow" appears in multiple files (a.json, b.json).`
	var n int
	for _, e := range cat.Entries {
		for _, d := range e.Diagnostics {
			if strings.HasPrefix(d.Message, "Duplicate ") {
				n++
				if d.Message != want || e.Capability.ID != "dup-shadow" || e.Scope != preset.ScopeProject || d.Field != "" {
					t.Errorf("unexpected %+v on %s", d, e.Path)
				}
			}
		}
	}
	if n != 2 {
		t.Errorf("expected 2 duplicate diagnostics, got %d", n)
	}
	// The same id in different scopes is not a duplicate.
	for _, e := range cat.Lookup(Key{preset.ScopeGlobal, "dup-shadow"}) {
		if !e.Usable() {
			t.Errorf("global dup-shadow unusable: %+v", e.Diagnostics)
		}
	}
	// The file id decides, not the file name.
	c2 := NewCatalog(entry(preset.ScopeGlobal, "x.json", capJSON("same", "a", "", "")), entry(preset.ScopeGlobal, "y.json", capJSON("same", "b", "", "")))
	if got := c2.Entries[1].Diagnostics.FirstError(); got != `Duplicate global capability id: "same" appears in multiple files (x.json, y.json).` {
		t.Errorf("got %q", got)
	}
}

func TestReadFailureEntry(t *testing.T) {
	e := ReadFailure("/x/caps/gone.json", preset.ScopeProject, errString("EACCES: permission denied"))
	if e.Capability.ID != "gone" || e.Diagnostics.FirstError() != "Failed to read capability: EACCES: permission denied" || e.Usable() {
		t.Errorf("%+v", e)
	}
	if _, err := Resolve(NewCatalog(e), "gone"); err != `Capability capability "project:gone" has errors: Failed to read capability: EACCES: permission denied` {
		t.Errorf("resolve fault: %q", err)
	}
}

type errString string

func (e errString) Error() string { return string(e) }
