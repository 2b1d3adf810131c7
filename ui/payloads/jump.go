package payloads

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
)

// target is where a jump goes and what the status calls it.
type target struct {
	to   common.JumpTarget
	what string
}

// jump takes the user to what produced the selected block — the cause
// when the block is the one that broke the cache, else the preset item
// behind its first changed character, the capability whose update it
// is, or the session entry it came from — with one common.JumpMsg.
func (m *Model) jump() tea.Cmd {
	if m.cmp == nil || len(m.cmp.diff.Blocks) == 0 {
		m.setStatus(i18n.T("nothing to jump to: no comparison"), true)
		return nil
	}
	_, row, _ := m.view.Selected()
	t, ok := jumpTarget(m.cmp, row)
	if !ok {
		m.setStatus(i18n.T("nothing to jump to: this block's data names no preset item, capability or entry"), true)
		return nil
	}
	m.setStatus("→ "+t.what, false)
	// The pair stays as it is: following the selection now would replace
	// it with the jump's entry when the user comes back.
	m.auto = false
	m.following.Cancel()
	return m.com.Jump(t.to)
}

// jumpTarget works out the target for row of a comparison.
func jumpTarget(c *comparison, row int) (target, bool) {
	b := &c.diff.Blocks[row]
	key := ""
	if b.After != nil {
		key = b.After.Key
	} else {
		key = b.Before.Key
	}
	sessionOf := func() string {
		for _, s := range []*replay.Resolved{c.sides[1], c.sides[0]} {
			if s != nil && s.Session != nil {
				return s.Session.Path
			}
		}
		return ""
	}
	if cause := c.cause; cause != nil && cause.Block == key {
		if t, ok := causeTarget(cause, sessionOf()); ok {
			return t, true
		}
	}
	offset := turndiff.ChangeOffset(b)
	for i := 1; i >= 0; i-- {
		side := c.sides[i]
		if side == nil || (i == 1 && b.After == nil) || (i == 0 && b.Before == nil) {
			continue
		}
		if o, ok := side.Turn.OriginAt(key, offset); ok {
			switch {
			case o.Kind == turndiff.CausePresetItem && isPresetKey(o.PresetID):
				return presetTarget(o.PresetID, o.ItemID), true
			case o.Kind == turndiff.CauseCapability && o.CapabilityID != "":
				return capabilityTarget(o.CapabilityID), true
			}
		}
		if side.Request != nil && side.Session != nil {
			if id := side.Request.EntryOf[key]; id != "" {
				return entryTarget(side.Session.Path, id), true
			}
		}
	}
	return target{}, false
}

// causeTarget is the panel a cause points at.
func causeTarget(c *turndiff.Cause, sessionFile string) (target, bool) {
	switch {
	case c.CapabilityID != "":
		return capabilityTarget(c.CapabilityID), true
	case c.ItemID != "" && isPresetKey(c.PresetID):
		return presetTarget(c.PresetID, c.ItemID), true
	case c.Kind == turndiff.CausePreset && isPresetKey(c.PresetID):
		return presetTarget(c.PresetID, ""), true
	case c.EntryID != "" && sessionFile != "":
		return entryTarget(sessionFile, c.EntryID), true
	}
	return target{}, false
}

// presetTarget opens a Preset in the Presets panel, at an item when one
// is named.
func presetTarget(presetID, itemID string) target {
	what := i18n.T("preset %s", presetID)
	if itemID != "" {
		what = i18n.T("preset %s item %s", presetID, itemID)
	}
	return target{to: common.JumpTarget{Panel: common.PanelPresets, PresetID: presetID, ItemID: itemID}, what: what}
}

// capabilityTarget shows a capability in the Capabilities panel.
func capabilityTarget(id string) target {
	return target{to: common.JumpTarget{Panel: common.PanelCapabilities, CapabilityID: id}, what: i18n.T("capability %s", id)}
}

// entryTarget selects an entry of a session in the Session panel.
func entryTarget(file, id string) target {
	return target{to: common.JumpTarget{Panel: common.PanelSession, SessionFile: file, EntryID: id}, what: i18n.T("entry %s", id)}
}

// isPresetKey is true for a scoped preset key (project:id, global:id) that
// the Presets panel can open; a preset given as a file path is not.
func isPresetKey(id string) bool {
	return strings.HasPrefix(id, "project:") || strings.HasPrefix(id, "global:")
}
