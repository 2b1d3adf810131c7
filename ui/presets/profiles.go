package presets

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// profilesKey handles keys in the profiles view.
func (m *Model) profilesKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.profiles.HandleNav(msg, m.keys.Nav) {
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.Back):
		m.showProfile = false
	case key.Matches(msg, m.keys.Open):
		return m.openProfilePreset()
	}
	return nil
}

// selectedProfile is the profile under the cursor (nil when none).
func (m *Model) selectedProfile() *resources.Profile {
	if i := m.profiles.SelectedIndex(); m.lib != nil && i >= 0 {
		return m.lib.Profiles[i]
	}
	return nil
}

// openProfilePreset opens the Preset the profile under the cursor uses.
func (m *Model) openProfilePreset() tea.Cmd {
	prof := m.selectedProfile()
	if prof == nil {
		return nil
	}
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
		m.presets.Select(func(r presetRow) bool { return r.path == p.Path })
		m.showProfile = false
		return m.openPreset(p, openByUser)
	})
}

// profileListView lists the agent profiles with scope and counts.
func (m *Model) profileListView(r rect) string {
	lines := libraryLines(m, m.profiles, "no agent profiles", r, true)
	info := ""
	if m.lib != nil {
		info = fmt.Sprintf("%d/%d · p presets", min(m.profiles.Cursor()+1, m.profiles.Len()), m.profiles.Len())
	}
	return m.frame(r, "Agent profiles", info, true, lines)
}

// profileDetailView shows one profile: validation, model, resolved Preset.
func (m *Model) profileDetailView(r rect) string {
	st := m.com.Styles
	inner := max(0, r.w-4)
	p := m.selectedProfile()
	if p == nil {
		return m.frame(r, "Profile", "", false, nil)
	}
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
		lines = append(lines, common.Wrap(sanitize.Text(*p.Profile.Description), inner)...)
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
		out = append(out, field("resolves to", sanitize.Line(resolved.Key())+" "+countBadges(&st, errs, warns)))
	}
	for _, d := range diags {
		out = append(out, m.wrapDiags([]preset.Diagnostic{{Level: d.Level, Message: d.Message}}, "", width)...)
	}
	return out
}
