package payloads

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// target is where a jump goes: a panel and the selection to show there.
type target struct {
	panel int
	sel   common.Selection
	what  string
}

// jump moves the shared selection to what produced the selected block —
// the cause when the block is the one that broke the cache, else the
// preset item behind its first changed character, the capability whose
// update it is, or the session entry it came from — and shows that panel.
func (m *Model) jump() tea.Cmd {
	if m.cmp == nil || len(m.cmp.diff.Blocks) == 0 {
		m.setStatus("nothing to jump to: no comparison", true)
		return nil
	}
	_, row, _ := m.view.Selected()
	t, ok := jumpTarget(m.cmp, row, m.com.Selection)
	if !ok {
		m.setStatus("nothing to jump to: this block's data names no preset item, capability or entry", true)
		return nil
	}
	m.setStatus("→ "+t.what, false)
	// The pair stays as it is: following the selection now would replace
	// it with the jump's entry when the user comes back.
	m.auto = false
	sel := t.sel
	return tea.Batch(
		func() tea.Msg { return common.SelectionChangedMsg{Selection: sel} },
		func() tea.Msg { return common.ShowPanelMsg{Index: t.panel} },
	)
}

// jumpTarget works out the target for row of a comparison.
func jumpTarget(c *comparison, row int, sel common.Selection) (target, bool) {
	b := &c.diff.Blocks[row]
	key := ""
	if b.After != nil {
		key = b.After.Key
	} else {
		key = b.Before.Key
	}
	sessionOf := func() string {
		for _, s := range []*session.Resolved{c.sides[1], c.sides[0]} {
			if s != nil && s.Session != nil {
				return s.Session.Path
			}
		}
		return ""
	}
	if cause := c.cause; cause != nil && cause.Block == key {
		if t, ok := causeTarget(cause, sel, sessionOf()); ok {
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
				s := sel
				s.PresetID, s.ItemID = o.PresetID, o.ItemID
				return target{panel: common.PanelPresets, sel: s, what: "preset " + o.PresetID + " item " + o.ItemID}, true
			case o.Kind == turndiff.CauseCapability && o.CapabilityID != "":
				s := sel
				s.CapabilityID = o.CapabilityID
				return target{panel: common.PanelCapabilities, sel: s, what: "capability " + o.CapabilityID}, true
			}
		}
		if side.Request != nil && side.Session != nil {
			if id := side.Request.EntryOf[key]; id != "" {
				s := sel
				s.SessionFile, s.EntryID = side.Session.Path, id
				return target{panel: common.PanelSession, sel: s, what: "entry " + id}, true
			}
		}
	}
	return target{}, false
}

// causeTarget is the panel a cause points at.
func causeTarget(c *turndiff.Cause, sel common.Selection, sessionFile string) (target, bool) {
	s := sel
	switch {
	case c.CapabilityID != "":
		s.CapabilityID = c.CapabilityID
		return target{panel: common.PanelCapabilities, sel: s, what: "capability " + c.CapabilityID}, true
	case c.ItemID != "" && isPresetKey(c.PresetID):
		s.PresetID, s.ItemID = c.PresetID, c.ItemID
		return target{panel: common.PanelPresets, sel: s, what: "preset " + c.PresetID + " item " + c.ItemID}, true
	case c.Kind == turndiff.CausePreset && isPresetKey(c.PresetID):
		s.PresetID, s.ItemID = c.PresetID, ""
		return target{panel: common.PanelPresets, sel: s, what: "preset " + c.PresetID}, true
	case c.EntryID != "" && sessionFile != "":
		s.SessionFile, s.EntryID = sessionFile, c.EntryID
		return target{panel: common.PanelSession, sel: s, what: "entry " + c.EntryID}, true
	}
	return target{}, false
}

// isPresetKey is true for a scoped preset key (project:id, global:id) that
// the Presets panel can open; a preset given as a file path is not.
func isPresetKey(id string) bool {
	return strings.HasPrefix(id, "project:") || strings.HasPrefix(id, "global:")
}
