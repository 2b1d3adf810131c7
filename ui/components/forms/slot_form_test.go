package forms

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

const slotDraft = `{"schemaVersion":2,"id":"demo","items":[
 {"kind":"block","id":"intro","role":"system","content":"hi"},
 {"kind":"slot","id":"history","slot":"chat-history","options":{"includeLastUserMessage":false,"toolMode":"dorp","maxChars":0,"legacyFlag":{"a":[1,2]}}},
 {"kind":"slot","id":"tools","role":"system","slot":"tools"},
 {"kind":"slot","id":"sep","role":"system","slot":"context-separator","options":{"text":"---"}}
]}`

func TestSlotOptionsGolden(t *testing.T) {
	forms := map[string]func(*testing.T) Form{}
	for _, item := range []int{1, 2, 3} {
		forms[fmt.Sprintf("slot_item%d", item)] = func(t *testing.T) Form { return NewSlotOptions(testContext(t, slotDraft), item) }
	}
	goldenForms(t, forms)
}

func TestSlotOptionsEdits(t *testing.T) {
	ctx := testContext(t, slotDraft)
	before := jsonv.Stringify(ctx.Draft)

	d := drive(t, NewSlotOptions(ctx, 1)).press("space")
	assertEdit(t, d.onlyEdit(), Path{"items", 1, "options", "includeLastUserMessage"}, "true", "items.history.options.includeLastUserMessage")

	// toolMode is invalid ("dorp"): cycling starts from the first choice.
	d = drive(t, NewSlotOptions(ctx, 1, WithCursor(Cursor{Row: 3}))).press("right")
	assertEdit(t, d.onlyEdit(), Path{"items", 1, "options", "toolMode"}, `"keep"`, "")

	// maxChars: a number editor that rejects text and accepts 1200.
	d = drive(t, NewSlotOptions(ctx, 1, WithCursor(Cursor{Row: 6}))).press("enter")
	if !d.Model.CapturesInput() {
		t.Fatal("editing a number should capture input")
	}
	d.press("ctrl+u").typeText("lots").press("enter")
	if len(d.edits) != 0 || !strings.Contains(sizedView(d.Model, 80, 24), `"lots" is not a number`) {
		t.Fatalf("non-number committed or no error shown: %+v\n%s", d.edits, sizedView(d.Model, 80, 24))
	}
	d.press("ctrl+u").typeText("1200").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"items", 1, "options", "maxChars"}, "1200", "items.history.options.maxChars")

	// the unknown key is raw JSON: invalid JSON shows the parse error inline.
	d = drive(t, NewSlotOptions(ctx, 1, WithCursor(Cursor{Row: 7}))).press("enter", "ctrl+u").typeText(`{"a":`).press("enter")
	if len(d.edits) != 0 || !strings.Contains(sizedView(d.Model, 80, 24), "invalid JSON") {
		t.Fatalf("invalid JSON committed or no error shown")
	}
	d.press("ctrl+u").typeText(`[true, null]`).press("down")
	assertEdit(t, d.onlyEdit(), Path{"items", 1, "options", "legacyFlag"}, `[true,null]`, "")

	// deleting the unknown key.
	d = drive(t, NewSlotOptions(ctx, 1, WithCursor(Cursor{Row: 7}))).press("x")
	if e := d.onlyEdit(); !e.Delete || jsonv.Stringify(toAnyPath(e.Path)) != `["items",1,"options","legacyFlag"]` {
		t.Fatalf("delete edit = %+v", e)
	}

	// a slot without options: the edit builds the options object.
	d = drive(t, NewSlotOptions(ctx, 2)).press("space")
	assertEdit(t, d.onlyEdit(), Path{"items", 2, "options"}, `{"format":"plain"}`, "items.tools.options.format")

	// adding a raw option.
	d = drive(t, NewSlotOptions(ctx, 2)).press("a").typeText(`extra = {"x": "\n"}`).press("enter")
	assertEdit(t, d.onlyEdit(), Path{"items", 2, "options"}, `{"extra":{"x":"\n"}}`, "items.tools.options.extra")

	if after := jsonv.Stringify(ctx.Draft); after != before {
		t.Fatalf("form mutated the draft:\n%s\n%s", before, after)
	}
}

func TestSlotOptionsCursorSurvivesRecreation(t *testing.T) {
	ctx := testContext(t, slotDraft)
	d := drive(t, NewSlotOptions(ctx, 1)).press("down", "down", "down")
	again := NewSlotOptions(ctx, 1, WithCursor(CursorOf(d.Model)))
	if CursorOf(again).Row != 3 || !strings.Contains(sizedView(again, 80, 24), "▸ toolMode") {
		t.Fatalf("cursor not restored: %+v", CursorOf(again))
	}
	if got := CursorOf(NewSlotOptions(ctx, 1, WithCursor(Cursor{Row: 99}))).Row; got != 7 {
		t.Fatalf("out-of-range cursor clamps to the last row, got %d", got)
	}
}

func TestSlotOptionsOnABlock(t *testing.T) {
	ctx := testContext(t, slotDraft)
	d := drive(t, NewSlotOptions(ctx, 0)).press("a", "space", "x")
	if len(d.edits) != 0 || d.Model.CapturesInput() {
		t.Fatalf("a block offered options: %+v", d.edits)
	}
	if v := sizedView(d.Model, 80, 24); !strings.Contains(v, "items[0] is a block, not a slot") {
		t.Errorf("block not explained:\n%s", v)
	}
	if v := sizedView(NewSlotOptions(ctx, 9), 80, 24); !strings.Contains(v, "items[9] is not an object") {
		t.Errorf("missing item not explained:\n%s", v)
	}
}
