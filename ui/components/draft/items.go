package draft

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
)

// Item-list edits. Each reads the typed view, builds a new items array
// (sharing the untouched item objects) and installs it as one undoable
// step. The keys they write are the Preset format's (spec §3).

// Len is the number of items.
func (d *Draft) Len() int { return len(d.stack.Items) }

// Item is the typed view of item i; editable is false when the file's
// item is not a JSON object (the typed view then shows pi-forge's
// disabled placeholder and only deleting it makes sense). ok is false
// when there is no item i.
func (d *Draft) Item(i int) (it *preset.Item, editable, ok bool) {
	if i < 0 || i >= len(d.stack.Items) {
		return nil, false, false
	}
	raw, _ := Get(d.tree, Path{"items", i})
	return &d.stack.Items[i], isObject(raw), true
}

// IndexOf is the index of the item with id (-1 when none).
func (d *Draft) IndexOf(id string) int {
	for i := range d.stack.Items {
		if d.stack.Items[i].ID == id {
			return i
		}
	}
	return -1
}

// rawItems is the tree's items array (nil when absent or not an array).
func (d *Draft) rawItems() []any {
	v, _ := Get(d.tree, Path{"items"})
	list, _ := v.([]any)
	return list
}

// UniqueItemID returns base, or base-2, base-3 … when an item has it.
func (d *Draft) UniqueItemID(base string) string {
	taken := map[string]bool{}
	for i := range d.stack.Items {
		taken[d.stack.Items[i].ID] = true
	}
	if !taken[base] {
		return base
	}
	for n := 2; ; n++ {
		if id := base + "-" + strconv.Itoa(n); !taken[id] {
			return id
		}
	}
}

// ToggleItem flips "enabled" of item i (absent counts as enabled).
func (d *Draft) ToggleItem(i int) error {
	it, editable, ok := d.Item(i)
	if !ok || !editable {
		return errors.New(i18n.T("item %d is not an object to toggle", i+1))
	}
	return d.Apply(Edit{Path: Path{"items", i, "enabled"}, Value: !it.IsEnabled(), Label: i18n.T("toggle %s", it.ID)})
}

// MoveItem swaps item i with its neighbour at i+delta and returns the
// item's new index (i itself when it cannot move).
func (d *Draft) MoveItem(i, delta int) (int, error) {
	list := d.rawItems()
	j := i + delta
	if i < 0 || i >= len(list) || j < 0 || j >= len(list) {
		return i, nil
	}
	label := i18n.T("move %s", d.stack.Items[i].ID)
	return j, d.setItems(swapped(list, i, j), label)
}

// AddBlock inserts an empty system block after index at (-1 = first) and
// returns its index.
func (d *Draft) AddBlock(at int) (int, error) { return d.AddNamedBlock(at, "") }

// AddNamedBlock inserts an empty system block named name (no name when "")
// after index at; its id comes from the name (SlugID), unique among the
// items. It returns the block's index.
func (d *Draft) AddNamedBlock(at int, name string) (int, error) {
	obj := jsonv.NewObject()
	id := d.UniqueItemID(SlugID(name, "block"))
	obj.Set("kind", string(preset.KindBlock))
	obj.Set("id", id)
	if name != "" {
		obj.Set("name", name)
	}
	obj.Set("enabled", true)
	obj.Set("role", string(preset.RoleSystem))
	obj.Set("content", "")
	return d.insertItem(at, obj, i18n.T("add %s", id))
}

// SlugID turns a display name into an item id: lower-case letters and
// digits, other runs of characters as one "-", starting with a letter or
// digit; fallback when nothing is left.
func SlugID(name, fallback string) string {
	var b []rune
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case unicode.IsLetter(r) && r < 128, unicode.IsDigit(r) && r < 128, r == '.' || r == '_':
			if dash && len(b) > 0 {
				b = append(b, '-')
			}
			b, dash = append(b, r), false
		default:
			dash = true
		}
	}
	s := strings.TrimLeft(string(b), "._-")
	if s == "" {
		return fallback
	}
	return s
}

// AddSlot inserts an item of the built-in slot after index at and returns
// its index. A chat-history slot takes no role; every other slot is a
// system slot.
func (d *Draft) AddSlot(at int, slot string) (int, error) {
	obj := jsonv.NewObject()
	id := d.UniqueItemID(slot)
	obj.Set("kind", string(preset.KindSlot))
	obj.Set("id", id)
	obj.Set("enabled", true)
	if slot != "chat-history" {
		obj.Set("role", string(preset.RoleSystem))
	}
	obj.Set("slot", slot)
	return d.insertItem(at, obj, i18n.T("add %s", id))
}

// DuplicateItem copies item i (deeply, under a new id) right after it and
// returns the copy's index.
func (d *Draft) DuplicateItem(i int) (int, error) {
	it, editable, ok := d.Item(i)
	if !ok || !editable {
		return i, errors.New(i18n.T("item %d is not an object to duplicate", i+1))
	}
	src, _ := Get(d.tree, Path{"items", i})
	obj := jsonv.Clone(src).(*jsonv.Object)
	obj.Set("id", d.UniqueItemID(it.ID+"-copy"))
	if it.Name != nil && *it.Name != "" {
		obj.Set("name", d.uniqueItemName(*it.Name)) // the lists show names: tell the copy apart
	}
	return d.insertItem(i, obj, i18n.T("duplicate %s", it.ID))
}

// uniqueItemName names a copy of an item named name: "name (copy)", else
// "name (copy 2)", "name (copy 3)" … whichever no item has yet.
func (d *Draft) uniqueItemName(name string) string {
	taken := map[string]bool{}
	for _, it := range d.stack.Items {
		if it.Name != nil {
			taken[*it.Name] = true
		}
	}
	next := name + " (copy)" //i18n:raw the duplicate's name is written into the Preset file: data, not chrome
	for n := 2; taken[next]; n++ {
		next = fmt.Sprintf("%s (copy %d)", name, n) //i18n:raw the duplicate's name is written into the Preset file: data, not chrome
	}
	return next
}

// DeleteItem removes item i.
func (d *Draft) DeleteItem(i int) error {
	it, _, ok := d.Item(i)
	if !ok {
		return errors.New(i18n.T("no item %d", i+1))
	}
	return d.Apply(Edit{Path: Path{"items", i}, Delete: true, Label: i18n.T("delete %s", it.ID)})
}

// insertItem puts obj after index at and returns its index.
func (d *Draft) insertItem(at int, obj *jsonv.Object, label string) (int, error) {
	list := d.rawItems()
	pos := min(max(at+1, 0), len(list))
	out := make([]any, 0, len(list)+1)
	out = append(out, list[:pos]...)
	out = append(out, obj)
	out = append(out, list[pos:]...)
	return pos, d.setItems(out, label)
}

// setItems replaces the items array in one undoable edit.
func (d *Draft) setItems(list []any, label string) error {
	return d.Apply(Edit{Path: Path{"items"}, Value: list, Label: label})
}

// swapped returns a copy of list with elements i and j exchanged.
func swapped(list []any, i, j int) []any {
	out := append([]any(nil), list...)
	out[i], out[j] = out[j], out[i]
	return out
}

// SetBlockText replaces the text of block i. Typing passes coalesce, so a
// run of keys in one block is one undo step (label names it).
func (d *Draft) SetBlockText(i int, text, label string, coalesce bool) error {
	it, editable, ok := d.Item(i)
	if !ok || !editable || it.Kind != preset.KindBlock {
		return errors.New(i18n.T("item %d is not a block", i+1))
	}
	return d.Apply(Edit{Path: Path{"items", i, "content"}, Value: text, Label: label, Coalesce: coalesce})
}

// Renamed returns tree with the Preset id set to id (a fork or a new
// Preset from a template), and its name too when withName.
func Renamed(tree *jsonv.Object, id string, withName bool) (*jsonv.Object, error) {
	next, err := Set(tree, Path{"id"}, id)
	if err == nil && withName {
		next, err = Set(next, Path{"name"}, id)
	}
	return next, err
}
