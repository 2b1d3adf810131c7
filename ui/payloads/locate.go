package payloads

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
)

// locateBlock puts the block cursor on the first block of the request B
// whose text holds text, else the first such block of A: where a
// capability card's Locate (common.JumpTarget.LocateText, the Capabilities
// panel's >) lands, on the update block the capability produced. The
// status says which block, or that neither request carries one.
func (m *Model) locateBlock(text string) tea.Cmd {
	blocks := m.view.Diff().Blocks
	for _, after := range []bool{true, false} {
		for i, b := range blocks {
			side := b.Before
			if after {
				side = b.After
			}
			if strings.Contains(side, text) {
				m.setStatus(i18n.T("located %s in block %s", sanitize.Line(text), sanitize.Line(b.Name())), false)
				return m.view.Select(i)
			}
		}
	}
	m.setStatus(i18n.T("neither request carries %s: the update was not sent by this entry (pending, or sent on another branch)", sanitize.Line(text)), true)
	return nil
}
