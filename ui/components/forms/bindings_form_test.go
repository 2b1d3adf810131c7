package forms

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/resources"
)

// testLibrary writes a small trusted workspace with one project and one
// global capability and loads it.
func testLibrary(t testing.TB) *resources.Library {
	t.Helper()
	root := t.TempDir()
	ws := resources.Workspace{
		Cwd: filepath.Join(root, "project"), AgentDir: filepath.Join(root, "agent"),
		ForgeDir: filepath.Join(root, "forge"), Trust: resources.Trust{Trusted: true, Source: "test"},
	}
	files := map[string]string{
		filepath.Join(ws.Cwd, ".pi", "forge", "capabilities", "write-tools.json"): `{"schemaVersion":1,"type":"pi-forge.capability","id":"write-tools","name":"Write tools","content":"You may edit files.\nKeep diffs small.","tools":{"add":["bash","edit"],"remove":[]}}`,
		filepath.Join(ws.ForgeDir, "capabilities", "review.json"):                 `{"schemaVersion":1,"type":"pi-forge.capability","id":"review","name":"Review","content":"Report findings before editing.","tools":{"add":[],"remove":["write","edit"]}}`,
	}
	for _, d := range []string{ws.Cwd, ws.AgentDir, ws.ForgeDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib, err := resources.LoadLibrary(ws)
	if err != nil {
		t.Fatalf("load test library: %v", err)
	}
	if len(lib.Capabilities) != 2 {
		t.Fatalf("test library has %d capabilities, want 2", len(lib.Capabilities))
	}
	return lib
}

const bindingsDraft = `{"schemaVersion":2,"id":"b","items":[],"capabilities":[
 {"ref":"project:write-tools","modelCallable":true,"overrides":{"appendContent":"Run the tests.","tools":{"add":["edit"]}}},
 {"ref":"global:review","id":"strict-review"},
 {"ref":"project:missing"}
]}`

func bindingsContext(t testing.TB, src string) Context {
	ctx := testContext(t, src)
	ctx.Library = testLibrary(t)
	return ctx
}

func TestBindingsGolden(t *testing.T) {
	goldenForms(t, map[string]func(*testing.T) Form{
		"bindings_row0": func(t *testing.T) Form { return NewBindings(bindingsContext(t, bindingsDraft)) },
		"bindings_row2": func(t *testing.T) Form {
			return NewBindings(bindingsContext(t, bindingsDraft), WithCursor(Cursor{Row: 2}))
		},
		"bindings_picker": func(t *testing.T) Form {
			return drive(t, NewBindings(bindingsContext(t, bindingsDraft))).press("a").Model
		},
	})
}

// lineWith returns the first line of view containing all parts.
func lineWith(view string, parts ...string) string {
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if ok {
			return l
		}
	}
	return ""
}

func TestBindingsSourceVsEffective(t *testing.T) {
	ctx := bindingsContext(t, bindingsDraft)
	v := sizedView(NewBindings(ctx), 160, 48)
	if lineWith(v, "SOURCE project:write-tools", "EFFECTIVE") == "" {
		t.Fatalf("no source/effective header:\n%s", v)
	}
	// overrides.tools.add replaces the source list; the row is marked.
	if l := lineWith(v, "≠ tools.add", "bash, edit", "edit"); l == "" || strings.Count(l, "edit") != 2 {
		t.Errorf("tools.add row wrong: %q\n%s", l, v)
	}
	// appendContent: source content unchanged, effective gains the text after a blank line.
	if lineWith(v, "content", "You may edit files.", "You may edit files.") == "" {
		t.Errorf("content row missing:\n%s", v)
	}
	if lineWith(v, "≠ ", "Run the tests.") == "" {
		t.Errorf("appended content not shown as a difference:\n%s", v)
	}
	// an unresolvable binding shows the resolution error and no effective value.
	miss := sizedView(NewBindings(ctx, WithCursor(Cursor{Row: 2})), 160, 48)
	if lineWith(miss, "SOURCE (unresolved)", "EFFECTIVE (none") == "" || lineWith(miss, "error:", "missing") == "" {
		t.Errorf("missing capability not explained:\n%s", miss)
	}
	if lineWith(miss, "✗ missing → project:missing") == "" {
		t.Errorf("list does not flag the broken binding:\n%s", miss)
	}
	// a bare-scoped global Preset cannot bind project capabilities.
	global := ctx
	global.Scope = preset.ScopeGlobal
	g := drive(t, NewBindings(global)).press("a")
	if lineWith(sizedView(g.Model, 160, 48), "project:write-tools", "cannot bind project") == "" {
		t.Errorf("picker does not disable project capabilities for a global Preset:\n%s", sizedView(g.Model, 160, 48))
	}
	g.press("enter")
	if len(g.edits) != 0 {
		t.Errorf("a disallowed capability was bound: %+v", g.edits)
	}
}

func TestBindingsEdits(t *testing.T) {
	ctx := bindingsContext(t, bindingsDraft)
	before := jsonv.Stringify(ctx.Draft)

	// add from the picker: global:review is the second library entry.
	d := drive(t, NewBindings(ctx)).press("a", "down", "enter")
	e := d.onlyEdit()
	if jsonv.Stringify(toAnyPath(e.Path)) != `["capabilities"]` || !strings.HasSuffix(jsonv.Stringify(e.Value), `{"ref":"missing"}]`) && !strings.HasSuffix(jsonv.Stringify(e.Value), `,{"ref":"global:review"}]`) {
		t.Fatalf("add = %s %s", jsonv.Stringify(toAnyPath(e.Path)), jsonv.Stringify(e.Value))
	}
	if c := CursorOf(d.Model); c.Row != 3 {
		t.Errorf("after add the cursor should land on the new binding, got %+v", c)
	}
	// the first binding of an empty Preset creates the array.
	d = drive(t, NewBindings(bindingsContext(t, `{"items":[]}`))).press("a", "enter")
	assertEdit(t, d.onlyEdit(), Path{"capabilities"}, `[{"ref":"project:write-tools"}]`, "capabilities add project:write-tools")

	// modelCallable toggles from the list.
	d = drive(t, NewBindings(ctx, WithCursor(Cursor{Row: 1}))).press("space")
	assertEdit(t, d.onlyEdit(), Path{"capabilities", 1, "modelCallable"}, "true", "capabilities.strict-review.modelCallable")

	// p replaces the ref from the picker.
	d = drive(t, NewBindings(ctx, WithCursor(Cursor{Row: 2}))).press("p", "enter")
	assertEdit(t, d.onlyEdit(), Path{"capabilities", 2, "ref"}, `"project:write-tools"`, "capabilities.missing.ref")

	// detail: id edited as text, content override built under overrides.
	d = drive(t, NewBindings(ctx, WithCursor(Cursor{Row: 1}))).press("enter", "down", "enter", "ctrl+u").typeText("rev").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"capabilities", 1, "id"}, `"rev"`, "capabilities.strict-review.id")
	d = drive(t, NewBindings(ctx, WithCursor(Cursor{Row: 1, Pane: 1, Detail: 3}))).press("enter").typeText(`Only report.\nNo edits.`).press("enter")
	assertEdit(t, d.onlyEdit(), Path{"capabilities", 1, "overrides"}, `{"content":"Only report.\nNo edits."}`, "")
	if e := d.edits[0]; e.Label != "capabilities.strict-review.overrides.content" {
		t.Errorf("label = %q", e.Label)
	}
	d = drive(t, NewBindings(ctx, WithCursor(Cursor{Row: 0, Pane: 1, Detail: 6}))).press("enter").typeText(`["write"]`).press("enter")
	assertEdit(t, d.onlyEdit(), Path{"capabilities", 0, "overrides", "tools", "remove"}, `["write"]`, "")

	// delete and reorder.
	d = drive(t, NewBindings(ctx, WithCursor(Cursor{Row: 1}))).press("x")
	if s := jsonv.Stringify(d.onlyEdit().Value); strings.Contains(s, "strict-review") {
		t.Fatalf("delete = %s", s)
	}
	d = drive(t, NewBindings(ctx, WithCursor(Cursor{Row: 1}))).press("K")
	if s := jsonv.Stringify(d.onlyEdit().Value); !strings.HasPrefix(s, `[{"ref":"global:review"`) {
		t.Fatalf("move up = %s", s)
	}

	if jsonv.Stringify(ctx.Draft) != before {
		t.Fatal("form mutated the draft")
	}
}

func TestBindingsWithoutLibrary(t *testing.T) {
	ctx := testContext(t, `{"items":[],"capabilities":[{"ref":"global:review"}]}`)
	d := drive(t, NewBindings(ctx)).press("a")
	v := sizedView(d.Model, 80, 24)
	if !strings.Contains(v, "the library has no capabilities") || !strings.Contains(v, "▸ … type a ref by hand") {
		t.Fatalf("picker without a library:\n%s", v)
	}
	if nb := sizedView(NewBindings(ctx), 160, 48); lineWith(nb, "SOURCE (unresolved)") == "" || lineWith(nb, "error:", "global:review") == "" {
		t.Errorf("an unresolvable ref without a library is not explained:\n%s", nb)
	}
	d.press("enter")
	assertEdit(t, d.onlyEdit(), Path{"capabilities"}, `[{"ref":"global:review"},{"ref":""}]`, "capabilities add")
	if c := CursorOf(d.Model); c.Row != 1 || c.Pane != 1 || c.Detail != 0 {
		t.Errorf("by-hand add should open the new ref field, cursor %+v", c)
	}
}

func TestBindingsPresetDiagnostics(t *testing.T) {
	src := `{"items":[],"capabilities":[{"ref":"project:write-tools","id":"dup"},{"ref":"global:review","id":"dup"}]}`
	ctx := bindingsContext(t, src)
	ctx.Scope = preset.ScopeGlobal
	_, ctx.Diagnostics = preset.ParseValue(ctx.Draft, "g.json", preset.ParseOptions{Scope: preset.ScopeGlobal})
	v := sizedView(NewBindings(ctx), 160, 48)
	if lineWith(v, "error:", "Global binding cannot reference project capability: project:write-tools.") == "" {
		t.Errorf("scope error not shown for the first binding:\n%s", v)
	}
	if lineWith(v, "Duplicate capability binding id: dup") == "" {
		t.Errorf("duplicate id not shown:\n%s", v)
	}
	second := sizedView(NewBindings(ctx, WithCursor(Cursor{Row: 1})), 160, 48)
	if lineWith(second, "Global binding cannot reference") != "" {
		t.Errorf("the first binding's scope error leaks onto the second:\n%s", second)
	}
}
