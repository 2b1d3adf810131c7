package presets

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/components/draft"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// The Profiles view edits agent profiles like Presets: a draft of the
// file's JSON tree, a form over every field (i), the whole file as JSON
// inline (v, the Preset's Advanced view) or in $EDITOR (e), new (n) and
// fork (f) in a chosen scope, delete (x) and save (ctrl+s), each against
// the revision the user loaded. A profile that does not validate is not
// saved (pi-forge's profile service refuses it too).

// profileDraft is the profile being edited.
type profileDraft struct {
	p        *resources.Profile
	revision string
	tree     *jsonv.Object
	baseline *jsonv.Object
	history  []*jsonv.Object
	diags    profile.Diagnostics
	// run is the label of the last edit while a run of typing goes on
	// (raw JSON): a coalescing edit with the same label is no new undo step.
	run string
}

// dirty reports unsaved edits.
func (d *profileDraft) dirty() bool { return !draft.Equal(d.tree, d.baseline) }

// check validates the tree as the file would be read in its scope.
func (d *profileDraft) check() {
	prof, diags := profile.ParseValue(d.tree, d.p.ID)
	d.diags = append(diags, profile.ValidateScope(prof, d.p.Scope)...)
}

type (
	// profileSavedMsg reports a profile write (save, new, fork).
	profileSavedMsg struct {
		verb, key string
		tree      *jsonv.Object
		res       resources.WriteResult
		err       error
	}
	// profileStatusMsg carries the profile status of the selected entry.
	profileStatusMsg struct {
		file, entry string
		status      *replay.ProfileStatus
	}
	// profileEditedMsg carries the text $EDITOR returned for a profile.
	profileEditedMsg struct {
		key, text string
		err       error
	}
)

// profilesKey handles the keys of the profiles view; ok is false for keys
// the panel handles (p, r, …).
func (m *Model) profileViewKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &m.keys
	if key.Matches(msg, k.Save) {
		return m.saveProfile(), true
	}
	if key.Matches(msg, k.RawJSON) && (m.profForm == nil || !m.profFocus || !m.profForm.CapturesInput()) {
		return m.toggleProfileRaw(), true
	}
	if m.profFocus && m.profForm != nil {
		if m.profForm.CapturesInput() || !key.Matches(msg, k.Back, k.Undo, k.Edit) {
			var cmd tea.Cmd
			m.profForm, cmd = m.updateForm(m.profForm, msg)
			return cmd, true
		}
		if key.Matches(msg, k.Back) {
			m.profFocus = false
			return nil, true
		}
	}
	if m.profiles.HandleNav(msg, m.keys.Nav) {
		m.syncProfileForm()
		return nil, true
	}
	p := m.selectedProfile()
	switch {
	case key.Matches(msg, k.Undo):
		return m.undoProfile(), true
	case key.Matches(msg, k.Item), key.Matches(msg, m.com.Keys.Select) && m.profFocus:
		m.profRaw = false // i is the form; v the raw JSON
		return m.editProfile(p), true
	case key.Matches(msg, k.Edit):
		return m.editProfileExternally(p), true
	case key.Matches(msg, k.New):
		return m.promptNewProfile(), true
	case key.Matches(msg, k.Fork):
		return m.promptForkProfile(p), true
	case key.Matches(msg, k.Delete):
		return m.confirmDeleteProfile(p), true
	case key.Matches(msg, k.Back):
		m.showProfile = false
		return nil, true
	case key.Matches(msg, k.Open):
		return m.openProfilePreset(), true
	}
	return nil, false
}

// editProfile opens p's draft (kept when it is already open) and focuses
// its form.
func (m *Model) editProfile(p *resources.Profile) tea.Cmd {
	if p == nil {
		return nil
	}
	if m.prof == nil || m.prof.p.Path != p.Path {
		if m.prof != nil && m.prof.dirty() {
			m.setStatus("profile "+m.prof.p.Key()+" has unsaved edits: ctrl+s saves them, u undoes them", true)
			return nil
		}
		m.prof = newProfileDraft(p)
	}
	m.profForm = m.buildProfileForm(forms.Cursor{})
	m.profFocus = true
	return nil
}

// toggleProfileRaw switches the editor of the profile under the cursor
// between its form and the whole file as JSON (opening its draft first).
func (m *Model) toggleProfileRaw() tea.Cmd {
	p := m.selectedProfile()
	if p == nil {
		return nil
	}
	editing := m.prof != nil && m.prof.p.Path == p.Path && m.profForm != nil
	was := m.profRaw
	if editing && m.profFocus {
		m.profRaw = !m.profRaw
	} else {
		m.profRaw = true
	}
	m.editProfile(p)
	if m.prof == nil || m.prof.p.Path != p.Path {
		m.profRaw = was // another profile has unsaved edits (the status says so)
		return nil
	}
	m.profForm = m.buildProfileForm(forms.Cursor{})
	return nil
}

// profileViewToggle is the RawJSON binding as its help should read now: v
// goes to the raw JSON from the form, and back to the form from it.
func (m *Model) profileViewToggle() key.Binding {
	b := m.keys.RawJSON
	if m.profRaw {
		b.SetHelp(b.Help().Key, "form")
	}
	return b
}

// profileKeys are the panel's keys as their help should read in the
// profiles view, where i, n, enter and p act on profiles ("new preset"
// there would be wrong).
func (m *Model) profileKeys() keymap.Presets {
	k := m.keys
	relabel := func(b *key.Binding, desc string) { b.SetHelp(b.Help().Key, desc) }
	relabel(&k.Item, "edit profile")
	relabel(&k.New, "new profile")
	relabel(&k.Fork, "fork profile")
	relabel(&k.Delete, "delete profile")
	relabel(&k.Open, "open its preset")
	relabel(&k.Profiles, "presets")
	return k
}

// profileContext is what the profile's form and raw view are built from.
func (m *Model) profileContext() forms.ProfileContext {
	var presets []string
	if m.lib != nil {
		for _, p := range m.lib.Presets {
			if p.Scope == m.prof.p.Scope || m.prof.p.Scope == preset.ScopeProject {
				presets = append(presets, p.Key())
			}
		}
	}
	return forms.ProfileContext{Com: m.com, Tree: m.prof.tree, Diagnostics: m.prof.diags, Presets: presets}
}

// buildProfileForm makes the form (or the raw JSON view) of the open
// profile draft.
func (m *Model) buildProfileForm(c forms.Cursor) forms.Form {
	if m.profRaw {
		return forms.NewProfileRawJSON(m.profileContext(), forms.WithCursor(c))
	}
	return forms.NewProfile(m.profileContext(), forms.WithCursor(c))
}

// rebuildProfileForm follows an edit or an undo: the raw JSON view keeps
// the text being typed, the form is made anew at the same place.
func (m *Model) rebuildProfileForm() {
	if r, ok := m.profForm.(interface{ RefreshProfile(forms.ProfileContext) }); ok && m.profRaw {
		r.RefreshProfile(m.profileContext())
		return
	}
	m.profForm = m.buildProfileForm(forms.CursorOf(m.profForm))
}

// syncProfileForm keeps the form only while the cursor is on the profile
// it edits.
func (m *Model) syncProfileForm() {
	if p := m.selectedProfile(); m.prof == nil || p == nil || p.Path != m.prof.p.Path {
		m.profForm, m.profFocus = nil, false
	} else if m.profForm == nil {
		m.profForm = m.buildProfileForm(forms.Cursor{})
	}
}

// applyProfileEdit applies a form's edit to the profile draft.
func (m *Model) applyProfileEdit(msg forms.EditMsg) tea.Cmd {
	var next *jsonv.Object
	var err error
	if msg.Delete {
		next, err = draft.Delete(m.prof.tree, msg.Path)
	} else {
		next, err = draft.Set(m.prof.tree, msg.Path, msg.Value)
	}
	if err != nil {
		m.setStatus(err.Error(), true)
		return nil
	}
	m.setProfileTree(next, msg.Label, msg.Coalesce)
	return nil
}

// setProfileTree installs an edited tree: one undo step, or part of the
// step before when coalesce continues a run of the same label.
func (m *Model) setProfileTree(next *jsonv.Object, label string, coalesce bool) {
	if !coalesce || label != m.prof.run || len(m.prof.history) == 0 {
		m.prof.history = append(m.prof.history, m.prof.tree)
	}
	m.prof.run = ""
	if coalesce {
		m.prof.run = label
	}
	m.prof.tree = next
	m.prof.check()
	m.rebuildProfileForm()
	m.refreshProfileRows()
}

// undoProfile restores the profile draft before its last edit.
func (m *Model) undoProfile() tea.Cmd {
	if m.prof == nil || len(m.prof.history) == 0 {
		m.setStatus("nothing to undo", false)
		return nil
	}
	n := len(m.prof.history) - 1
	m.prof.tree, m.prof.history, m.prof.run = m.prof.history[n], m.prof.history[:n], ""
	m.prof.check()
	m.rebuildProfileForm()
	m.refreshProfileRows()
	m.setStatus("undid the last profile edit", false)
	return nil
}

// saveProfile writes the draft against the revision the user loaded; a
// profile with errors is not written.
func (m *Model) saveProfile() tea.Cmd {
	if m.prof == nil {
		m.setStatus("no profile is being edited (i edits the one under the cursor)", false)
		return nil
	}
	if problem := forms.Unparsed(m.profForm); problem != "" {
		m.setStatus(rawUnparsedText(problem), true)
		return nil
	}
	if m.prof.diags.HasErrors() {
		m.setStatus("not saved: "+m.prof.diags.FirstError(), true)
		return nil
	}
	prof, _ := profile.ParseValue(m.prof.tree, m.prof.p.ID)
	ws, p, rev, tree := m.com.Workspace, m.prof.p, m.prof.revision, m.prof.tree
	m.setStatus("saving "+p.Key()+"…", false)
	return func() tea.Msg {
		res, err := resources.SaveProfile(ws, p.Scope, p.ID, prof, rev)
		return profileSavedMsg{verb: "saved", key: p.Key(), tree: tree, res: res, err: err}
	}
}

// applyProfileSaved reports a profile write and reloads the library.
func (m *Model) applyProfileSaved(msg profileSavedMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, resources.ErrConflict):
		m.setStatus(msg.key+" changed on disk since you opened it; your draft is kept — r reloads (dropping it), f forks it", true)
		if msg.verb == "saved" {
			return m.profileConflictCmd()
		}
		return nil
	case msg.err != nil:
		m.setStatus(fmt.Sprintf("%s %s: %v", msg.verb, msg.key, msg.err), true)
		return nil
	}
	if msg.verb == "saved" && m.prof != nil && m.prof.p.Key() == msg.key {
		m.prof.revision, m.prof.baseline, m.prof.run = msg.res.SourceRevision, msg.tree, ""
	}
	m.setStatus(msg.verb+" "+msg.key, false)
	if msg.verb == "created" || msg.verb == "forked" {
		m.wantProfile = msg.key // created or forked: the next i edits it
	}
	return loadLibraryCmd(m.com.Services()) // the new snapshot reloads the status
}

// promptNewProfile asks for the id and scope of a new profile.
func (m *Model) promptNewProfile() tea.Cmd {
	return m.scopedPrompt("New agent profile", "enter creates a profile under this id; "+m.profileKeys().Edit.Help().Key+" then edits its model and Preset.", "my-profile", m.defaultScope(),
		func(m *Model, id string, scope preset.Scope) tea.Cmd {
			tree := jsonv.NewObject()
			tree.Set("schemaVersion", 1.0)
			tree.Set("type", profile.Type)
			tree.Set("id", id)
			model := jsonv.NewObject()
			model.Set("provider", "anthropic")
			model.Set("id", "claude-sonnet-4-5")
			tree.Set("model", model)
			tree.Set("thinkingLevel", "medium")
			tree.Set("promptStack", nil)
			return m.createProfile("created", tree, id, scope)
		})
}

// promptForkProfile asks for the id and scope of a copy of p (the open
// draft's edits included).
func (m *Model) promptForkProfile(p *resources.Profile) tea.Cmd {
	if p == nil {
		return nil
	}
	tree := profile.ToJSON(p.Profile)
	if m.prof != nil && m.prof.p.Path == p.Path {
		tree = m.prof.tree
	}
	return m.scopedPrompt("Fork profile", "enter writes a copy of "+p.Key()+", your unsaved edits included, under this id; "+p.Key()+" stays as it is on disk.", p.ID+"-copy", p.Scope,
		func(m *Model, id string, scope preset.Scope) tea.Cmd {
			next, _ := draft.Set(tree, draft.Path{"id"}, id)
			return m.createProfile("forked", next, id, scope)
		})
}

// createProfile writes tree as a new profile (exclusive create); it is
// checked in its scope first.
func (m *Model) createProfile(verb string, tree *jsonv.Object, id string, scope preset.Scope) tea.Cmd {
	prof, diags := profile.ParseValue(tree, id)
	diags = append(diags, profile.ValidateScope(prof, scope)...)
	if diags.HasErrors() {
		m.setStatus(verb+" "+string(scope)+":"+id+" refused: "+diags.FirstError(), true)
		return nil
	}
	ws := m.com.Workspace
	return func() tea.Msg {
		res, err := resources.CreateProfile(ws, scope, prof)
		return profileSavedMsg{verb: verb, key: string(scope) + ":" + id, res: res, err: err}
	}
}

// confirmDeleteProfile asks before deleting p against its revision.
func (m *Model) confirmDeleteProfile(p *resources.Profile) tea.Cmd {
	if p == nil {
		return nil
	}
	ws, res := m.com.Workspace, p.Resource
	m.openDialog(newConfirm(m, "Delete "+p.Key()+"?", "Deletes "+p.FileName()+" from disk; there is no undo. Sessions keep the provenance entries it left.",
		func(m *Model, _ string) tea.Cmd {
			if m.prof != nil && m.prof.p.Path == p.Path {
				m.prof, m.profForm, m.profFocus = nil, nil, false
			}
			return func() tea.Msg {
				path, err := resources.DeleteLoaded(ws, resources.KindProfile, &res, res.SourceRevision)
				return deletedMsg{key: res.Key(), path: path, err: err}
			}
		}))
	return nil
}

// editProfileExternally hands the profile's JSON (the draft's when open)
// to $EDITOR.
func (m *Model) editProfileExternally(p *resources.Profile) tea.Cmd {
	if p == nil {
		return nil
	}
	m.editProfile(p)
	if m.prof == nil || m.prof.p.Path != p.Path {
		return nil // another profile has unsaved edits (the status says so)
	}
	text := jsonv.StringifyIndent(m.prof.tree, "  ") + "\n"
	if raw, ok := m.profForm.(interface{ Text() string }); ok && m.profRaw {
		text = raw.Text() // what is being typed, parsing or not
	}
	key := p.Key()
	return m.com.ExternalEditor().Edit(text, editorJob{raw: true}.pattern(), func(edited string, err error) tea.Msg {
		return profileEditedMsg{key: key, text: edited, err: err}
	})
}

// applyProfileEdited takes the profile JSON $EDITOR returned: an object
// becomes the draft (one undo step), anything else leaves it and says
// where the problem is.
func (m *Model) applyProfileEdited(msg profileEditedMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		m.setStatus(msg.err.Error(), true)
		return nil
	case m.prof == nil || m.prof.p.Key() != msg.key:
		return nil
	}
	if problem := forms.ParseProblem(msg.text, forms.NounProfile); problem != "" {
		if raw, ok := m.profForm.(interface{ StartWith(string) tea.Cmd }); ok && m.profRaw {
			m.profFocus = true
			m.setStatus("the profile from $EDITOR does not parse; the draft is unchanged — fix it here", true)
			return raw.StartWith(msg.text)
		}
		m.setStatus("the profile from $EDITOR was not applied: "+strings.TrimSuffix(problem, ".")+"; the draft is unchanged", true)
		return nil
	}
	v, _ := jsonv.Parse([]byte(msg.text))
	if draft.Equal(v.(*jsonv.Object), m.prof.tree) {
		m.setStatus("no change from $EDITOR", false)
		return nil
	}
	m.setProfileTree(v.(*jsonv.Object), "$EDITOR", false)
	m.setStatus("profile "+msg.key+" replaced from $EDITOR (ctrl+s saves)", false)
	return nil
}

// loadProfileStatusCmd reads the profile status of the selected entry.
func loadProfileStatusCmd(lib *resources.Library, file, entry string) tea.Cmd {
	if lib == nil || file == "" {
		return func() tea.Msg { return profileStatusMsg{file: file, entry: entry} }
	}
	return func() tea.Msg {
		s, index, err := openAt(file, entry)
		if err != nil {
			return profileStatusMsg{file: file, entry: entry}
		}
		st := replay.ProfileStatusAt(s, index, lib.ProfileCatalog(), libraryLookup(lib))
		return profileStatusMsg{file: file, entry: entry, status: &st}
	}
}

// libraryLookup resolves Preset selectors in the library for the status.
func libraryLookup(lib *resources.Library) replay.PresetLookup {
	return func(selector string) (string, *preset.ResourcePolicy, bool) {
		p, err := lib.ResolvePreset(selector)
		if p == nil || (err != nil && !errors.Is(err, resources.ErrUnusable)) {
			return "", nil, false
		}
		return p.Key(), p.Stack.Tools, true
	}
}
