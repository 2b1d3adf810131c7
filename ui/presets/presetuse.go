package presets

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/capstate"
)

// + in the Preset list activates the Preset under the cursor in the
// selected session, as /preset use (and the CLI's preset use) does: the
// selection entry and the capability sync that retires the old Preset's
// bound activations, planned by capstate and shown with the prompt-cache
// notice before anything is written.

// usePresetIntent asks to activate p in the selected session.
type usePresetIntent struct{ p *resources.Preset }

func (usePresetIntent) isIntent() {}

// planPresetUse plans /preset use of p at the selected session's leaf.
func (m *Model) planPresetUse(p *resources.Preset) tea.Cmd {
	sel := m.com.Selection
	if sel.SessionFile == "" {
		m.setStatus(i18n.T(needSession), true)

		return nil
	}
	m.setStatus(i18n.T("checking Preset %s…", p.Key()), false)
	svc, last, selector := m.com.Services(), m.lastWrite, p.Key()
	return func() tea.Msg {
		now := time.Now()
		w := &sessionWrite{title: i18n.T("Use Preset %s in the session?", selector), what: "Preset " + selector, file: sel.SessionFile, session: sessionTitle(sel)} //i18n:raw what is never shown (a test's name for the change)
		t, err := openWriteTarget(svc, sel.SessionFile, sel.EntryID, last, now)
		if err != nil {
			return sessionPlannedMsg{err: err}
		}
		w.project, w.errors = t.ws.Cwd, t.blocked
		capIn, err := svc.CapabilityInputs()
		if err != nil {
			return sessionPlannedMsg{err: err}
		}
		plan, err := capstate.PlanAt(t.s, capIn, capstate.Operation{Kind: capstate.OpUsePreset, Arg: selector}, capstate.DefaultOptions(func() time.Time { return now }))
		switch {
		case err != nil:
			w.errors = append(w.errors, err.Error())
		case plan.Refusal != nil:
			w.errors = append(w.errors, presetRefusal(plan.Refusal, t.ws, p)...)
		case !plan.Changes():
			w.nothing = plan.Result.Message + " " + i18n.T("(already active: nothing to append)")
		default:
			w.guard, w.entries, w.done = plan.Guard, plan.Entries(), plan.Result.Message
			if plan.Result.Warning != "" {
				w.warnings = append(w.warnings, "pi-forge: "+plan.Result.Warning)
			}
			// pi-forge 0.5.4's prompt-cache notice, in its words, as
			// /preset use and the CLI's preset use show it.
			if n := capstate.CacheNotice(t.s, plan, capIn); n != "" {
				w.notes = append(w.notes, "pi-forge: "+n)
			}
		}
		return sessionPlannedMsg{w: w}
	}
}

// presetRefusal says why pi-forge refuses to activate p, as the CLI's
// preset use does: untrusted with the project named, a Preset with errors
// with its errors listed, else pi-forge's notice.
func presetRefusal(r *capability.Refusal, ws resources.Workspace, p *resources.Preset) []string {
	switch r.Kind {
	case capability.RefusedUntrusted:
		return []string{r.Notice() + " " + i18n.T("(the session's project %s: %s)", ws.Cwd, ws.Trust.Source)}
	case capability.RefusedInvalid:
		out := []string{i18n.T("%s has errors and cannot be activated:", r.Subject)}
		for _, d := range p.Diagnostics {
			if d.Level == preset.LevelError {
				out = append(out, string(d.Level)+": "+d.Message)
			}
		}
		return out
	}
	return []string{r.Notice()}
}
