package presets

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/resources"
)

// profilesKey handles keys in the profiles view.
func (m *Model) profilesKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.lib == nil {
		return nil
	}
	if c, ok := m.moveBy(msg, m.profCursor, len(m.lib.Profiles), m.paneRows(paneList)); ok {
		m.profCursor = c
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.Back):
		m.showProfile = false
		m.cache.bump()
	case key.Matches(msg, m.keys.Open):
		return m.openProfilePreset()
	}
	return nil
}

// openProfilePreset opens the Preset the profile under the cursor uses.
func (m *Model) openProfilePreset() tea.Cmd {
	if m.profCursor >= len(m.lib.Profiles) {
		return nil
	}
	prof := m.lib.Profiles[m.profCursor]
	p, diags := m.lib.ResolveProfilePreset(prof)
	if p == nil {
		if len(diags) > 0 {
			m.setStatus(diags[0].Message, true)
		} else {
			m.setStatus("profile "+prof.ID+" uses no preset (promptStack null)", false)
		}
		return nil
	}
	return m.confirmDiscard("Open "+p.Key(), func() tea.Cmd {
		for i, q := range m.lib.Presets {
			if q == p {
				m.listCursor = i
			}
		}
		m.showProfile = false
		cmd := m.openPreset(p, true)
		m.focus = paneItems
		return cmd
	})
}

// profileListView lists the agent profiles with scope and counts.
func (m *Model) profileListView(r rect) string {
	st := m.com.Styles
	inner := max(0, r.w-4)
	var lines []string
	switch {
	case m.lib == nil:
		lines = []string{st.Pane.Placeholder.Render("loading…")}
	case len(m.lib.Profiles) == 0:
		lines = []string{st.Pane.Placeholder.Render("no agent profiles")}
	default:
		var off int
		from, to := window(m.profCursor, len(m.lib.Profiles), r.h-2, &off)
		for i := from; i < to; i++ {
			p := m.lib.Profiles[i]
			badge := st.Badge.Project.Render("P")
			if p.Scope == preset.ScopeGlobal {
				badge = st.Badge.Global.Render("G")
			}
			errs, warns := p.Counts()
			row := leftRight("  "+badge+" "+st.List.Item.Render(sanitize.Line(p.ID)), m.countBadges(errs, warns), inner)
			if i == m.profCursor {
				row = m.selectRow(row, inner, true)
			}
			lines = append(lines, row)
		}
	}
	info := ""
	if m.lib != nil {
		info = fmt.Sprintf("%d/%d · p presets", min(m.profCursor+1, len(m.lib.Profiles)), len(m.lib.Profiles))
	}
	return m.frame(r, "Agent profiles", info, true, lines)
}

// profileDetailView shows one profile: validation, model, resolved Preset.
func (m *Model) profileDetailView(r rect) string {
	st := m.com.Styles
	inner := max(0, r.w-4)
	if m.lib == nil || m.profCursor >= len(m.lib.Profiles) {
		return m.frame(r, "Profile", "", false, nil)
	}
	p := m.lib.Profiles[m.profCursor]
	field := func(k, v string) string { return st.Text.Muted.Render(fmt.Sprintf("%-13s", k)) + v }
	var lines []string
	lines = append(lines, field("profile", sanitize.Line(p.Key())))
	if p.Profile.Name != nil {
		lines = append(lines, field("name", sanitize.Line(*p.Profile.Name)))
	}
	lines = append(lines, field("file", sanitize.Line(p.FileName())))
	model := "—"
	if mp := p.Profile.Model; mp.Provider != "" || mp.ID != "" {
		model = mp.Provider + "/" + mp.ID
	}
	lines = append(lines, field("model", sanitize.Line(model)), field("thinking", sanitize.Line(p.Profile.ThinkingLevel)))
	autoAct := "no"
	if p.Profile.AutoActivate != nil && *p.Profile.AutoActivate {
		autoAct = "yes"
	}
	lines = append(lines, field("autoActivate", autoAct))
	lines = append(lines, m.profilePresetLines(p, field, inner)...)
	lines = append(lines, "", st.Text.Subtle.Render("Validation"))
	if len(p.Diagnostics) == 0 {
		lines = append(lines, st.Text.Success.Render("✓ the profile file validates"))
	}
	for _, d := range p.Diagnostics {
		msg := d.Message
		if d.Field != "" {
			msg = d.Field + ": " + msg
		}
		lines = append(lines, m.wrapDiags([]preset.Diagnostic{{Level: d.Level, Message: msg}}, "", inner)...)
	}
	if p.Profile.Description != nil {
		lines = append(lines, "", st.Text.Subtle.Render("Description"))
		lines = append(lines, wrap(sanitize.Text(*p.Profile.Description), inner)...)
	}
	return m.frame(r, "Profile · "+p.ID, "enter opens its preset", false, lines)
}

// profilePresetLines describe the Preset a profile resolves to, with the
// resolution's own diagnostics.
func (m *Model) profilePresetLines(p *resources.Profile, field func(k, v string) string, width int) []string {
	st := m.com.Styles
	if p.Profile.PromptStack == nil {
		return []string{field("preset", st.Text.Muted.Render("none (promptStack null)"))}
	}
	resolved, diags := m.lib.ResolveProfilePreset(p)
	out := []string{field("promptStack", sanitize.Line(*p.Profile.PromptStack))}
	if resolved != nil {
		errs, warns := resolved.Counts()
		out = append(out, field("resolves to", sanitize.Line(resolved.Key())+" "+m.countBadges(errs, warns)))
	}
	for _, d := range diags {
		out = append(out, m.wrapDiags([]preset.Diagnostic{{Level: d.Level, Message: d.Message}}, "", width)...)
	}
	return out
}
