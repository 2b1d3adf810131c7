package presets

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// What has this cost, from a Preset item: $ on an item of the open
// Preset jumps to the Payloads panel's cache view showing the project's
// cache breaks whose cause names that item — the same view and the same
// ref match the Capabilities panel's $ uses for a capability. The cache
// report names a Preset item's breaks "scope:preset/item"
// (cachemiss.Cause.Ref of a system-prompt item), so the ref is the open
// Preset's key and the item's id.

// itemCostIntent asks what the item under the cursor has cost.
type itemCostIntent struct{}

func (itemCostIntent) isIntent() {}

// itemCostRef is the cause ref the cache report gives the breaks of the
// item under the cursor ("" when the cursor is on no item of a saved
// Preset, or the item has no id).
func (m *Model) itemCostRef() string {
	if m.open == nil || m.d == nil {
		return ""
	}
	it, _, ok := m.d.Item(m.items.Cursor())
	if !ok || it == nil || it.ID == "" {
		return ""
	}
	return m.open.Key() + "/" + it.ID
}

// itemCost jumps to the cache view of the item under the cursor's breaks.
func (m *Model) itemCost() tea.Cmd {
	ref := m.itemCostRef()
	if ref == "" {
		return nil
	}
	return m.com.Jump(common.JumpTarget{Panel: common.PanelPayloads, CacheBreaksOf: ref})
}
