package presets

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// The Profiles view's session keys: use the profile under the cursor in
// the selected session (+), forget the session's last applied profile
// (-), and save the selected entry's runtime as a new profile (c). Each
// plans with the CLI's planner (services) in a command and shows the
// result before anything is written.

type (
	// useProfileIntent asks to apply p to the selected session.
	useProfileIntent struct{ p *resources.Profile }
	// forgetProfileIntent asks to forget the selected session's last
	// applied profile.
	forgetProfileIntent struct{}
	// captureProfileIntent asks for a new profile from the selected entry.
	captureProfileIntent struct{}
)

func (useProfileIntent) isIntent()     {}
func (forgetProfileIntent) isIntent()  {}
func (captureProfileIntent) isIntent() {}

// planProfileUse plans /profile use of p at the selected session's leaf.
func (m *Model) planProfileUse(p *resources.Profile) tea.Cmd {
	sel := m.com.Selection
	if sel.SessionFile == "" {
		m.setStatus(i18n.T(needSession), true)
		return nil
	}
	m.setStatus(i18n.T("checking profile %s (pi-forge's preflight)…", p.Key()), false)
	svc, last, selector := m.com.Services(), m.lastWrite, p.Key()
	return func() tea.Msg {
		now := time.Now()
		w := &sessionWrite{title: i18n.T("Apply profile %s?", selector), what: "profile " + selector, file: sel.SessionFile, session: sessionTitle(sel)} //i18n:raw what is never shown (a test's name for the change)
		t, err := openWriteTarget(svc, sel.SessionFile, sel.EntryID, last, now)
		if err != nil {
			return sessionPlannedMsg{err: err}
		}
		w.project, w.errors = t.ws.Cwd, t.blocked
		if !t.ws.Trust.Trusted {
			w.errors = append(w.errors, "pi-forge: project is not trusted; refusing to apply an agent profile. "+ //i18n:raw pi-forge's own words
				i18n.T("(the session's project %s: %s)", t.ws.Cwd, t.ws.Trust.Source))
			return sessionPlannedMsg{w: w}
		}
		lib, err := svc.Library()
		if err != nil {
			return sessionPlannedMsg{err: err}
		}
		// the profile as the library holds it now
		cur, _ := lib.ResolveProfile(selector)
		if cur == nil {
			return sessionPlannedMsg{err: fmt.Errorf("Unknown agent profile: %s", selector)} //i18n:raw pi-forge's own words
		}
		cat, _ := svc.Catalog()
		capIn, err := svc.CapabilityInputs()
		if err != nil {
			return sessionPlannedMsg{err: err}
		}
		u, err := services.PlanProfileUse(lib, cat, capIn, t.ws, t.s, cur, selector, now)
		if err != nil {
			return sessionPlannedMsg{err: err}
		}
		if u.Failure != "" {
			w.errors = append(w.errors, u.Failure)
			return sessionPlannedMsg{w: w}
		}
		for _, d := range u.Resolved.Diagnostics {
			w.warnings = append(w.warnings, string(d.Level)+": "+d.Message)
		}
		if u.Warning != "" {
			w.notes = append(w.notes, "pi-forge: "+u.Warning)
		}
		// pi-forge 0.5.4's prompt-cache notice when the profile switches
		// the Preset, in its words, as /profile use and the CLI's profile
		// use show it.
		if u.CacheWarning != "" {
			w.notes = append(w.notes, "pi-forge: "+u.CacheWarning)
		}
		w.guard, w.entries, w.done = u.Guard, u.Entries, u.Message
		return sessionPlannedMsg{w: w}
	}
}

// planProfileForget plans /profile forget at the selected session's leaf.
func (m *Model) planProfileForget() tea.Cmd {
	sel := m.com.Selection
	if sel.SessionFile == "" {
		m.setStatus(i18n.T(needSession), true)
		return nil
	}
	svc, last := m.com.Services(), m.lastWrite
	return func() tea.Msg {
		w := &sessionWrite{title: i18n.T("Forget the last applied profile?"), what: "forget", file: sel.SessionFile, session: sessionTitle(sel),
			nothing: services.ForgetNothing, done: services.ForgetDone}
		t, err := openWriteTarget(svc, sel.SessionFile, sel.EntryID, last, time.Now())
		if err != nil {
			return sessionPlannedMsg{err: err}
		}
		w.project, w.errors = t.ws.Cwd, t.blocked
		if !t.ws.Trust.Trusted {
			w.errors = append(w.errors, untrustedAppend(t.ws))
		}
		w.entries, w.guard = services.PlanProfileForget(t.s), session.GuardOf(t.s)
		if len(w.entries) > 0 {
			w.notes = append(w.notes, i18n.T("The model, thinking level and Preset will stay as they are."))
		} else if len(w.errors) > 0 {
			w.errors = append(w.errors, services.ForgetNothing)
		}
		return sessionPlannedMsg{w: w}
	}
}

// captured is a profile captured from an entry, waiting for the user's
// confirmation.
type capturedMsg struct {
	p       *profile.Profile
	scope   preset.Scope
	target  string
	entry   string
	failure string
	err     error
}

// promptCaptureProfile asks for the id and scope of a profile captured
// from the selected entry.
func (m *Model) promptCaptureProfile() tea.Cmd {
	sel := m.com.Selection
	if sel.SessionFile == "" {
		m.setStatus(i18n.T(needSession), true)
		return nil
	}
	return m.scopedPrompt(i18n.T("New profile from entry %s", sel.EntryID), i18n.T("enter captures the model, thinking level and active Preset at the selected entry as a profile under this id; what will be written shows before it is."), "my-profile", m.defaultScope(),
		func(m *Model, id string, scope preset.Scope) tea.Cmd {
			return captureCmd(m.com.Services(), sel, id, scope)
		})
}

// captureCmd captures the selected entry's runtime as profile id in
// scope, as the CLI's profile save does (nothing is written yet).
func captureCmd(svc *services.Services, sel common.Selection, id string, scope preset.Scope) tea.Cmd {
	return func() tea.Msg {
		ws := svc.Workspace()
		msg := capturedMsg{scope: scope, entry: sel.EntryID, target: resources.TargetPath(ws, resources.KindProfile, scope, id)}
		if rel, err := filepath.Rel(ws.Cwd, msg.target); err == nil && !strings.HasPrefix(rel, "..") {
			msg.target = rel // in the project: the path from its directory
		}
		if !ws.Trust.Trusted {
			msg.failure = "pi-forge: project is not trusted; refusing to write an agent profile. " + //i18n:raw pi-forge's own words
				i18n.T("(the session's project %s: %s)", ws.Cwd, ws.Trust.Source)
			return msg
		}
		s, index, err := openAt(sel.SessionFile, sel.EntryID)
		if err != nil {
			msg.err = err
			return msg
		}
		if project := s.Project(ws.Cwd); !session.SameProject(project, ws.Cwd) {
			msg.failure = i18n.T("this session belongs to project %s, not to the workbench's project %s: a profile is saved in the session's own project. Open forgebench there (forgebench --cwd %s).", project, ws.Cwd, project)
			return msg
		}
		capIn, err := svc.CapabilityInputs()
		if err != nil {
			msg.err = err
			return msg
		}
		msg.p, _, msg.failure, msg.err = services.CaptureProfile(s, index, capIn, id, scope, nil)
		return msg
	}
}

// confirmCaptured shows the captured profile and where it will be
// written; confirming creates the file (never over an existing one).
func (m *Model) confirmCaptured(msg capturedMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		m.setStatus(msg.err.Error(), true)
		return nil
	case msg.failure != "":
		m.openDialog(newNotice(m, i18n.T("Cannot save the profile"), sanitize.Text(msg.failure)))
		return nil
	}
	p := msg.p
	key := string(msg.scope) + ":" + p.ID
	stack := i18n.T("none (promptStack null: no Preset was active)")
	if p.PromptStack != nil {
		stack = *p.PromptStack
	}
	body := i18n.T("Profile %s will be written to\n%s\nfrom entry %s:\nmodel: %s\nthinking level: %s\npreset: %s\nIt will not be applied or marked active.\n\n%s writes it; %s writes nothing.",
		key, msg.target, msg.entry, p.Model.String(), p.ThinkingLevel, stack, m.keys.Confirm.Help().Key, m.keys.Cancel.Help().Key)
	m.openDialog(newConfirm(m, i18n.T("Save profile %s?", key), sanitize.Text(body), func(m *Model, _ string) tea.Cmd {
		ws, scope := m.com.Workspace, msg.scope
		return func() tea.Msg {
			res, err := resources.CreateProfile(ws, scope, p)
			return profileSavedMsg{verb: "created", key: key, res: res, err: err,
				done: "pi-forge: saved current runtime as profile " + p.ID + "; the profile was not applied or marked active."} //i18n:raw pi-forge's own words
		}
	}))
	return nil
}

// sessionTitle names the selected session as the header does.
func sessionTitle(sel common.Selection) string {
	if sel.SessionName != "" {
		return "“" + sel.SessionName + "”"
	}
	return sel.SessionFile
}
