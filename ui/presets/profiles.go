package presets

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// profilesKey handles keys in the profiles view that profileViewKey
// left: none (they are the panel's or ignored).
func (m *Model) profilesKey(tea.KeyPressMsg) tea.Cmd { return nil }

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
	lines := libraryLines(m.com, m.lib == nil, m.profiles, "no agent profiles — n creates one", r, !m.profFocus)
	info := ""
	if m.lib != nil {
		info = fmt.Sprintf("%d/%d · ◆ last applied · p presets", min(m.profiles.Cursor()+1, m.profiles.Len()), m.profiles.Len())
	}
	return m.frame(r, "Agent profiles", info, !m.profFocus, lines)
}

// profileFormSize is the profile form's size in the detail pane r: the
// pane's inner width, and its height less the status card (at most half).
func (m *Model) profileFormSize(r rect) (width, height int) {
	inner, innerH := max(0, r.w-4), max(0, r.h-2)
	card := m.profileStatusLines(inner)
	return inner, max(3, innerH-min(len(card), innerH/2))
}

// profileDetailView shows one profile: its form while it is edited, else
// validation, model and resolved Preset; then the selected session's
// profile status card.
func (m *Model) profileDetailView(r rect) string {
	p := m.selectedProfile()
	if p == nil {
		return m.frame(r, "Profile", "", false, m.profileStatusLines(max(0, r.w-4)))
	}
	inner := max(0, r.w-4)
	card := m.profileStatusLines(inner)
	if m.prof != nil && m.profForm != nil && m.prof.p.Path == p.Path {
		title := "Profile · " + p.ID + " (editing)"
		if m.profRaw {
			title = "Profile · " + p.ID + " · raw JSON (editing)"
		}
		if m.prof.dirty() {
			title = "● " + title + " unsaved"
		}
		lines := strings.Split(m.profForm.View(m.profileFormSize(r)), "\n")
		lines = append(lines, card...)
		other := "JSON"
		if m.profRaw {
			other = "form"
		}
		k := &m.keys
		return m.frame(r, title, keyNotes(keyNote{k.Save, "save"}, keyNote{k.Undo, "undo"}, keyNote{k.RawJSON, other}, keyNote{k.Back, "list"}), m.profFocus, lines)
	}
	k := &m.keys
	return m.frame(r, "Profile · "+p.ID, keyNotes(keyNote{k.Item, "edit"}, keyNote{k.RawJSON, "JSON"}, keyNote{k.Edit, "$EDITOR"}, keyNote{k.Open, "preset"}),
		false, append(m.profileDetailLines(p, inner), card...))
}

// keyNote is one key of a border's short key line: the binding, as
// bound, and a word for what it does there.
type keyNote struct {
	b    key.Binding
	what string
}

// keyNotes is a border's short key line ("ctrl+s save · u undo").
func keyNotes(notes ...keyNote) string {
	parts := make([]string, len(notes))
	for i, n := range notes {
		parts[i] = n.b.Help().Key + " " + n.what
	}
	return strings.Join(parts, " · ")
}

// profileDetailLines describe a profile that is not being edited.
func (m *Model) profileDetailLines(p *resources.Profile, inner int) []string {
	st := m.com.Styles
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
		lines = append(lines, wrapDiags(&m.com.Styles, []preset.Diagnostic{{Level: d.Level, Message: msg}}, "", inner)...)
	}
	if p.Profile.Description != nil {
		lines = append(lines, "", st.Text.Subtle.Render("Description"))
		lines = append(lines, common.Wrap(sanitize.Text(*p.Profile.Description), inner)...)
	}
	return lines
}

// profileStatusLines is the card of the selected session's profile
// status: the runtime at the entry, the last applied profile, whether its
// file changed since, and the drift of each field.
func (m *Model) profileStatusLines(width int) []string {
	st := m.com.Styles
	head := []string{"", st.Text.Subtle.Render("Session status (pi-forge /profile status)")}
	s := m.profStatus
	if s == nil {
		return append(head, st.Text.Muted.Render("select a session (panel 3) to see what it applied"))
	}
	field := func(k, v string) string { return st.Text.Muted.Render(fmt.Sprintf("%-13s", k)) + sanitize.Line(v) }
	model := "(none)"
	if s.Current.Model != nil {
		model = s.Current.Model.String()
	}
	stack := "(none)"
	if s.Current.PromptStack != nil {
		stack = *s.Current.PromptStack
	}
	lines := append(head, field("at entry", s.EntryID), field("current", model+" · "+s.Current.ThinkingLevel+" · "+stack))
	if s.Last == nil {
		return append(lines, field("last applied", "(none)"))
	}
	p := s.Last.Provenance
	source := s.Last.SourceState
	style := st.Text.Success
	if source != profile.SourceUnchanged {
		style = st.Text.Warning
		if source == profile.SourceChanged {
			source = "changed since it was applied"
		}
	}
	scope := p.Scope
	if scope == "" {
		scope = preset.ScopeProject
	}
	lines = append(lines, field("last applied", "◆ "+string(scope)+":"+p.ProfileID+" at "+p.AppliedAt),
		st.Text.Muted.Render(fmt.Sprintf("%-13s", "source"))+style.Render(sanitize.Line(source)))
	for _, d := range []struct {
		name string
		d    profile.Drift
	}{{"model", s.Last.Model}, {"thinking", s.Last.Thinking}, {"preset", s.Last.Preset}, {"tools *", s.Last.Tools}} {
		text, style := "unchanged", st.Text.Success
		switch {
		case d.d.Unknown:
			text, style = "unknown (not recorded)", st.Text.Muted
		case d.d.Changed:
			text, style = d.d.Expected+" → "+d.d.Actual, st.Text.Warning
		}
		lines = append(lines, st.Text.Muted.Render(fmt.Sprintf("  %-11s", d.name))+style.Render(truncateCells(sanitize.Line(text), max(0, width-13))))
	}
	for _, l := range common.Wrap("* "+profile.ToolsDriftNote, max(1, width-2)) {
		lines = append(lines, "  "+st.Text.Muted.Render(l))
	}
	return lines
}

// truncateCells cuts s to width cells.
func truncateCells(s string, width int) string { return ansi.Truncate(s, width, "…") }

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
		out = append(out, wrapDiags(&m.com.Styles, []preset.Diagnostic{{Level: d.Level, Message: d.Message}}, "", width)...)
	}
	return out
}

// refreshProfileRows rebuilds the profile rows (library, last applied,
// drafts).
func (m *Model) refreshProfileRows() {
	if m.lib == nil {
		return
	}
	last, dirty := "", ""
	if st := m.profStatus; st != nil && st.Last != nil {
		scope := st.Last.Provenance.Scope
		if scope == "" {
			scope = preset.ScopeProject
		}
		last = string(scope) + ":" + st.Last.Provenance.ProfileID
	}
	if m.prof != nil {
		if p := m.findProfile(m.prof.p.Path); p != nil {
			m.followProfileFile(p)
		}
		if m.prof.dirty() {
			dirty = m.prof.p.Path
		}
	}
	m.profiles.SetItems(profileRows(m.lib, last, dirty))
	if m.wantProfile != "" {
		for i, p := range m.lib.Profiles {
			if p.Key() == m.wantProfile {
				m.profiles.SetCursor(i)
				m.wantProfile = ""
				m.syncProfileForm()
			}
		}
	}
}

// findProfile looks a profile file up in the current snapshot.
func (m *Model) findProfile(path string) *resources.Profile {
	for _, p := range m.lib.Profiles {
		if p.Path == path {
			return p
		}
	}
	return nil
}
