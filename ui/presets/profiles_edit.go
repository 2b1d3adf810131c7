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
	"github.com/forgebench/forgebench/i18n"
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
		// done is the status once written ("" says verb and key).
		done string
		tree *jsonv.Object
		res  resources.WriteResult
		err  error
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

// The intents of the Profiles view.
type (
	// newProfileIntent asks for the id of a new profile.
	newProfileIntent struct{}
	// forkProfileIntent asks for the id of a copy of p.
	forkProfileIntent struct{ p *resources.Profile }
	// deleteProfileIntent asks before deleting p.
	deleteProfileIntent struct{ p *resources.Profile }
	// openProfilePresetIntent opens the Preset p a profile uses.
	openProfilePresetIntent struct{ p *resources.Preset }
)

func (newProfileIntent) isIntent()        {}
func (forkProfileIntent) isIntent()       {}
func (deleteProfileIntent) isIntent()     {}
func (openProfilePresetIntent) isIntent() {}

// Update implements the part: a key press in the Profiles view. The
// profile's form takes the keys while it has focus (all of them while it
// types), the list's cursor moves, and the profile keys act on the profile
// under the cursor; creating, forking, deleting and opening its Preset are
// asked of the panel, and a key the view does not take is passed back
// (passIntent) for the panel's own keys.
func (v *profilesView) Update(msg tea.Msg) (tea.Cmd, intent) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	k := v.keys
	if key.Matches(km, k.Save) {
		return v.saveProfile()
	}
	if key.Matches(km, k.RawJSON) && (v.profForm == nil || !v.profFocus || !v.profForm.CapturesInput()) {
		return nil, v.toggleProfileRaw()
	}
	if v.profFocus && v.profForm != nil {
		if v.profForm.CapturesInput() || !key.Matches(km, k.Back, k.Undo, k.Edit) {
			var cmd tea.Cmd
			v.profForm, cmd = v.profForm.Update(km)
			return nil, formAnswerIntent{cmd: cmd, typing: v.profForm.CapturesInput()}
		}
		if key.Matches(km, k.Back) {
			v.profFocus = false
			return nil, nil
		}
	}
	if v.profiles.HandleNav(km, v.keys.Nav) {
		v.syncProfileForm()
		return nil, nil
	}
	p := v.selectedProfile()
	switch {
	case key.Matches(km, k.Undo):
		return nil, v.undoProfile()
	case key.Matches(km, k.Item), key.Matches(km, v.com.Keys.Select) && v.profFocus:
		v.profRaw = false // i is the form; v the raw JSON
		return nil, v.editProfile(p)
	case key.Matches(km, k.Edit):
		return v.editProfileExternally(p)
	case key.Matches(km, k.New):
		return nil, newProfileIntent{}
	case key.Matches(km, k.Fork):
		if p == nil {
			return nil, nil
		}
		return nil, forkProfileIntent{p}
	case key.Matches(km, k.Delete):
		if p == nil {
			return nil, nil
		}
		return nil, deleteProfileIntent{p}
	case key.Matches(km, k.Back):
		v.showProfile = false
		return nil, nil
	case key.Matches(km, k.Open):
		return v.openProfilePreset()
	case key.Matches(km, k.Use):
		if p == nil {
			return nil, nil
		}
		return nil, useProfileIntent{p}
	case key.Matches(km, k.Forget):
		return nil, forgetProfileIntent{}
	case key.Matches(km, k.Capture):
		return nil, captureProfileIntent{}
	}
	return nil, passIntent{}
}

// formHasKeys reports whether the profile's form has the keys.
func (v *profilesView) formHasKeys() bool { return v.profFocus && v.profForm != nil }

// CapturesInput implements the part: true while the profile's form types
// into a field.
func (v *profilesView) CapturesInput() bool {
	return v.formHasKeys() && v.profForm.CapturesInput()
}

// ShortHelp implements the part: the form's keys while it has them, else
// the profile keys as they read here.
func (v *profilesView) ShortHelp() []key.Binding {
	k := v.keys
	switch {
	case v.CapturesInput():
		return append(v.profForm.ShortHelp(), k.Save)
	case v.formHasKeys():
		return append(v.profForm.ShortHelp(), v.profileViewToggle(), k.Edit, k.Save, k.Undo, k.Back)
	}
	pk := v.profileKeys()
	return []key.Binding{pk.Use, pk.Forget, pk.Capture, pk.Item, pk.RawJSON, pk.Edit, pk.New, pk.Fork, pk.Delete, pk.Save, pk.Open, pk.Back, pk.Profiles}
}

// FullHelp is the view's help overlay.
func (v *profilesView) FullHelp() [][]key.Binding {
	k := v.keys
	if v.formHasKeys() {
		return [][]key.Binding{v.profForm.ShortHelp(), {v.profileViewToggle(), k.Edit, k.Back, k.Save, k.Undo}, v.com.Keys.Forms.Text.Help()}
	}
	pk := v.profileKeys()
	return [][]key.Binding{
		{pk.Up, pk.Down, pk.PageUp, pk.PageDown, pk.Top, pk.Bottom, pk.Open, pk.Back},
		{pk.Item, pk.RawJSON, pk.Edit, pk.New, pk.Fork, pk.Delete},
		{pk.Save, pk.Undo, pk.Profiles, pk.Reload},
		{pk.Use, pk.Forget, pk.Capture, pk.Diagnostics, pk.Macro},
		{v.com.Keys.Copy, v.com.Keys.View, v.com.Keys.Pager},
	}
}

// editProfile opens p's draft (kept when it is already open) and focuses
// its form.
func (v *profilesView) editProfile(p *resources.Profile) intent {
	if p == nil {
		return nil
	}
	if v.prof == nil || v.prof.p.Path != p.Path {
		if v.prof != nil && v.prof.dirty() {
			return statusIntent{i18n.T("profile %s has unsaved edits: ctrl+s saves them, u undoes them", v.prof.p.Key()), true}
		}
		v.prof = newProfileDraft(p)
	}
	v.profForm = v.buildProfileForm(forms.Cursor{})
	v.profFocus = true
	return nil
}

// toggleProfileRaw switches the editor of the profile under the cursor
// between its form and the whole file as JSON (opening its draft first).
func (v *profilesView) toggleProfileRaw() intent {
	p := v.selectedProfile()
	if p == nil {
		return nil
	}
	editing := v.prof != nil && v.prof.p.Path == p.Path && v.profForm != nil
	was := v.profRaw
	if editing && v.profFocus {
		v.profRaw = !v.profRaw
	} else {
		v.profRaw = true
	}
	if in := v.editProfile(p); v.prof == nil || v.prof.p.Path != p.Path {
		v.profRaw = was // another profile has unsaved edits (the status says so)
		return in
	}
	v.profForm = v.buildProfileForm(forms.Cursor{})
	return nil
}

// profileViewToggle is the RawJSON binding as its help should read now: v
// goes to the raw JSON from the form, and back to the form from it.
func (v *profilesView) profileViewToggle() key.Binding {
	b := v.keys.RawJSON
	if v.profRaw {
		b.SetHelp(b.Help().Key, i18n.Mark("form"))

	}
	return b
}

// profileKeys are the panel's keys as their help should read in the
// profiles view, where i, n, enter and p act on profiles ("new preset"
// there would be wrong).
func (v *profilesView) profileKeys() keymap.Presets {
	k := *v.keys // a copy: the panel's own help stays as it reads
	relabel := func(b *key.Binding, desc string) { b.SetHelp(b.Help().Key, desc) }
	relabel(&k.Item, i18n.Mark("edit profile"))
	relabel(&k.New, i18n.Mark("new profile"))
	relabel(&k.Fork, i18n.Mark("fork profile"))
	relabel(&k.Delete, i18n.Mark("delete profile"))
	relabel(&k.Open, i18n.Mark("open its preset"))
	relabel(&k.Profiles, i18n.Mark("presets"))
	relabel(&k.Use, i18n.Mark("use profile"))
	return k
}

// profileContext is what the profile's form and raw view are built from.
func (v *profilesView) profileContext() forms.ProfileContext {
	var presets []string
	if v.snap != nil {
		for _, p := range v.snap.Presets {
			if p.Scope == v.prof.p.Scope || v.prof.p.Scope == preset.ScopeProject {
				presets = append(presets, p.Key())
			}
		}
	}
	return forms.ProfileContext{Com: v.com, Tree: v.prof.tree, Diagnostics: v.prof.diags, Presets: presets}
}

// buildProfileForm makes the form (or the raw JSON view) of the open
// profile draft.
func (v *profilesView) buildProfileForm(c forms.Cursor) forms.Form {
	if v.profRaw {
		return forms.NewProfileRawJSON(v.profileContext(), forms.WithCursor(c))
	}
	return forms.NewProfile(v.profileContext(), forms.WithCursor(c))
}

// rebuildProfileForm follows an edit or an undo: the raw JSON view keeps
// the text being typed, the form is made anew at the same place.
func (v *profilesView) rebuildProfileForm() {
	if r, ok := v.profForm.(interface{ RefreshProfile(forms.ProfileContext) }); ok && v.profRaw {
		r.RefreshProfile(v.profileContext())
		return
	}
	v.profForm = v.buildProfileForm(forms.CursorOf(v.profForm))
}

// syncProfileForm keeps the form only while the cursor is on the profile
// it edits.
func (v *profilesView) syncProfileForm() {
	if p := v.selectedProfile(); v.prof == nil || p == nil || p.Path != v.prof.p.Path {
		v.profForm, v.profFocus = nil, false
	} else if v.profForm == nil {
		v.profForm = v.buildProfileForm(forms.Cursor{})
	}
}

// applyProfileEdit applies a form's edit to the profile draft.
func (v *profilesView) applyProfileEdit(msg forms.EditMsg) intent {
	var next *jsonv.Object
	var err error
	if msg.Delete {
		next, err = draft.Delete(v.prof.tree, msg.Path)
	} else {
		next, err = draft.Set(v.prof.tree, msg.Path, msg.Value)
	}
	if err != nil {
		return statusIntent{err.Error(), true}
	}
	return v.setProfileTree(next, msg.Label, msg.Coalesce)
}

// setProfileTree installs an edited tree: one undo step, or part of the
// step before when coalesce continues a run of the same label.
func (v *profilesView) setProfileTree(next *jsonv.Object, label string, coalesce bool) intent {
	if !coalesce || label != v.prof.run || len(v.prof.history) == 0 {
		v.prof.history = append(v.prof.history, v.prof.tree)
	}
	v.prof.run = ""
	if coalesce {
		v.prof.run = label
	}
	v.prof.tree = next
	v.prof.check()
	v.rebuildProfileForm()
	return v.refreshProfileRows()
}

// undoProfile restores the profile draft before its last edit.
func (v *profilesView) undoProfile() intent {
	if v.prof == nil || len(v.prof.history) == 0 {
		return statusIntent{i18n.T("nothing to undo"), false}
	}
	n := len(v.prof.history) - 1
	v.prof.tree, v.prof.history, v.prof.run = v.prof.history[n], v.prof.history[:n], ""
	v.prof.check()
	v.rebuildProfileForm()
	v.refreshProfileRows() // its note, if any, gives way to this one
	return statusIntent{i18n.T("undid the last profile edit"), false}
}

// saveProfile writes the draft against the revision the user loaded; a
// profile with errors is not written.
func (v *profilesView) saveProfile() (tea.Cmd, intent) {
	if v.prof == nil {
		return nil, statusIntent{i18n.T("no profile is being edited (i edits the one under the cursor)"), false}
	}
	if problem := forms.Unparsed(v.profForm); problem != "" {
		return nil, statusIntent{rawUnparsedText(problem), true}
	}
	if v.prof.diags.HasErrors() {
		return nil, statusIntent{i18n.T("not saved: %s", v.prof.diags.FirstError()), true}
	}
	prof, _ := profile.ParseValue(v.prof.tree, v.prof.p.ID)
	ws, p, rev, tree := v.com.Workspace, v.prof.p, v.prof.revision, v.prof.tree
	return func() tea.Msg {
		res, err := resources.SaveProfile(ws, p.Scope, p.ID, prof, rev)
		return profileSavedMsg{verb: "saved", key: p.Key(), tree: tree, res: res, err: err}
	}, statusIntent{i18n.T("saving %s…", p.Key()), false}
}

// applyProfileSaved reports a profile write and reloads the library.
func (m *Model) applyProfileSaved(msg profileSavedMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, resources.ErrConflict):
		m.setStatus(i18n.T("%s changed on disk since you opened it; your draft is kept — r reloads (dropping it), f forks it", msg.key), true)
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
	if msg.done != "" {
		m.setStatus(msg.done, false)
	} else {
		m.setStatus(profileWritten(msg.verb, msg.key), false)
	}
	if msg.verb == "created" || msg.verb == "forked" {
		m.wantProfile = msg.key // created or forked: the next i edits it
	}
	return loadLibraryCmd(m.com.Services()) // the new snapshot reloads the status
}

// promptNewProfile asks for the id and scope of a new profile.
func (m *Model) promptNewProfile() tea.Cmd {
	return m.scopedPrompt(i18n.T("New agent profile"), i18n.T("enter creates a profile under this id; %s then edits its model and Preset.", m.profileKeys().Edit.Help().Key), "my-profile", m.defaultScope(),
		func(m *Model, id string, scope preset.Scope) tea.Cmd {
			tree := jsonv.NewObject()
			tree.Set("schemaVersion", 1.0) //i18n:raw JSON key
			tree.Set("type", profile.Type)
			tree.Set("id", id)
			model := jsonv.NewObject()
			model.Set("provider", "anthropic")
			model.Set("id", "claude-sonnet-4-5")
			tree.Set("model", model)
			tree.Set("thinkingLevel", "medium") //i18n:raw JSON key
			tree.Set("promptStack", nil)        //i18n:raw JSON key
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
	return m.scopedPrompt(i18n.T("Fork profile"), i18n.T("enter writes a copy of %[1]s, your unsaved edits included, under this id; %[1]s stays as it is on disk.", p.Key()), p.ID+"-copy", p.Scope,
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
		m.setStatus(profileRefused(verb, string(scope)+":"+id, diags.FirstError()), true)
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
	m.openDialog(newConfirm(m, i18n.T("Delete %s?", p.Key()), i18n.T("Deletes %s from disk; there is no undo. Sessions keep the provenance entries it left.", p.FileName()),
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
func (v *profilesView) editProfileExternally(p *resources.Profile) (tea.Cmd, intent) {
	if p == nil {
		return nil, nil
	}
	if in := v.editProfile(p); v.prof == nil || v.prof.p.Path != p.Path {
		return nil, in // another profile has unsaved edits (the status says so)
	}
	text := jsonv.StringifyIndent(v.prof.tree, "  ") + "\n"
	if raw, ok := v.profForm.(interface{ Text() string }); ok && v.profRaw {
		text = raw.Text() // what is being typed, parsing or not
	}
	key := p.Key()
	return v.com.ExternalEditor().Edit(text, editorJob{raw: true}.pattern(), func(edited string, err error) tea.Msg {
		return profileEditedMsg{key: key, text: edited, err: err}
	}), nil
}

// applyProfileEdited takes the profile JSON $EDITOR returned: an object
// becomes the draft (one undo step), anything else leaves it and says
// where the problem is.
func (v *profilesView) applyProfileEdited(msg profileEditedMsg) (tea.Cmd, intent) {
	switch {
	case msg.err != nil:
		return nil, statusIntent{msg.err.Error(), true}
	case v.prof == nil || v.prof.p.Key() != msg.key:
		return nil, nil
	}
	if problem := forms.ParseProblem(msg.text, forms.NounProfile); problem != "" {
		if raw, ok := v.profForm.(interface{ StartWith(string) tea.Cmd }); ok && v.profRaw {
			v.profFocus = true
			return raw.StartWith(msg.text), statusIntent{i18n.T("the profile from $EDITOR does not parse; the draft is unchanged — fix it here"), true}
		}
		return nil, statusIntent{i18n.T("the profile from $EDITOR was not applied: %s; the draft is unchanged", strings.TrimSuffix(problem, ".")), true}
	}
	parsed, _ := jsonv.Parse([]byte(msg.text))
	if draft.Equal(parsed.(*jsonv.Object), v.prof.tree) {
		return nil, statusIntent{i18n.T("no change from $EDITOR"), false}
	}
	v.setProfileTree(parsed.(*jsonv.Object), "$EDITOR", false) //i18n:raw the edit's label: the editor's name
	return nil, statusIntent{i18n.T("profile %s replaced from $EDITOR (ctrl+s saves)", msg.key), false}
}

// profileWritten is the status once a profile was written, one whole
// sentence per verb ("saved project:x").
func profileWritten(verb, key string) string {
	switch verb {
	case "saved":
		return i18n.T("saved %s", key)
	case "created":
		return i18n.T("created %s", key)
	case "forked":
		return i18n.T("forked %s", key)
	}
	return verb + " " + key
}

// profileRefused says why a new or forked profile was not written.
func profileRefused(verb, key, why string) string {
	switch verb {
	case "created":
		return i18n.T("created %s refused: %s", key, why)
	case "forked":
		return i18n.T("forked %s refused: %s", key, why)
	}
	return verb + " " + key + ": " + why

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
