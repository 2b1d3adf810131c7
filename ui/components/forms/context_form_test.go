package forms

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

const contextDraft = `{"schemaVersion":2,"id":"c","items":[],"context":{"mergeConsecutiveRoles":true,"mergeSeparator":"\n---\n","allowDuplicateChatHistory":"yes"}}`

func TestContextOptionsGolden(t *testing.T) {
	goldenForms(t, map[string]func(*testing.T) Form{
		"context_set":   func(t *testing.T) Form { return NewContextOptions(testContext(t, contextDraft)) },
		"context_empty": func(t *testing.T) Form { return NewContextOptions(testContext(t, `{"items":[]}`)) },
	})
}

func TestContextOptionsEdits(t *testing.T) {
	ctx := testContext(t, contextDraft)
	before := jsonv.Stringify(ctx.Draft)
	v := sizedView(NewContextOptions(ctx), 80, 24)
	if !strings.Contains(v, `"\n---\n"`) {
		t.Errorf("separator not shown with escapes:\n%s", v)
	}
	if !strings.Contains(v, "context.allowDuplicateChatHistory must be a boolean when provided.") {
		t.Errorf("field diagnostic missing:\n%s", v)
	}

	// a non-boolean value toggles to true (its default is false).
	d := drive(t, NewContextOptions(ctx)).press("space")
	assertEdit(t, d.onlyEdit(), Path{"context", "allowDuplicateChatHistory"}, "true", "context.allowDuplicateChatHistory")
	d = drive(t, NewContextOptions(ctx, WithCursor(Cursor{Row: 1}))).press("enter")
	assertEdit(t, d.onlyEdit(), Path{"context", "mergeConsecutiveRoles"}, "false", "context.mergeConsecutiveRoles")

	// the separator is edited with escapes: \t and \n become real characters.
	d = drive(t, NewContextOptions(ctx, WithCursor(Cursor{Row: 2}))).press("enter", "ctrl+u").typeText(`\n\t*\n`).press("enter")
	assertEdit(t, d.onlyEdit(), Path{"context", "mergeSeparator"}, `"\n\t*\n"`, "context.mergeSeparator")
	// a broken escape is refused with the reason.
	d = drive(t, NewContextOptions(ctx, WithCursor(Cursor{Row: 2}))).press("enter").typeText(`\q`).press("enter")
	if len(d.edits) != 0 || !strings.Contains(sizedView(d.Model, 80, 24), "invalid escape sequence") {
		t.Fatalf("bad escape accepted:\n%s", sizedView(d.Model, 80, 24))
	}
	// esc cancels the edit without emitting.
	d.press("esc")
	if d.Model.CapturesInput() || len(d.edits) != 0 {
		t.Fatal("esc did not cancel")
	}
	// x unsets to the default.
	d = drive(t, NewContextOptions(ctx, WithCursor(Cursor{Row: 2}))).press("x")
	if e := d.onlyEdit(); !e.Delete || jsonv.Stringify(toAnyPath(e.Path)) != `["context","mergeSeparator"]` {
		t.Fatalf("unset = %+v", e)
	}
	// no context object yet: the edit builds it.
	d = drive(t, NewContextOptions(testContext(t, `{"items":[]}`), WithCursor(Cursor{Row: 1}))).press("space")
	assertEdit(t, d.onlyEdit(), Path{"context"}, `{"mergeConsecutiveRoles":true}`, "context.mergeConsecutiveRoles")

	if jsonv.Stringify(ctx.Draft) != before {
		t.Fatal("form mutated the draft")
	}
}
