package forms

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

const paramsV2 = `{"schemaVersion":2,"id":"p","items":[],
 "parameters":{"role":"reviewer","limits":{"files":3,"strict":true},"langs":["go","ts"]},
 "variables":{"old":"x"}}`

const paramsV1 = `{"id":"p","items":[],"variables":{"tone":"terse\nand dry","count":3}}`

func TestParametersGolden(t *testing.T) {
	goldenForms(t, map[string]func(*testing.T) Form{
		"params_v2": func(t *testing.T) Form { return NewParameters(testContext(t, paramsV2)) },
		"params_v1": func(t *testing.T) Form { return NewParameters(testContext(t, paramsV1)) },
	})
}

func TestParametersEdits(t *testing.T) {
	ctx := testContext(t, paramsV2)
	before := jsonv.Stringify(ctx.Draft)

	// editing a value: a JSON parse error is shown inline, then a valid value commits.
	d := drive(t, NewParameters(ctx, WithCursor(Cursor{Row: 1}))).press("enter", "ctrl+u").typeText(`{"files":}`).press("enter")
	if len(d.edits) != 0 || !strings.Contains(sizedView(d.Model, 80, 24), "✗ invalid JSON") {
		t.Fatalf("bad JSON committed or no inline error:\n%s", sizedView(d.Model, 80, 24))
	}
	d.press("ctrl+u").typeText(`{"files": 5}`).press("enter")
	assertEdit(t, d.onlyEdit(), Path{"parameters", "limits"}, `{"files":5}`, "parameters.limits")

	// add, with a duplicate refused first.
	d = drive(t, NewParameters(ctx)).press("a").typeText(`role = 1`).press("enter")
	if len(d.edits) != 0 || !strings.Contains(sizedView(d.Model, 80, 24), "role already exists") {
		t.Fatal("duplicate parameter accepted")
	}
	d.press("ctrl+u").typeText(`depth = 2.5`).press("enter")
	assertEdit(t, d.onlyEdit(), Path{"parameters", "depth"}, `2.5`, "parameters.depth")

	// rename keeps the position of the entry.
	d = drive(t, NewParameters(ctx, WithCursor(Cursor{Row: 1}))).press("R", "ctrl+u").typeText("caps").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"parameters"}, `{"role":"reviewer","caps":{"files":3,"strict":true},"langs":["go","ts"]}`, "parameters.limits → caps")

	// delete.
	d = drive(t, NewParameters(ctx, WithCursor(Cursor{Row: 2}))).press("x")
	if e := d.onlyEdit(); !e.Delete || jsonv.Stringify(toAnyPath(e.Path)) != `["parameters","langs"]` {
		t.Fatalf("delete = %+v", e)
	}

	// v1: values are strings, edited as plain text.
	v1 := testContext(t, paramsV1)
	d = drive(t, NewParameters(v1)).press("enter", "ctrl+u").typeText("warm").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"variables", "tone"}, `"warm"`, "variables.tone")
	d = drive(t, NewParameters(v1)).press("a").typeText("who = the user").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"variables", "who"}, `"the user"`, "variables.who")
	if v := sizedView(NewParameters(v1), 160, 48); !strings.Contains(v, "Preset variable count must be a string.") {
		t.Errorf("v1 diagnostics missing:\n%s", v)
	}

	if jsonv.Stringify(ctx.Draft) != before {
		t.Fatal("form mutated the draft")
	}
}
