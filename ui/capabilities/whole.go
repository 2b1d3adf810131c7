package capabilities

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// What y, v and o act on in the Capabilities panel (docs/KEYS.md): in the
// library, the detail and the bindings view the capability under the
// library's cursor — every field whole (the file's path, the revision,
// each diagnostic) and its content as written; in the session pane the
// active snapshot under the cursor with its frozen text. The status line,
// cut to the screen's width, comes whole above it in the overlay.

// focusKey answers y, v and o; ok is false for other keys.
func (m *Model) focusKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	return m.com.AnswerFocusKey(common.PanelCapabilities, msg, m.focusedWhole, m.setStatus)
}

// focusedWhole is the thing under the focus, whole.
func (m *Model) focusedWhole() (common.Whole, bool) {
	var w common.Whole
	if m.focus == paneSession {
		a, ok := m.view.selectedActive()
		if !ok {
			return w, false
		}
		w = common.Whole{Title: i18n.T("snapshot %s", sanitize.Fold(a.Snapshot.ActivationID)), Text: snapshotText(a)}
	} else {
		c := m.selectedCapability()
		if c == nil {
			return w, false
		}
		r, _ := m.list.Selected()
		w = common.Whole{Title: i18n.T("capability %s", sanitize.Fold(c.Key())), Text: capabilityText(c, r.boundBy)}
	}
	w.Note = m.status
	return w, true
}

// capabilityText is a capability whole: what the detail pane shows, with
// nothing cut, then its content as written.
func capabilityText(c *resources.Capability, boundBy string) string {
	cp := c.Capability
	var b strings.Builder
	line := func(k, v string) { b.WriteString(common.PadRight(k, 10) + " " + v + "\n") }
	b.WriteString(c.Key() + "  " + cp.DisplayName() + "\n")
	if cp.Description != nil && *cp.Description != "" {
		b.WriteString(*cp.Description + "\n")
	}
	line(i18n.T("file"), c.Path)
	line(i18n.T("revision"), c.SourceRevision)
	tools := cp.Tools.String()
	if tools == "" {
		tools = i18n.T("no tool changes")
	}
	line(i18n.T("tools"), tools)
	if boundBy == "" {
		boundBy = i18n.T("no Preset")
	}
	line(i18n.T("bound by"), boundBy)
	if len(c.Diagnostics) == 0 {
		line(i18n.T("status"), i18n.T("valid"))
	}
	for _, d := range c.Diagnostics {
		b.WriteString(string(d.Level) + ": " + d.Message + "\n")
	}
	b.WriteString("\n" + cp.Content)
	return b.String()
}

// snapshotText is an active snapshot whole: its card's lines uncut and
// the frozen text the model receives.
func snapshotText(a capability.Active) string {
	s := a.Snapshot
	src := s.SourceLabel()
	if id := s.BindingID(); id != "" {
		src = i18n.T("%s via %s", src, id)
	}
	var b strings.Builder
	b.WriteString(s.ActivationID + " · " + src + " · " + string(a.Actor) + "\n")
	if s.Name != nil {
		b.WriteString(*s.Name + " · ")
	}
	b.WriteString(s.Fingerprint + "\n")
	if tools := s.Tools.String(); tools != "" {
		b.WriteString(i18n.T("tools %s", tools) + "\n")
	}
	b.WriteString("\n" + s.Content)
	return b.String()
}
