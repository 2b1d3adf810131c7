package draft

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

func parseTree(t testing.TB, s string) *jsonv.Object {
	t.Helper()
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*jsonv.Object)
}

const smallPreset = `{"schemaVersion":2,"id":"small","x-note":{"kept":true},"items":[
 {"kind":"block","id":"a","role":"system","content":"first"},
 {"kind":"slot","id":"h","slot":"chat-history","options":{"maxMessages":3}}]}`

func open(t testing.TB) *Draft {
	t.Helper()
	return Open(parseTree(t, smallPreset), "small.json", preset.ScopeProject)
}

func TestSetAndDeleteLeaveTheOldTreeAndShareWhatTheyDoNotTouch(t *testing.T) {
	old := parseTree(t, smallPreset)
	before := jsonv.Stringify(old)
	next, err := Set(old, Path{"items", 1, "options", "maxMessages"}, float64(9))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Get(next, Path{"items", 1, "options", "maxMessages"}); got != float64(9) {
		t.Fatalf("set: got %v", got)
	}
	if jsonv.Stringify(old) != before {
		t.Fatalf("the old tree changed:\n%s\n%s", before, jsonv.Stringify(old))
	}
	oldItem, _ := Get(old, Path{"items", 0})
	newItem, _ := Get(next, Path{"items", 0})
	if oldItem != newItem {
		t.Error("item 0 was not touched and should be shared")
	}
	oldOpts, _ := Get(old, Path{"items", 1, "options"})
	newOpts, _ := Get(next, Path{"items", 1, "options"})
	if oldOpts == newOpts {
		t.Error("the options object on the path must be a copy")
	}
	del, err := Delete(next, Path{"items", 0})
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonv.Stringify(del); !strings.Contains(got, `"items":[{"kind":"slot"`) {
		t.Fatalf("delete of items[0]: %s", got)
	}
	del2, err := Delete(del, Path{"items", 0, "options"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := Get(del2, Path{"items", 0, "options"}); ok {
		t.Fatal("options should be gone")
	}
	add, err := Set(old, Path{"context", "mergeSeparator"}, "--")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Get(add, Path{"context", "mergeSeparator"}); got != "--" {
		t.Fatalf("created path: %v", got)
	}
	app, err := Set(old, Path{"items", 2}, jsonv.NewObject())
	if err != nil {
		t.Fatal(err)
	}
	if items, _ := Get(app, Path{"items"}); len(items.([]any)) != 3 {
		t.Fatalf("append: %v", items)
	}
	for _, bad := range []Path{{"items", 7, "id"}, {"items", "x"}, {"items", 0, 3}, {3.5}} {
		if _, err := Set(old, bad, "v"); err == nil {
			t.Errorf("path %v should be refused", bad)
		}
	}
	if _, err := Delete(old, Path{}); err == nil {
		t.Error("deleting the root should be refused")
	}
	if jsonv.Stringify(old) != before {
		t.Fatal("failed edits must not change the tree")
	}
}

func TestEqualComparesDocumentsKeyOrderIncluded(t *testing.T) {
	a := parseTree(t, `{"a":1,"b":[true,null,"s",{"c":2}]}`)
	for _, c := range []struct {
		doc  string
		want bool
	}{
		{`{"a":1,"b":[true,null,"s",{"c":2}]}`, true},
		{`{"b":[true,null,"s",{"c":2}],"a":1}`, false}, // another key order serialises differently
		{`{"a":1,"b":[true,null,"s",{"c":3}]}`, false},
		{`{"a":1,"b":[true,null,"s"]}`, false},
		{`{"a":"1","b":[true,null,"s",{"c":2}]}`, false},
		{`{"a":1,"b":{"0":true}}`, false},
	} {
		if got := Equal(a, parseTree(t, c.doc)); got != c.want {
			t.Errorf("Equal(%s, %s) = %v", jsonv.Stringify(a), c.doc, got)
		}
	}
	if !Equal(a, a) || !Equal(nil, nil) || Equal(a, nil) {
		t.Error("identity and nil")
	}
}

func TestEditsValidateLiveUndoRedoAndDirty(t *testing.T) {
	d := open(t)
	if d.Dirty() || d.Diagnostics().HasErrors() || !d.Checked() {
		t.Fatalf("fresh draft: dirty=%v diags=%v", d.Dirty(), d.Diagnostics())
	}
	held := d.Tree()
	heldText := jsonv.Stringify(held)
	if _, err := d.DuplicateItem(0); err != nil {
		t.Fatal(err)
	}
	if err := d.Apply(Edit{Path: Path{"items", 1, "id"}, Value: "a", Label: "id"}); err != nil {
		t.Fatal(err)
	}
	if !d.Diagnostics().HasErrors() || d.Diagnostics()[0].ItemID != "a" {
		t.Fatalf("want a duplicate-id error on item a at once, got %v", d.Diagnostics())
	}
	if !d.Dirty() || jsonv.Stringify(held) != heldText {
		t.Fatal("an edited draft is dirty and a held tree never changes")
	}
	if label, ok := d.Undo(); !ok || label != "id" || d.Diagnostics().HasErrors() {
		t.Fatalf("undo %q %v restores the valid tree, diags %v", label, ok, d.Diagnostics())
	}
	if _, ok := d.Undo(); !ok {
		t.Fatal("second undo")
	}
	if d.Tree() != held || d.Dirty() {
		t.Fatal("two undos return to the very tree that was loaded, not dirty")
	}
	if _, ok := d.Undo(); ok {
		t.Fatal("nothing left to undo")
	}
	if label, ok := d.Redo(); !ok || !strings.HasPrefix(label, "duplicate") || d.Len() != 3 {
		t.Fatalf("redo re-applies the duplicate: %q %v, %d items", label, ok, d.Len())
	}
	if label, ok := d.Redo(); !ok || label != "id" || !d.Diagnostics().HasErrors() {
		t.Fatalf("second redo re-applies the id edit: %q %v", label, ok)
	}
	if _, ok := d.Redo(); ok {
		t.Fatal("nothing left to redo")
	}
	d.Undo()
	if err := d.ToggleItem(0); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Redo(); ok {
		t.Fatal("a new edit clears what could be redone")
	}
}

func TestTypingPatchesTheTypedViewAndLeavesValidationToACheck(t *testing.T) {
	d := open(t)
	v0 := d.Version()
	for _, s := range []string{"f", "fi", "fi {{ x"} {
		if err := d.Apply(Edit{Path: Path{"items", 0, "content"}, Value: s, Label: "edit a", Coalesce: true}); err != nil {
			t.Fatal(err)
		}
	}
	if d.Stack().Items[0].Content != "fi {{ x" || d.Version() != v0+3 {
		t.Fatalf("the typed view follows each key: %q", d.Stack().Items[0].Content)
	}
	if d.Checked() {
		t.Fatal("typing leaves the diagnostics to a check")
	}
	stale := d.Snapshot()
	if err := d.Apply(Edit{Path: Path{"items", 0, "content"}, Value: "final", Label: "edit a", Coalesce: true}); err != nil {
		t.Fatal(err)
	}
	if d.Install(stale.Check()) {
		t.Fatal("a check of an older version must be dropped")
	}
	c := d.Snapshot().Check()
	if !d.Install(c) || !d.Checked() || d.Stack() != c.Stack {
		t.Fatal("the check of the current version is installed")
	}
	if d.Install(c) {
		t.Fatal("a second install of the same version is no change")
	}
	if _, ok := d.Undo(); !ok || d.Stack().Items[0].Content != "first" || d.Dirty() {
		t.Fatalf("typing in one field is one undo step back to the loaded text: %q", d.Stack().Items[0].Content)
	}
	// Typing back to the loaded text is not a change.
	_ = d.Apply(Edit{Path: Path{"items", 0, "content"}, Value: "firs", Label: "edit a", Coalesce: true})
	_ = d.Apply(Edit{Path: Path{"items", 0, "content"}, Value: "first", Label: "edit a", Coalesce: true})
	if d.Dirty() {
		t.Fatal("text typed back to what was loaded is clean")
	}
}

// A slot's content or a new key of a non-object item is not block text:
// those edits parse the whole tree, so the typed view never lies.
func TestOnlyBlockTextIsPatched(t *testing.T) {
	d := Open(parseTree(t, `{"id":"p","items":[{"kind":"slot","id":"s","slot":"cwd"},7]}`), "p.json", preset.ScopeProject)
	if err := d.Apply(Edit{Path: Path{"items", 0, "content"}, Value: "x", Label: "c"}); err != nil {
		t.Fatal(err)
	}
	if !d.Checked() {
		t.Fatal("an edit of a slot parses at once")
	}
	if _, editable, _ := d.Item(1); editable {
		t.Fatal("a number item is not editable")
	}
	if err := d.ToggleItem(1); err == nil {
		t.Fatal("toggling a non-object item is refused")
	}
	if err := d.DeleteItem(1); err != nil || d.Len() != 1 {
		t.Fatalf("deleting it works: %v", err)
	}
}

func TestUndoCoalescesTypingAndKeepsAHundredSteps(t *testing.T) {
	d := open(t)
	for i := range 130 {
		if err := d.ToggleItem(0); err != nil {
			t.Fatal(err, i)
		}
	}
	n := 0
	for {
		if _, ok := d.Undo(); !ok {
			break
		}
		n++
	}
	if n != historyDepth {
		t.Fatalf("undo depth %d, want %d", n, historyDepth)
	}
}

func TestMarkSavedKeepsEditsMadeDuringTheSave(t *testing.T) {
	d := open(t)
	_ = d.ToggleItem(0)
	saving := d.Tree()
	_ = d.ToggleItem(1) // typed while the save ran
	d.MarkSaved(saving)
	if !d.Dirty() {
		t.Fatal("the edit made after the save started is still unsaved")
	}
	d.MarkSaved(d.Tree())
	if d.Dirty() {
		t.Fatal("saved")
	}
}

func TestItemEdits(t *testing.T) {
	d := open(t)
	j, err := d.MoveItem(0, 1)
	if err != nil || j != 1 || d.Stack().Items[1].ID != "a" {
		t.Fatalf("move down: %d %v %s", j, err, jsonv.Stringify(d.Tree()))
	}
	if j, _ := d.MoveItem(1, 1); j != 1 {
		t.Fatal("the last item does not move down")
	}
	i, err := d.AddSlot(1, "tools")
	if err != nil || i != 2 || d.Stack().Items[2].ID != "tools" || d.Stack().Items[2].Role != preset.RoleSystem {
		t.Fatalf("add slot: %d %v", i, err)
	}
	if i, _ := d.AddSlot(0, "chat-history"); d.Stack().Items[i].Role != preset.RoleNone {
		t.Fatal("a chat-history slot takes no role")
	}
	i, err = d.AddBlock(-1)
	if err != nil || i != 0 || d.Stack().Items[0].ID != "block" {
		t.Fatalf("add block first: %d %v", i, err)
	}
	i, err = d.AddBlock(0)
	if err != nil || d.Stack().Items[i].ID != "block-2" {
		t.Fatalf("second block id: %s", d.Stack().Items[i].ID)
	}
	if i, err = d.DuplicateItem(d.IndexOf("a")); err != nil || d.Stack().Items[i].ID != "a-copy" || d.Stack().Items[i].Content != "first" {
		t.Fatalf("duplicate: %v %+v", err, d.Stack().Items[i])
	}
	if err := d.ToggleItem(0); err != nil || d.Stack().Items[0].IsEnabled() {
		t.Fatal("toggle disables the item in the typed view")
	}
	if err := d.DeleteItem(0); err != nil || d.Len() != 6 {
		t.Fatalf("after delete: %d items", d.Len())
	}
	if d.Diagnostics().HasErrors() {
		t.Fatalf("edits keep the preset valid: %v", d.Diagnostics())
	}
	if note, _ := Get(d.Tree(), Path{"x-note", "kept"}); note != true {
		t.Fatal("an unknown key survives every edit")
	}
	if d.IndexOf("nope") != -1 || d.DeleteItem(99) == nil {
		t.Fatal("missing items")
	}
}

func TestSetBlockTextAndRenamed(t *testing.T) {
	d := open(t)
	if err := d.SetBlockText(1, "x", "edit h", false); err == nil {
		t.Fatal("a slot has no text")
	}
	if err := d.SetBlockText(0, "typed", "edit a", true); err != nil || d.Stack().Items[0].Content != "typed" || d.Checked() {
		t.Fatalf("block text: %v", err)
	}
	tree, err := Renamed(d.Tree(), "fresh", true)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := Get(tree, Path{"id"})
	name, _ := Get(tree, Path{"name"})
	if id != "fresh" || name != "fresh" {
		t.Fatalf("renamed: id %v name %v", id, name)
	}
	if id, _ := Get(d.Tree(), Path{"id"}); id != "small" {
		t.Fatal("the draft's own tree keeps its id")
	}
}
