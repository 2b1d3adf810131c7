package forms

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

const propsDraft = `{"schemaVersion":1,"id":"p","name":"P","x-extra":{"keep":1},"variables":{"tone":"terse"},
 "items":[{"kind":"block","id":"intro","name":"Intro","role":"system","content":"hi"},
          {"kind":"block","id":"intro","role":"user","content":"again"}]}`

func TestNewFormsGolden(t *testing.T) {
	goldenForms(t, map[string]func(*testing.T) Form{
		"properties": func(t *testing.T) Form { return NewProperties(testContext(t, propsDraft)) },
		"item":       func(t *testing.T) Form { return NewItem(testContext(t, propsDraft), 1) },
		"raw_json":   func(t *testing.T) Form { return NewRawJSON(testContext(t, propsDraft)) },
	})
}

// TestPolicyModeCycleKeepsPatterns: allow → deny → none → allow gives the
// allow patterns back (issue 14), with the memory the panel keeps.
func TestPolicyModeCycleKeepsPatterns(t *testing.T) {
	mem := &Memory{}
	src := `{"schemaVersion":2,"id":"p","items":[],"tools":{"allow":["read","ls"]}}`
	step := func(src string) string {
		ctx := policyContext(t, src)
		ctx.Memory = mem
		e := drive(t, NewPolicy(ctx, "tools")).press("m").onlyEdit()
		return `{"schemaVersion":2,"id":"p","items":[],"tools":` + jsonv.Stringify(e.Value) + `}`
	}
	deny := step(src)
	if !strings.Contains(deny, `"deny":["read","ls"]`) {
		t.Fatalf("allow → deny moves the list: %s", deny)
	}
	none := step(deny)
	if strings.Contains(none, "read") {
		t.Fatalf("none has no patterns: %s", none)
	}
	allow := step(none)
	if !strings.Contains(allow, `"allow":["read","ls"]`) {
		t.Fatalf("none → allow restores the patterns: %s", allow)
	}
}

// TestPolicyAddKeepsCursorAndTopBottom: after adding a pattern the cursor
// stays on the add row; g and G jump.
func TestPolicyAddKeepsCursorAndTopBottom(t *testing.T) {
	ctx := policyContext(t, policyDraft)
	f := NewPolicy(ctx, "tools", WithCursor(Cursor{Row: 4})) // "+ add pattern"
	d := drive(t, f).press("enter").typeText("web_*").press("enter")
	if len(d.edits) != 1 || CursorOf(d.Model).Row != 5 {
		t.Fatalf("edits %d, cursor %d (want 5: still on the add row)", len(d.edits), CursorOf(d.Model).Row)
	}
	d.press("G")
	if pf := d.Model.(*policyForm); pf.row != len(pf.rows)-1 {
		t.Fatalf("G: row %d of %d", pf.row, len(pf.rows))
	}
	d.press("g")
	if CursorOf(d.Model).Row != 0 {
		t.Fatal("g does not go to the first row")
	}
	// a on a known-tool row: one cursor, on the row being added.
	d = drive(t, NewPolicy(policyContext(t, policyDraft), "tools", WithCursor(Cursor{Row: 6}))).press("a")
	marks := strings.Count(ansi.Strip(sizedView(d.Model, 160, 48)), "▸")
	if marks != 1 {
		t.Fatalf("%d cursors:\n%s", marks, ansi.Strip(sizedView(d.Model, 160, 48)))
	}
}

// TestParametersTakeTextWithoutQuotes: a value that is not JSON is text;
// a broken object is one "invalid JSON" error.
func TestParametersTakeTextWithoutQuotes(t *testing.T) {
	ctx := testContext(t, paramsV2)
	d := drive(t, NewParameters(ctx)).press("a").typeText("team = billing ops").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"parameters", "team"}, `"billing ops"`, "parameters.team")
	d = drive(t, NewParameters(ctx)).press("a").typeText("n = 3").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"parameters", "n"}, `3`, "parameters.n")
	d = drive(t, NewParameters(ctx, WithCursor(Cursor{Row: 1}))).press("enter", "ctrl+u").typeText(`{"files":}`).press("enter")
	v := sizedView(d.Model, 160, 48)
	if len(d.edits) != 0 || strings.Count(v, "invalid JSON") != 1 {
		t.Fatalf("want one invalid JSON error:\n%s", v)
	}
}

// TestPropertiesSwitchSchemaVersionMigrates: 1 → 2 moves variables into
// parameters, keeping unknown keys and the order.
func TestPropertiesSwitchSchemaVersionMigrates(t *testing.T) {
	ctx := testContext(t, propsDraft)
	f := NewProperties(ctx, WithCursor(Cursor{Row: 6}))
	e := drive(t, f).press("space").onlyEdit()
	got := jsonv.Stringify(e.Value)
	if len(e.Path) != 0 || !strings.Contains(got, `"schemaVersion":2`) || !strings.Contains(got, `"parameters":{"tone":"terse"}`) ||
		strings.Contains(got, `"variables"`) || !strings.Contains(got, `"x-extra":{"keep":1}`) {
		t.Fatalf("%v %s", e.Path, got)
	}
	// mode cycles and autoActivate toggles like other fields.
	e = drive(t, NewProperties(ctx, WithCursor(Cursor{Row: 2}))).press("space").onlyEdit()
	assertEdit(t, e, Path{"mode"}, `"append"`, "mode") // unset reads as replace
	e = drive(t, NewProperties(ctx, WithCursor(Cursor{Row: 4}))).press("space").onlyEdit()
	assertEdit(t, e, Path{"defaults"}, `{"syntheticMessagesVisible":true}`, "defaults.syntheticMessagesVisible")
}

// TestItemFormFixesDuplicateID: the id is checked live and commits.
func TestItemFormFixesDuplicateID(t *testing.T) {
	ctx := testContext(t, propsDraft)
	if !strings.Contains(sizedView(NewItem(ctx, 1), 160, 48), "Duplicate item id: intro") {
		t.Fatal("the item form does not show the duplicate")
	}
	d := drive(t, NewItem(ctx, 1, WithCursor(Cursor{Row: 1}))).press("enter")
	if v := sizedView(d.Model, 160, 48); !strings.Contains(v, "another item already has the id intro") {
		t.Fatalf("no live check:\n%s", v)
	}
	d.press("ctrl+u").typeText("outro")
	if v := sizedView(d.Model, 160, 48); !strings.Contains(v, "✓ ok") {
		t.Fatalf("no ok:\n%s", v)
	}
	d.press("enter")
	assertEdit(t, d.onlyEdit(), Path{"items", 1, "id"}, `"outro"`, "")
	e := drive(t, NewItem(ctx, 1, WithCursor(Cursor{Row: 2}))).press("space").onlyEdit()
	assertEdit(t, e, Path{"items", 1, "role"}, `"assistant"`, "")
}

// TestRawJSONKeepsTheDraftOnAParseError: typing applies states that parse
// and points at line:col otherwise; unknown keys are part of the text.
func TestRawJSONKeepsTheDraftOnAParseError(t *testing.T) {
	ctx := testContext(t, propsDraft)
	d := drive(t, NewRawJSON(ctx))
	if !strings.Contains(sizedView(d.Model, 160, 48), `"x-extra": {`) {
		t.Fatal("unknown keys are not shown")
	}
	d.press("enter", "ctrl+end", "backspace") // drop the closing brace
	v := sizedView(d.Model, 160, 48)
	if len(d.edits) != 0 || !strings.Contains(v, "invalid JSON at line 26, column 1: unterminated object") || !strings.Contains(v, "keeps its last valid state") {
		t.Fatalf("edits %d\n%s", len(d.edits), v)
	}
	d.typeText("}")
	e := d.onlyEdit()
	if len(e.Path) != 0 || !e.Coalesce {
		t.Fatalf("%+v", e)
	}
	obj := e.Value.(*jsonv.Object)
	if _, ok := obj.Get("x-extra"); !ok {
		t.Fatal("the unknown key was lost")
	}
	if problem := parseProblem("[1]", NounPreset); problem != "Preset root must be a JSON object." {
		t.Fatal(problem)
	}
	_ = preset.LevelError
}
