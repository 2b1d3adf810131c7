package capabilities

import (
	"strings"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/capstate"
)

// What a preview says before confirming and what the status line says
// after it (issue 21: dialogs tell the future, results tell the past).
// pi-forge's own messages (capability.Result.Message, a refusal) are its
// contract and are quoted as pi-forge's where they are shown; the
// workbench speaks for itself everywhere else.

// piForgeSays quotes a message of pi-forge's, exact, as pi-forge's.
func piForgeSays(msg string) string { return "pi-forge: “" + msg + "”" } //i18n:raw pi-forge names who says it; the quoted message is its contract

// planFacts is what a plan's events do: the snapshot it activates and
// the activations it stops (as they were active before).
type planFacts struct {
	activated *capability.Snapshot
	stopped   []capability.Snapshot
}

// factsOf reads a plan's planned events.
func factsOf(plan *capstate.Plan) planFacts {
	var f planFacts
	stops := map[string]bool{}
	for _, e := range plan.Planned {
		if e.CustomType != capability.EventEntryType {
			continue
		}
		ev, msg := capability.DecodeEvent(e.Data)
		if msg != "" {
			continue
		}
		switch ev.Op {
		case capability.OpActivate:
			f.activated = ev.Snapshot
		case capability.OpDeactivate:
			stops[ev.ActivationID] = true
		}
	}
	if plan.Before != nil {
		for _, a := range plan.Before.Active() {
			if plan.Op.Kind == capstate.OpReset || stops[a.Snapshot.ActivationID] {
				f.stopped = append(f.stopped, a.Snapshot)
			}
		}
	}
	return f
}

// snapshotName names a snapshot as the user chose it: its capability key
// (with the binding it came through), or "a manual directive".
func snapshotName(s *capability.Snapshot) string {
	switch {
	case s == nil:
		return i18n.T("a capability")
	case s.Source.Kind == capability.SourceManual:
		return i18n.T("a manual directive")
	case s.BindingID() != "":
		return i18n.T("%s (binding %s)", s.SourceLabel(), s.BindingID())
	}
	return s.SourceLabel()
}

// toolsChange says how the effective tools change: "tools +bash -edit",
// "tools unchanged", or that the session records no tool selection.
func toolsChange(plan *capstate.Plan) string {
	if plan.Before == nil || plan.After == nil || plan.Before.EffectiveTools == nil || plan.After.EffectiveTools == nil {
		return i18n.T("tools unknown (the session records no tool selection)")
	}
	before, after := plan.Before.EffectiveTools, plan.After.EffectiveTools
	in := func(list []string, n string) bool {
		for _, x := range list {
			if x == n {
				return true
			}
		}
		return false
	}
	var parts []string
	for _, n := range after {
		if !in(before, n) {
			parts = append(parts, "+"+n)
		}
	}
	for _, n := range before {
		if !in(after, n) {
			parts = append(parts, "-"+n)
		}
	}
	if len(parts) == 0 {
		return i18n.T("tools unchanged")
	}
	return i18n.T("tools %s", strings.Join(parts, " "))
}

// toolOnly reports whether a snapshot sends no instruction text.
func toolOnly(s *capability.Snapshot) bool {
	return s != nil && strings.TrimSpace(s.Content) == ""
}

// previewTitle is the question a preview asks: opTitle, naming what a
// disable stops by its source rather than its activation id.
func previewTitle(op capstate.Operation, plan *capstate.Plan) string {
	if plan != nil && op.Kind == capstate.OpDisable {
		if f := factsOf(plan); len(f.stopped) > 0 {
			return i18n.T("Disable %s?", stoppedNames(f.stopped))
		}
	}
	return opTitle(op)
}

// willText is a preview's first sentence: what confirming will do.
func willText(plan *capstate.Plan) string {
	f := factsOf(plan)
	tools := toolsChange(plan)
	switch plan.Op.Kind {
	case capstate.OpEnable, capstate.OpEnableBound, capstate.OpAdd:
		name, add := snapshotName(f.activated), plan.Op.Kind == capstate.OpAdd
		switch {
		case add && toolOnly(f.activated):
			return i18n.T("Add %s: %s; it is tool-only, so no instruction text is sent.", name, tools)
		case add:
			return i18n.T("Add %s: %s; its instruction reaches the model with the next request.", name, tools)
		case toolOnly(f.activated):
			return i18n.T("Enable %s: %s; it is tool-only, so no instruction text is sent.", name, tools)
		}
		return i18n.T("Enable %s: %s; its instruction reaches the model with the next request.", name, tools)
	case capstate.OpDisable:
		return i18n.T("Disable %s: %s; a stop notice reaches the model with the next request.", stoppedNames(f.stopped), tools)
	case capstate.OpReset:
		return i18n.T("Stop all %d active capabilities: %s; a stop notice reaches the model with the next request. Messages already sent and work already done stay as they are.",
			len(f.stopped), tools)
	}
	return opTitle(plan.Op) + ": " + tools + "."
}

// didText is the status line after a plan was appended: what happened.
func didText(plan *capstate.Plan) string {
	f := factsOf(plan)
	tools := toolsChange(plan)
	switch plan.Op.Kind {
	case capstate.OpEnable, capstate.OpEnableBound, capstate.OpAdd:
		name, add := snapshotName(f.activated), plan.Op.Kind == capstate.OpAdd
		if f.activated == nil {
			if add {
				return i18n.T("Added %s: %s; its instruction goes with the next request", name, tools)
			}
			return i18n.T("Enabled %s: %s; its instruction goes with the next request", name, tools)
		}
		id := f.activated.ActivationID
		switch {
		case add && toolOnly(f.activated):
			return i18n.T("Added %s: %s; tool-only, no instruction is sent (activation %s)", name, tools, id)
		case add:
			return i18n.T("Added %s: %s; its instruction goes with the next request (activation %s)", name, tools, id)
		case toolOnly(f.activated):
			return i18n.T("Enabled %s: %s; tool-only, no instruction is sent (activation %s)", name, tools, id)
		}
		return i18n.T("Enabled %s: %s; its instruction goes with the next request (activation %s)", name, tools, id)
	case capstate.OpDisable:
		return i18n.T("Disabled %s: %s; the stop notice goes with the next request", stoppedNames(f.stopped), tools)
	case capstate.OpReset:
		return i18n.T("Stopped all %d capabilities: %s; the stop notice goes with the next request", len(f.stopped), tools)
	}
	return i18n.T("Done: %s (%s)", opTitle(plan.Op), tools)
}

// stoppedNames names the activations a plan stops.
func stoppedNames(stopped []capability.Snapshot) string {
	if len(stopped) == 0 {
		return i18n.T("nothing")
	}
	names := make([]string, len(stopped))
	for i := range stopped {
		names[i] = snapshotName(&stopped[i])
	}
	return strings.Join(names, ", ")
}

// adviceLine is one line of advice; copy marks what a user copies (an
// id, a command), drawn in the normal colour.
type adviceLine struct {
	text string
	copy bool
}

// stopAdvice is how to stop an activation later, with the workbench's
// own key and command (pi-forge's message names only Pi's
// /capability disable): the id on a line of its own, and the command
// split over lines a shell takes as one (each short enough for an
// 80-column dialog), so nothing a user copies is cut or broken.
func stopAdvice(activationID, sessionID, disableKey string) []adviceLine {
	return []adviceLine{
		{i18n.T("Its activation id:"), false},
		{activationID, true},
		{i18n.T("To stop it later, press %s on its card in the Session pane here, or run in the project:", disableKey), false},
		{"forgebench capability disable \\", true}, //i18n:raw a command line the user runs
		{"  " + activationID + " \\", true},
		{"  --session " + sessionID, true},
	}
}
