package presets

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

func parseTree(t *testing.T, s string) *jsonv.Object {
	t.Helper()
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*jsonv.Object)
}

const smallPreset = `{"schemaVersion":2,"id":"small","items":[
 {"kind":"block","id":"a","role":"system","content":"first"},
 {"kind":"slot","id":"h","slot":"chat-history","options":{"maxMessages":3}}]}`

func TestSetPathSetsAndDeletesWithoutTouchingTheOldTree(t *testing.T) {
	old := parseTree(t, smallPreset)
	before := jsonv.Stringify(old)
	next, err := setPath(old, Path{"items", 1, "options", "maxMessages"}, float64(9), false)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := getPath(next, Path{"items", 1, "options", "maxMessages"}); got != float64(9) {
		t.Fatalf("set: got %v", got)
	}
	if jsonv.Stringify(old) != before {
		t.Fatalf("the old tree changed:\n%s\n%s", before, jsonv.Stringify(old))
	}
	// Untouched subtrees are shared, touched ones copied.
	oldItems, _ := getPath(old, Path{"items", 0})
	newItems, _ := getPath(next, Path{"items", 0})
	if oldItems != newItems {
		t.Error("item 0 was not touched and should be shared")
	}
	oldOpts, _ := getPath(old, Path{"items", 1, "options"})
	newOpts, _ := getPath(next, Path{"items", 1, "options"})
	if oldOpts == newOpts {
		t.Error("the options object on the path must be a copy")
	}

	del, err := setPath(next, Path{"items", 0}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonv.Stringify(del); !strings.Contains(got, `"items":[{"kind":"slot"`) {
		t.Fatalf("delete of items[0]: %s", got)
	}
	del2, err := setPath(del, Path{"items", 0, "options"}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := getPath(del2, Path{"items", 0, "options"}); ok {
		t.Fatal("options should be gone")
	}
	// Creating missing objects and appending to arrays.
	add, err := setPath(old, Path{"context", "mergeSeparator"}, "--", false)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := getPath(add, Path{"context", "mergeSeparator"}); got != "--" {
		t.Fatalf("created path: %v", got)
	}
	app, err := setPath(old, Path{"items", 2}, jsonv.NewObject(), false)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(mustArr(t, app, "items")); n != 3 {
		t.Fatalf("append: %d items", n)
	}
	for _, bad := range []Path{{"items", 7, "id"}, {"items", "x"}, {"items", 0, 3}, {3.5}} {
		if _, err := setPath(old, bad, "v", false); err == nil {
			t.Errorf("path %v should be refused", bad)
		}
	}
	if jsonv.Stringify(old) != before {
		t.Fatal("failed edits must not change the tree")
	}
}

func mustArr(t *testing.T, o *jsonv.Object, k string) []any {
	t.Helper()
	v, _ := o.Get(k)
	a, ok := v.([]any)
	if !ok {
		t.Fatalf("%s is not an array", k)
	}
	return a
}

func TestDraftUndoLiveValidationAndDirty(t *testing.T) {
	d := newDraft(parseTree(t, smallPreset), "small.json", preset.ScopeProject)
	if d.dirty || d.diags.HasErrors() {
		t.Fatalf("fresh draft: dirty=%v diags=%v", d.dirty, d.diags)
	}
	held := d.tree
	heldText := jsonv.Stringify(held)
	if _, err := d.duplicateItem(0); err != nil {
		t.Fatal(err)
	}
	// Live validation: duplicate ids are fine (new id), but setting the
	// copy's id back to "a" is an error right away.
	if err := d.apply(Path{"items", 1, "id"}, "a", false, "id", false); err != nil {
		t.Fatal(err)
	}
	if !d.diags.HasErrors() || d.diags[0].ItemID != "a" {
		t.Fatalf("want a duplicate-id error on item a, got %v", d.diags)
	}
	if !d.dirty {
		t.Fatal("an edited draft is dirty")
	}
	if jsonv.Stringify(held) != heldText {
		t.Fatal("a held tree changed after edits")
	}
	if _, ok := d.undoLast(); !ok {
		t.Fatal("undo")
	}
	if d.diags.HasErrors() {
		t.Fatalf("undo restores the valid tree, diags %v", d.diags)
	}
	if _, ok := d.undoLast(); !ok {
		t.Fatal("second undo")
	}
	if d.tree != held || d.dirty {
		t.Fatal("two undos return to the very tree that was loaded, not dirty")
	}
	if _, ok := d.undoLast(); ok {
		t.Fatal("nothing left to undo")
	}
}

func TestUndoCoalescesTypingAndKeepsAtLeastFiftySteps(t *testing.T) {
	d := newDraft(parseTree(t, smallPreset), "small.json", preset.ScopeProject)
	for _, s := range []string{"f", "fi", "fir"} {
		if err := d.apply(Path{"items", 0, "content"}, s, false, "edit a", true); err != nil {
			t.Fatal(err)
		}
	}
	if len(d.undo) != 1 {
		t.Fatalf("typing in one field is one undo step, have %d", len(d.undo))
	}
	for i := range 60 {
		if err := d.toggleItem(0); err != nil {
			t.Fatal(err, i)
		}
	}
	if len(d.undo) < 50 {
		t.Fatalf("undo depth %d < 50", len(d.undo))
	}
}

func TestItemEdits(t *testing.T) {
	d := newDraft(parseTree(t, smallPreset), "small.json", preset.ScopeProject)
	j, err := d.moveItem(0, 1)
	if err != nil || j != 1 || itemID(d.item(1)) != "a" {
		t.Fatalf("move down: %d %v %s", j, err, jsonv.Stringify(d.tree))
	}
	i, err := d.addSlot(1, "tools")
	if err != nil || i != 2 || itemID(d.item(2)) != "tools" {
		t.Fatalf("add slot: %d %v", i, err)
	}
	i, err = d.addBlock(-1)
	if err != nil || i != 0 || itemID(d.item(0)) != "block" {
		t.Fatalf("add block first: %d %v", i, err)
	}
	i, err = d.addBlock(0)
	if err != nil || itemID(d.item(i)) != "block-2" {
		t.Fatalf("second block id: %s", itemID(d.item(i)))
	}
	if err := d.toggleItem(0); err != nil {
		t.Fatal(err)
	}
	if d.stack.Items[0].IsEnabled() {
		t.Fatal("toggle disables the item in the parsed stack")
	}
	if err := d.deleteItem(0); err != nil {
		t.Fatal(err)
	}
	if len(d.stack.Items) != 4 {
		t.Fatalf("after delete: %d items", len(d.stack.Items))
	}
	if d.diags.HasErrors() {
		t.Fatalf("edits keep the preset valid: %v", d.diags)
	}
}
