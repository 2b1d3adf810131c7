package capabilities

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/themes"
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

// opTitle names an operation for the preview's title.
func opTitle(op capstate.Operation) string {
	switch op.Kind {
	case capstate.OpEnable:
		return "Enable " + op.Arg
	case capstate.OpEnableBound:
		return "Enable binding " + op.Arg
	case capstate.OpDisable:
		return "Disable " + op.Arg
	case capstate.OpReset:
		return "Reset every capability"
	case capstate.OpAdd:
		return "Add a manual directive"
	case capstate.OpUsePreset:
		return "Use Preset " + op.Arg
	}
	return string(op.Kind)
}

// previewBody lays out what the action would do: pi-forge's message,
// problems, the new fingerprint, the tool diff, the entries and the full
// text concerned.
func previewBody(p *preview, st *themes.Styles, width int) []string {
	var lines []string
	// Wrap at words, and break what is longer than a line (a fingerprint,
	// an id), so nothing is cut.
	add := func(style func(...string) string, text string) {
		for _, l := range strings.Split(ansi.Wrap(sanitize.Text(text), max(10, width), ""), "\n") {
			lines = append(lines, style(l))
		}
	}
	for _, pr := range p.problems {
		add(st.Text.Danger.Render, "✗ "+pr)
	}
	for _, w := range p.warnings {
		add(st.Text.Warning.Render, "! "+w)
	}
	plan := p.plan
	if plan == nil {
		return lines
	}
	if plan.Refusal != nil {
		return lines
	}
	add(st.Text.Normal.Render, plan.Result.Message)
	if p.step > 0 {
		n := len(plan.Before.Active())
		lines = append(lines, "")
		add(st.Text.Warning.Render, fmt.Sprintf("Really stop all %d active capabilities? Historical messages and completed work are not undone.", n))
		return lines
	}
	if !plan.Changes() {
		add(st.Text.Muted.Render, "Nothing to write.")
		return lines
	}
	var stopped []string
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
			add(st.Text.Muted.Render, "fingerprint "+ev.Snapshot.Fingerprint)
		case capability.OpDeactivate:
			stopped = append(stopped, ev.ActivationID)
		}
	}
	lines = append(lines, strings.Split(ansi.Wrap(toolDiffLine(st, plan.Before.EffectiveTools, plan.After.EffectiveTools), max(10, width), " ,"), "\n")...)
	add(st.Text.Muted.Render, entriesSummary(plan.Planned))
	text := actionText(plan, stopped)
	if text != "" {
		lines = append(lines, st.Text.Muted.Render(strings.Repeat("─", max(0, width))))
		add(st.Text.Normal.Render, text)
	}
	return lines
}

// toolDiffLine compares the effective tools before and after.
func toolDiffLine(st *themes.Styles, before, after []string) string {
	if before == nil || after == nil {
		return st.Text.Muted.Render("tools: unknown (the session records no tool selection)")
	}
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
			parts = append(parts, st.Diff.Add.Render("+"+n))
		}
	}
	for _, n := range before {
		if !in(after, n) {
			parts = append(parts, st.Diff.Del.Render("-"+n))
		}
	}
	if len(parts) == 0 {
		return st.Text.Muted.Render("tools: unchanged (" + strings.Join(after, ", ") + ")")
	}
	return st.Text.Muted.Render("tools: ") + strings.Join(parts, " ")
}

// entriesSummary says what would be appended.
func entriesSummary(planned []capability.PlannedEntry) string {
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
	return fmt.Sprintf("appends %d entries: %s", len(planned), strings.Join(parts, ", "))
}

// actionText is the full text the action concerns: the new snapshot's
// content, or the content of what it stops.
func actionText(plan *capstate.Plan, stopped []string) string {
	for _, e := range plan.Planned {
		if e.CustomType == capability.EventEntryType {
			if ev, msg := capability.DecodeEvent(e.Data); msg == "" && ev.Op == capability.OpActivate {
				if strings.TrimSpace(ev.Snapshot.Content) == "" {
					return "(tool-only capability: no text is sent)"
				}
				return ev.Snapshot.Content
			}
		}
	}
	var parts []string
	for _, a := range plan.Before.Active() {
		stop := plan.Op.Kind == capstate.OpReset
		for _, id := range stopped {
			stop = stop || id == a.Snapshot.ActivationID
		}
		if stop {
			parts = append(parts, "stops "+a.Snapshot.ActivationID+" ("+a.Snapshot.SourceLabel()+"):\n"+a.Snapshot.Content)
		}
	}
	return strings.Join(parts, "\n\n")
}

// dryRunLines renders the planned entries as JSON lines (for copying).
func dryRunLines(planned []capability.PlannedEntry) string {
	var b strings.Builder
	for _, e := range planned {
		b.WriteString(`{"type":"custom","customType":` + jsonv.Quote(e.CustomType) + `,"data":` + jsonv.Stringify(e.Data) + "}\n")
	}
	return b.String()
}
