package forms

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

const regexDraft = `{"schemaVersion":2,"id":"r","items":[],"regex":{"schemaVersion":1,"rules":[
 {"id":"strip-sig","name":"Strip signatures","stage":"history","pattern":"^--\\s.*$","flags":"gm","replace":"","roles":["assistant"]},
 {"id":"broken","stage":"compiled","pattern":"(unclosed","flags":"g","enabled":false},
 {"id":"fin","stage":"history","effect":"finalize","pattern":"secret","replace":"[redacted]\n","source":{"from":"import"}}
]}}`

func TestRegexGolden(t *testing.T) {
	goldenForms(t, map[string]func(*testing.T) Form{
		"regex_rule0": func(t *testing.T) Form { return NewRegex(testContext(t, regexDraft)) },
		"regex_rule1": func(t *testing.T) Form { return NewRegex(testContext(t, regexDraft), WithCursor(Cursor{Row: 1})) },
		"regex_empty": func(t *testing.T) Form { return NewRegex(testContext(t, `{"items":[]}`)) },
	})
}

func TestRegexCompileErrorShown(t *testing.T) {
	ctx := testContext(t, regexDraft)
	v := sizedView(NewRegex(ctx, WithCursor(Cursor{Row: 1})), 160, 48)
	if !strings.Contains(v, "error: Invalid regular expression: /(unclosed/g:") {
		t.Errorf("compile error of the stored pattern not shown:\n%s", v)
	}
	if !strings.Contains(v, "broken ✗") && !strings.Contains(v, "broken ⚠") {
		t.Errorf("the list does not flag the broken rule:\n%s", v)
	}
	ok := sizedView(NewRegex(ctx), 160, 48)
	if !strings.Contains(ok, "✓ compiles as /^--\\s.*$/gm") {
		t.Errorf("a good pattern is not confirmed:\n%s", ok)
	}
	// live check while typing: the error appears and goes away.
	d := drive(t, NewRegex(ctx, WithCursor(Cursor{Row: 0, Pane: 1, Detail: 6}))).press("enter", "ctrl+u").typeText("a[")
	if !d.Model.CapturesInput() || !strings.Contains(sizedView(d.Model, 160, 48), "✗ Invalid regular expression: /a[/gm") {
		t.Fatalf("live compile error missing:\n%s", sizedView(d.Model, 160, 48))
	}
	d.typeText("b]")
	if !strings.Contains(sizedView(d.Model, 160, 48), "✓ ok") {
		t.Fatalf("live check did not clear:\n%s", sizedView(d.Model, 160, 48))
	}
	d.press("enter")
	assertEdit(t, d.onlyEdit(), Path{"regex", "rules", 0, "pattern"}, `"a[b]"`, "regex.rules.strip-sig.pattern")
}

func TestRegexEdits(t *testing.T) {
	ctx := testContext(t, regexDraft)
	before := jsonv.Stringify(ctx.Draft)

	d := drive(t, NewRegex(ctx, WithCursor(Cursor{Row: 1}))).press("space")
	assertEdit(t, d.onlyEdit(), Path{"regex", "rules", 1, "enabled"}, "true", "regex.rules.broken.enabled")

	d = drive(t, NewRegex(ctx)).press("J")
	e := d.onlyEdit()
	if jsonv.Stringify(toAnyPath(e.Path)) != `["regex","rules"]` || !strings.HasPrefix(jsonv.Stringify(e.Value), `[{"id":"broken"`) {
		t.Fatalf("move down = %+v", e)
	}
	if CursorOf(d.Model).Row != 1 {
		t.Errorf("cursor does not follow the moved rule")
	}

	d = drive(t, NewRegex(ctx, WithCursor(Cursor{Row: 2}))).press("x")
	if s := jsonv.Stringify(d.onlyEdit().Value); strings.Contains(s, `"fin"`) || !strings.Contains(s, `"broken"`) {
		t.Fatalf("delete = %s", s)
	}

	d = drive(t, NewRegex(ctx)).press("a")
	e = d.onlyEdit()
	if s := jsonv.Stringify(e.Value); !strings.HasSuffix(s, `{"id":"rule-4","enabled":true,"stage":"history","pattern":"","replace":""}]`) {
		t.Fatalf("add = %s", s)
	}
	if c := CursorOf(d.Model); c.Row != 3 || c.Pane != 1 {
		t.Errorf("after add the cursor should open the new rule, got %+v", c)
	}

	// a first rule creates regex with schemaVersion 1.
	d = drive(t, NewRegex(testContext(t, `{"items":[]}`))).press("a")
	assertEdit(t, d.onlyEdit(), Path{"regex"}, `{"schemaVersion":1,"rules":[{"id":"rule-1","enabled":true,"stage":"history","pattern":"","replace":""}]}`, "regex.rules add")

	// detail: stage cycles with space; ← returns to the list.
	d = drive(t, NewRegex(ctx)).press("enter", "down", "down", "down", "space")
	assertEdit(t, d.onlyEdit(), Path{"regex", "rules", 0, "stage"}, `"compiled"`, "regex.rules.strip-sig.stage")
	d.press("left")
	if CursorOf(d.Model).Pane != 0 {
		t.Errorf("← does not return to the list")
	}

	// replace is edited with escapes.
	d = drive(t, NewRegex(ctx, WithCursor(Cursor{Row: 2, Pane: 1, Detail: 8}))).press("enter")
	if !strings.Contains(sizedView(d.Model, 160, 48), `[redacted]\n`) {
		t.Fatalf("replace not shown escaped:\n%s", sizedView(d.Model, 160, 48))
	}
	d.press("backspace", "backspace").typeText(`\t`).press("enter")
	assertEdit(t, d.onlyEdit(), Path{"regex", "rules", 2, "replace"}, `"[redacted]\t"`, "regex.rules.fin.replace")

	if jsonv.Stringify(ctx.Draft) != before {
		t.Fatal("form mutated the draft")
	}
}
