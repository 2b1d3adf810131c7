package presets

import (
	"fmt"
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Item-list edits. Each builds a new items array (sharing the untouched
// item objects) and installs it as one undoable step.

// itemID reads an item's id ("" when absent or not a string).
func itemID(obj *jsonv.Object) string {
	if obj == nil {
		return ""
	}
	v, _ := obj.Get("id")
	s, _ := v.(string)
	return s
}

// uniqueItemID returns base, or base-2, base-3 … when taken.
func (d *draft) uniqueItemID(base string) string {
	taken := map[string]bool{}
	for i := range d.items() {
		taken[itemID(d.item(i))] = true
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

// toggleItem flips "enabled" of item i (absent counts as enabled).
func (d *draft) toggleItem(i int) error {
	obj := d.item(i)
	if obj == nil {
		return fmt.Errorf("no item %d", i)
	}
	enabled := true
	if v, ok := obj.Get("enabled"); ok && v == false {
		enabled = false
	}
	return d.apply(Path{"items", i, "enabled"}, !enabled, false, "toggle "+itemID(obj), false)
}

// moveItem swaps item i with its neighbour at i+delta; it returns the new
// index of the item.
func (d *draft) moveItem(i, delta int) (int, error) {
	list := d.items()
	j := i + delta
	if i < 0 || i >= len(list) || j < 0 || j >= len(list) {
		return i, nil
	}
	out := append([]any(nil), list...)
	out[i], out[j] = out[j], out[i]
	return j, d.setItems(out, "move "+itemID(d.item(i)))
}

// insertItem puts obj after index at (at = -1 inserts first); it returns
// the new item's index.
func (d *draft) insertItem(at int, obj *jsonv.Object, label string) (int, error) {
	list := d.items()
	pos := min(max(at+1, 0), len(list))
	out := make([]any, 0, len(list)+1)
	out = append(out, list[:pos]...)
	out = append(out, obj)
	out = append(out, list[pos:]...)
	return pos, d.setItems(out, label)
}

// addBlock inserts an empty system block after index at.
func (d *draft) addBlock(at int) (int, error) {
	obj := jsonv.NewObject()
	id := d.uniqueItemID("block")
	obj.Set("kind", "block")
	obj.Set("id", id)
	obj.Set("enabled", true)
	obj.Set("role", "system")
	obj.Set("content", "")
	return d.insertItem(at, obj, "add "+id)
}

// addSlot inserts a slot item of the given built-in slot after index at.
// chat-history slots take no role; every other slot is a system slot.
func (d *draft) addSlot(at int, slot string) (int, error) {
	obj := jsonv.NewObject()
	id := d.uniqueItemID(slot)
	obj.Set("kind", "slot")
	obj.Set("id", id)
	obj.Set("enabled", true)
	if slot != "chat-history" {
		obj.Set("role", "system")
	}
	obj.Set("slot", slot)
	return d.insertItem(at, obj, "add "+id)
}

// duplicateItem copies item i (deeply, under a new id) right after it.
func (d *draft) duplicateItem(i int) (int, error) {
	src := d.item(i)
	if src == nil {
		return i, fmt.Errorf("no item %d", i)
	}
	obj, _ := deepClone(src).(*jsonv.Object)
	base := itemID(src)
	if base == "" {
		base = "item"
	}
	id := d.uniqueItemID(base + "-copy")
	obj.Set("id", id)
	return d.insertItem(i, obj, "duplicate "+base)
}

// deleteItem removes item i.
func (d *draft) deleteItem(i int) error {
	obj := d.item(i)
	if obj == nil {
		return fmt.Errorf("no item %d", i)
	}
	return d.apply(Path{"items", i}, nil, true, "delete "+itemID(obj), false)
}
