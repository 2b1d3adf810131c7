package presets

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// profilesView is the Profiles view, which showProfile swaps in for the
// Preset list and the draft's panes.
//
// It is a sub-model of the panel: its own Update, View, ShortHelp and
// CapturesInput on its own state, the library snapshot the panel
// installs (snap) and the shared Common; a new profile, a fork, a delete
// and opening a profile's Preset are asked of the panel (intents), as are
// its status messages.
type profilesView struct {
	com  *common.Common
	keys *keymap.Presets
	// snap is the library the panel loaded last (nil: none yet).
	snap *resources.Library
	// wantProfile is the profile to put the cursor on after the next
	// library load (one just created or forked).
	wantProfile string

	profiles    *common.List[profileRow]
	showProfile bool
	// prof is the profile being edited, profForm its form (profFocus: the
	// form has the keys; profRaw: the form is the raw JSON view),
	// profStatus the selected entry's profile status (profiles_edit.go).
	prof       *profileDraft
	profForm   forms.Form
	profFocus  bool
	profRaw    bool
	profStatus *replay.ProfileStatus
}

// selectedProfile is the profile under the cursor (nil when none).
func (v *profilesView) selectedProfile() *resources.Profile {
	if i := v.profiles.SelectedIndex(); v.snap != nil && i >= 0 {
		return v.snap.Profiles[i]
	}
	return nil
}

// openProfilePreset asks the panel to open the Preset the profile under
// the cursor uses, or says why there is none.
func (v *profilesView) openProfilePreset() (tea.Cmd, intent) {
	prof := v.selectedProfile()
	if prof == nil {
		return nil, nil
	}
	p, diags := v.snap.ResolveProfilePreset(prof)
	if p == nil {
		if len(diags) > 0 {
			return nil, statusIntent{diags[0].Message, true}
		}
		return nil, statusIntent{i18n.T("profile %s uses no preset (promptStack null)", prof.ID), false}
	}
	return nil, openProfilePresetIntent{p}
}

// View implements the part: the profile list and the profile's detail
// (its form while it is edited) in layout l.
func (v *profilesView) View(l layout) string {
	return joinH(v.profileListView(l.list), v.profileDetailView(l.editor))
}

// profileListView lists the agent profiles with scope and counts.
func (v *profilesView) profileListView(r rect) string {
	lines := libraryLines(v.com, v.snap == nil, v.profiles, i18n.T("no agent profiles — n creates one"), r, !v.profFocus)
	info := ""
	if v.snap != nil {
		info = i18n.T("%d/%d · ◆ last applied · p presets", min(v.profiles.Cursor()+1, v.profiles.Len()), v.profiles.Len())
	}
	return frame(v.com, r, i18n.T("Agent profiles"), info, !v.profFocus, lines)
}

// profileFormSize is the profile form's size in the detail pane r: the
// pane's inner width, and its height less the status card (at most half).
func (v *profilesView) profileFormSize(r rect) (width, height int) {
	inner, innerH := max(0, r.w-4), max(0, r.h-2)
	card := v.profileStatusLines(inner)
	return inner, max(3, innerH-min(len(card), innerH/2))
}

// profileDetailView shows one profile: its form while it is edited, else
// validation, model and resolved Preset; then the selected session's
// profile status card.
func (v *profilesView) profileDetailView(r rect) string {
	p := v.selectedProfile()
	if p == nil {
		return frame(v.com, r, i18n.T("Profile"), "", false, v.profileStatusLines(max(0, r.w-4)))
	}
	inner := max(0, r.w-4)
	card := v.profileStatusLines(inner)
	if v.prof != nil && v.profForm != nil && v.prof.p.Path == p.Path {
		title := i18n.T("Profile · %s (editing)", p.ID)
		if v.profRaw {
			title = i18n.T("Profile · %s · raw JSON (editing)", p.ID)
		}
		if v.prof.dirty() {
			title = "● " + i18n.T("%s unsaved", title)
		}
		lines := strings.Split(v.profForm.View(v.profileFormSize(r)), "\n")
		lines = append(lines, card...)
		other := "JSON"
		if v.profRaw {
			other = i18n.Mark("form")
		}
		k := v.keys
		return frame(v.com, r, title, keyNotes(keyNote{k.Save, i18n.Mark("save")}, keyNote{k.Undo, i18n.Mark("undo")}, keyNote{k.RawJSON, other}, keyNote{k.Back, i18n.Mark("list")}), v.profFocus, lines)
	}
	k := v.keys
	return frame(v.com, r, i18n.T("Profile · %s", p.ID), keyNotes(keyNote{k.Item, i18n.Mark("edit")}, keyNote{k.RawJSON, "JSON"}, keyNote{k.Edit, "$EDITOR"}, keyNote{k.Open, i18n.Mark("preset")}), //i18n:raw JSON and $EDITOR are names
		false, append(v.profileDetailLines(p, inner), card...))
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
		parts[i] = n.b.Help().Key + " " + i18n.T(n.what)

	}
	return strings.Join(parts, " · ")
}

// profileDetailLines describe a profile that is not being edited.
func (v *profilesView) profileDetailLines(p *resources.Profile, inner int) []string {
	st := v.com.Styles
	field := func(k, v string) string { return st.Text.Muted.Render(common.PadRight(k, 13)) + v }
	var lines []string
	lines = append(lines, field(i18n.T("profile"), sanitize.Line(p.Key())))
	if p.Profile.Name != nil {
		lines = append(lines, field(i18n.T("name"), sanitize.Line(*p.Profile.Name)))
	}
	lines = append(lines, field(i18n.T("file"), sanitize.Line(p.FileName())))
	model := "—"
	if mp := p.Profile.Model; mp.Provider != "" || mp.ID != "" {
		model = mp.Provider + "/" + mp.ID
	}
	lines = append(lines, field(i18n.T("model"), sanitize.Line(model)), field(i18n.T("thinking"), sanitize.Line(p.Profile.ThinkingLevel)))
	autoAct := i18n.T("no")
	if p.Profile.AutoActivate != nil && *p.Profile.AutoActivate {
		autoAct = i18n.T("yes")
	}
	lines = append(lines, field("autoActivate", autoAct)) //i18n:raw the JSON key
	lines = append(lines, v.profilePresetLines(p, field, inner)...)
	lines = append(lines, "", st.Text.Subtle.Render(i18n.T("Validation")))
	if len(p.Diagnostics) == 0 {
		lines = append(lines, st.Text.Success.Render(i18n.T("✓ the profile file validates")))
	}
	for _, d := range p.Diagnostics {
		msg := d.Message
		if d.Field != "" {
			msg = d.Field + ": " + msg
		}
		lines = append(lines, wrapDiags(&v.com.Styles, []preset.Diagnostic{{Level: d.Level, Message: msg}}, "", inner)...)
	}
	if p.Profile.Description != nil {
		lines = append(lines, "", st.Text.Subtle.Render(i18n.T("Description")))
		lines = append(lines, common.Wrap(sanitize.Text(*p.Profile.Description), inner)...)
	}
	return lines
}

// profileStatusLines is the card of the selected session's profile
// status: the runtime at the entry, the last applied profile, whether its
// file changed since, and the drift of each field.
func (v *profilesView) profileStatusLines(width int) []string {
	st := v.com.Styles
	head := []string{"", st.Text.Subtle.Render(i18n.T("Session status (pi-forge /profile status)"))}
	s := v.profStatus
	if s == nil {
		return append(head, st.Text.Muted.Render(i18n.T("select a session (panel 3) to see what it applied")))
	}
	field := func(k, v string) string { return st.Text.Muted.Render(common.PadRight(k, 13)) + sanitize.Line(v) }
	model := i18n.T("(none)")
	if s.Current.Model != nil {
		model = s.Current.Model.String()
	}
	stack := i18n.T("(none)")
	if s.Current.PromptStack != nil {
		stack = *s.Current.PromptStack
	}
	lines := append(head, field(i18n.T("at entry"), s.EntryID), field(i18n.T("current"), model+" · "+s.Current.ThinkingLevel+" · "+stack))
	if s.Last == nil {
		return append(lines, field(i18n.T("last applied"), i18n.T("(none)")))
	}
	p := s.Last.Provenance
	source := s.Last.SourceState
	style := st.Text.Success
	if source != profile.SourceUnchanged {
		style = st.Text.Warning
		if source == profile.SourceChanged {
			source = i18n.T("changed since it was applied")
		}
	}
	scope := p.Scope
	if scope == "" {
		scope = preset.ScopeProject
	}
	lines = append(lines, field(i18n.T("last applied"), "◆ "+i18n.T("%s:%s at %s", string(scope), p.ProfileID, p.AppliedAt)),
		st.Text.Muted.Render(common.PadRight(i18n.T("source"), 13))+style.Render(sanitize.Line(source)))
	for _, d := range []struct {
		name string
		d    profile.Drift
	}{{i18n.T("model"), s.Last.Model}, {i18n.T("thinking"), s.Last.Thinking}, {i18n.T("preset"), s.Last.Preset}, {i18n.T("tools *"), s.Last.Tools}} {
		text, style := i18n.T("unchanged"), st.Text.Success
		switch {
		case d.d.Unknown:
			text, style = i18n.T("unknown (not recorded)"), st.Text.Muted
		case d.d.Changed:
			text, style = d.d.Expected+" → "+d.d.Actual, st.Text.Warning
		}
		lines = append(lines, st.Text.Muted.Render("  "+common.PadRight(d.name, 11))+style.Render(truncateCells(sanitize.Line(text), max(0, width-13))))
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
func (v *profilesView) profilePresetLines(p *resources.Profile, field func(k, v string) string, width int) []string {
	st := v.com.Styles
	if p.Profile.PromptStack == nil {
		return []string{field(i18n.T("preset"), st.Text.Muted.Render(i18n.T("none (promptStack null)")))}
	}
	resolved, diags := v.snap.ResolveProfilePreset(p)
	out := []string{field("promptStack", sanitize.Line(*p.Profile.PromptStack))} //i18n:raw the JSON key
	if resolved != nil {
		errs, warns := resolved.Counts()
		out = append(out, field(i18n.T("resolves to"), sanitize.Line(resolved.Key())+" "+countBadges(&st, errs, warns)))
	}
	for _, d := range diags {
		out = append(out, wrapDiags(&v.com.Styles, []preset.Diagnostic{{Level: d.Level, Message: d.Message}}, "", width)...)
	}
	return out
}

// refreshProfileRows rebuilds the profile rows (library, last applied,
// drafts); a note for the status line comes back when the edited
// profile's file changed on disk.
func (v *profilesView) refreshProfileRows() intent {
	if v.snap == nil {
		return nil
	}
	var note intent
	last, dirty := "", ""
	if st := v.profStatus; st != nil && st.Last != nil {
		scope := st.Last.Provenance.Scope
		if scope == "" {
			scope = preset.ScopeProject
		}
		last = string(scope) + ":" + st.Last.Provenance.ProfileID
	}
	if v.prof != nil {
		if p := v.findProfile(v.prof.p.Path); p != nil {
			note = v.followProfileFile(p)
		}
		if v.prof.dirty() {
			dirty = v.prof.p.Path
		}
	}
	v.profiles.SetItems(profileRows(v.snap, last, dirty))
	if v.wantProfile != "" {
		for i, p := range v.snap.Profiles {
			if p.Key() == v.wantProfile {
				v.profiles.SetCursor(i)
				v.wantProfile = ""
				v.syncProfileForm()
			}
		}
	}
	return note
}

// findProfile looks a profile file up in the current snapshot.
func (v *profilesView) findProfile(path string) *resources.Profile {
	for _, p := range v.snap.Profiles {
		if p.Path == path {
			return p
		}
	}
	return nil
}
