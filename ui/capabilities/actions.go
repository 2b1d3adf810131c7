package capabilities

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// preview is an action waiting for confirmation: its plan and why it may
// not be written.
type preview struct {
	op   capstate.Operation
	plan *capstate.Plan
	// problems stop the write (a refusal, a live file, an entry that is
	// not the leaf); warnings do not.
	problems []string
	warnings []string
	// step counts confirmations: reset asks twice.
	step int
	// sessionID is the id of the session the plan appends to (the CLI
	// advice names it).
	sessionID string
}

// fingerprint is the fingerprint of the snapshot the action activates
// ("" when it activates none).
func (p *preview) fingerprint() string {
	if p.plan == nil {
		return ""
	}
	for _, e := range p.plan.Planned {
		if e.CustomType != capability.EventEntryType {
			continue
		}
		if ev, msg := capability.DecodeEvent(e.Data); msg == "" && ev.Op == capability.OpActivate {
			return ev.Snapshot.Fingerprint
		}
	}
	return ""
}

// canWrite reports whether confirming writes anything.
func (p *preview) canWrite() bool {
	return len(p.problems) == 0 && p.plan != nil && p.plan.Changes()
}

// needsSecondStep is true for reset before its second confirmation.
func (p *preview) needsSecondStep() bool { return p.op.Kind == capstate.OpReset && p.step == 0 }

// opTitle names an operation for the preview's title: the question the
// preview asks.
func opTitle(op capstate.Operation) string {
	switch op.Kind {
	case capstate.OpEnable:
		return i18n.T("Enable %s?", op.Arg)
	case capstate.OpEnableBound:
		return i18n.T("Enable binding %s?", op.Arg)
	case capstate.OpDisable:
		return i18n.T("Disable %s?", op.Arg)
	case capstate.OpReset:
		return i18n.T("Reset every capability?")
	case capstate.OpAdd:
		return i18n.T("Add a manual directive?")
	case capstate.OpUsePreset:
		return i18n.T("Use Preset %s?", op.Arg)
	}
	return string(op.Kind) + "?"
}

// previewBody lays out what confirming will do: problems first, then the
// change in the workbench's words (willText), the entries it appends,
// for an activation its id and how to stop it (the workbench's key and
// command, each id whole on its own line), the fingerprint, and the full
// text concerned. pi-forge's own message shows, quoted as pi-forge's,
// only where nothing will be written (it says why).
func previewBody(p *preview, st *themes.Styles, width int, disableKey string) []string {
	var lines []string
	// The workbench's sentences wrap at spaces only, so an id, a tool
	// patch and a command stay whole where they fit; what is longer than
	// a line (a fingerprint) is split, never cut (common.WrapWhole). The
	// capability's own text wraps at words, its spacing kept.
	say := func(style func(...string) string, text string) {
		for _, l := range common.WrapWhole(sanitize.Text(text), max(10, width)) {
			lines = append(lines, style(l))
		}
	}
	add := func(style func(...string) string, text string) {
		for _, l := range strings.Split(ansi.Wrap(sanitize.Text(text), max(10, width), ""), "\n") {
			lines = append(lines, style(l))
		}
	}
	for _, pr := range p.problems {
		say(st.Text.Danger.Render, "✗ "+pr)
	}
	for _, w := range p.warnings {
		say(st.Text.Warning.Render, "! "+piForgeSays(w))
	}
	plan := p.plan
	if plan == nil || plan.Refusal != nil {
		return lines
	}
	if !plan.Changes() {
		say(st.Text.Muted.Render, i18n.T("Nothing will be written. %s", piForgeSays(plan.Result.Message)))
		return lines
	}
	say(st.Text.Normal.Render, willText(plan))
	if p.step > 0 {
		lines = append(lines, "")
		say(st.Text.Warning.Render, i18n.T("Really stop all %d active capabilities?", len(plan.Before.Active())))
		return lines
	}
	say(st.Text.Muted.Render, i18n.T("Confirming %s.", entriesSummary(plan.Planned, plan.Guard.LeafID)))
	text := actionText(plan)
	if f := factsOf(plan); f.activated != nil {
		lines = append(lines, "")
		for _, l := range stopAdvice(f.activated.ActivationID, p.sessionID, disableKey) {
			style := st.Text.Muted.Render
			if l.copy {
				style = st.Text.Normal.Render
			}
			say(style, l.text)
		}
		lines = append(lines, "")
		say(st.Text.Muted.Render, i18n.T("Fingerprint of its frozen text:"))
		say(st.Text.Normal.Render, f.activated.Fingerprint)
	}
	if after := plan.After.EffectiveTools; after != nil {
		say(st.Text.Muted.Render, i18n.T("Tools the model will have: %s", strings.Join(after, ", ")))
	}
	if text != "" {
		lines = append(lines, st.Text.Muted.Render(strings.Repeat("─", max(0, width))))
		add(st.Text.Normal.Render, text)
	}
	return lines
}

// entriesSummary says what confirming appends, and where.
func entriesSummary(planned []capability.PlannedEntry, leaf string) string {
	counts := map[string]int{}
	var order []string
	for _, e := range planned {
		name := strings.TrimPrefix(e.CustomType, "pi-forge-")
		if counts[name] == 0 {
			order = append(order, name)
		}
		counts[name]++
	}
	parts := make([]string, len(order))
	for i, n := range order {
		parts[i] = fmt.Sprintf("%d× %s", counts[n], n)
	}
	if leaf == "" {
		return i18n.T("appends %d entries to the session: %s", len(planned), strings.Join(parts, ", "))
	}
	return i18n.T("appends %d entries after the leaf %s: %s", len(planned), leaf, strings.Join(parts, ", "))
}

// actionText is the full text the action concerns: the new snapshot's
// content, or the content of what it stops.
func actionText(plan *capstate.Plan) string {
	f := factsOf(plan)
	if f.activated != nil {
		if toolOnly(f.activated) {
			return i18n.T("(tool-only capability: no text is sent)")
		}
		return f.activated.Content
	}
	var parts []string
	for _, s := range f.stopped {
		parts = append(parts, i18n.T("stops %s (%s):", s.ActivationID, s.SourceLabel())+"\n"+s.Content)
	}
	return strings.Join(parts, "\n\n")
}

// dryRunLines renders the planned entries as JSON lines (for copying).
func dryRunLines(planned []capability.PlannedEntry) string {
	var b strings.Builder
	for _, e := range planned {
		b.WriteString(`{"type":"custom","customType":` + jsonv.Quote(e.CustomType) + `,"data":` + jsonv.Stringify(e.Data) + "}\n") //i18n:raw JSON lines of the planned entries
	}
	return b.String()
}
