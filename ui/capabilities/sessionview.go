package capabilities

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// collapsedLines is how many lines of frozen text a card shows until it
// is expanded.
const collapsedLines = 2

// sessionLines lays out the session view at the selected entry: the
// session and entry, the Preset in force, delivery and presentation,
// effective tools, then one card per active snapshot. It returns the lines
// and, per card, the line it starts at (for keeping the cursor in view).
func sessionLines(v *sessionView, st *themes.Styles, width int) ([]string, []int) {
	if v.err != "" {
		return wrap(st.Text.Danger.Render(sanitize.Fold(v.err)), width), nil
	}
	s := v.state
	if s == nil {
		return []string{st.Pane.Placeholder.Render(v.placeholder())}, nil
	}
	label := func(l, val string) string {
		return st.Text.Muted.Render(padRight(l, 12)) + val
	}
	entry := s.ID
	if v.entryID == "" || v.atLeaf {
		entry += " (leaf)"
	}
	lines := []string{
		label("session", sanitize.Fold(v.name)+st.Text.Muted.Render(" · "+filepath.Base(v.file))),
		label("entry", sanitize.Fold(entry)),
	}
	if v.foreign != "" {
		lines = append(lines, wrap(st.Text.Warning.Render("! a session of another project ("+sanitize.Fold(v.foreign)+"): its state is shown with this project's library, and actions are refused"), width)...)
	}
	for _, note := range strings.Split(capstate.AbandonedNote(v.abandoned), "\n") {
		if note != "" {
			lines = append(lines, wrap(st.Text.Warning.Render("! "+sanitize.Fold(strings.TrimPrefix(note, "forgebench: "))), width)...)
		}
	}
	preset := "none recorded (auto-activation applies)"
	if s.StoredPreset != nil {
		preset = *s.StoredPreset
	}
	if s.Preset != nil && (s.StoredPreset == nil || *s.StoredPreset != s.Preset.Key.String()) {
		preset += " → in force: " + s.Preset.Key.String()
	}
	lines = append(lines, label("preset", sanitize.Fold(preset)))
	if s.PresetProblem != "" {
		lines = append(lines, st.Text.Warning.Render("  "+sanitize.Fold(s.PresetProblem)))
	}
	if s.Err != nil {
		lines = append(lines, "")
		where := ""
		if s.ErrEntryID != "" {
			where = " (entry " + s.ErrEntryID + ")"
		}
		return append(lines, wrap(st.Text.Danger.Render(sanitize.Fold(s.Err.Message+where)), width)...), nil
	}
	model := "no model selected"
	if s.Model.Known {
		model = s.Model.Provider + "/" + s.Model.ID
	}
	lines = append(lines,
		label("delivery", deliveryText(st, s.Delivery)+st.Text.Muted.Render(fmt.Sprintf("  · %d pending", len(s.Pending)))),
		label("presents", presentationText(s.Presentation)+st.Text.Muted.Render(" · "+sanitize.Fold(model))))
	tools := "(unknown: the session records no tool selection)"
	if s.EffectiveTools != nil {
		tools = strings.Join(s.EffectiveTools, ", ")
		if tools == "" {
			tools = "(none)"
		}
	}
	lines = append(lines, wrapLabel(st, "tools", sanitize.Fold(tools), width)...)
	if s.Problem != "" {
		lines = append(lines, wrap(st.Text.Warning.Render("problem: "+sanitize.Fold(s.Problem)), width)...)
	}
	active := s.Active()
	lines = append(lines, st.Text.Muted.Render(ruleWith(fmt.Sprintf(" %d active ", len(active)), width)))
	if len(active) == 0 {
		what := "no active capability"
		if s.History == nil || len(s.History.Events) == 0 {
			what = "no capability history on this branch (another session: Session panel, 3)"
		}
		lines = append(lines, wrap(st.Pane.Placeholder.Render(what+" — a enables the selected one, + adds a directive"), width)...)
		return lines, nil
	}
	starts := make([]int, len(active))
	for i, a := range active {
		starts[i] = len(lines)
		expanded := v.expanded[a.Snapshot.ActivationID]
		lines = append(lines, cardLines(a, st, width, i == v.cursor, v.focused, v.body(a, st, width, expanded))...)
	}
	return lines, starts
}

// bodyCacheMax bounds the wrapped-text cache; it is cleared when full.
const bodyCacheMax = 256

// bodyKey names a card's wrapped frozen text. A snapshot never changes,
// so its activation id and fingerprint, the width, the theme and whether
// the card is expanded decide the lines.
type bodyKey struct {
	activationID, fingerprint string
	width                     int
	theme                     string
	expanded                  bool
}

// body is a card's frozen text as screen lines, wrapped once per key:
// wrapping 100,000 characters on every frame would cost a keypress tens
// of milliseconds per card.
func (v *sessionView) body(a capability.Active, st *themes.Styles, width int, expanded bool) []string {
	k := bodyKey{activationID: a.Snapshot.ActivationID, fingerprint: a.Snapshot.Fingerprint, width: width, theme: common.ThemeKey(st), expanded: expanded}
	if lines, ok := v.bodies[k]; ok {
		return lines
	}
	lines := bodyLines(a.Snapshot.Content, st, width, expanded)
	if v.bodies == nil || len(v.bodies) >= bodyCacheMax {
		v.bodies = map[bodyKey][]string{}
	}
	v.bodies[k] = lines
	return lines
}

// bodyLines wraps frozen text for a card: collapsed to a few lines with a
// count of the rest, or whole.
func bodyLines(text string, st *themes.Styles, width int, expanded bool) []string {
	content := sanitize.Text(text)
	if strings.TrimSpace(content) == "" {
		return []string{st.Pane.Placeholder.Render("  (tool-only: no text is sent)")}
	}
	body := strings.Split(ansi.Wordwrap(content, max(10, width-4), ""), "\n")
	if !expanded && len(body) > collapsedLines {
		hidden := len(body) - collapsedLines
		body = append(body[:collapsedLines:collapsedLines], st.Text.Muted.Render(fmt.Sprintf("… %d more lines (space expands)", hidden)))
	}
	out := make([]string, len(body))
	for i, l := range body {
		out[i] = "    " + l
	}
	return out
}

// cardLines draws one active snapshot above its wrapped text.
func cardLines(a capability.Active, st *themes.Styles, width int, selected, focused bool, body []string) []string {
	s := a.Snapshot
	marker := "  "
	head := st.Text.Strong
	if selected {
		marker = "▸ "
		if focused {
			head = st.List.Selected
		} else {
			head = st.List.SelectedBlurred
		}
	}
	src := s.SourceLabel()
	if b := s.BindingID(); b != "" {
		src += " via " + b
	}
	title := head.Render(ansi.Truncate(marker+sanitize.Fold(s.ActivationID+" · "+src+" · "+string(a.Actor)), width, "…"))
	out := []string{title}
	name := ""
	if s.Name != nil {
		name = sanitize.Fold(*s.Name) + " · "
	}
	out = append(out, st.Text.Muted.Render(ansi.Truncate("  "+name+s.Fingerprint, width, "…")))
	out = append(out, "  "+toolDeltaText(st, s.Tools))
	return append(out, body...)
}

// toolDeltaText is "+a +b  -c" with the add/remove colours.
func toolDeltaText(st *themes.Styles, p capability.ToolPatch) string {
	var parts []string
	for _, t := range p.Add {
		parts = append(parts, st.Diff.Add.Render("+"+sanitize.Fold(t)))
	}
	for _, t := range p.Remove {
		parts = append(parts, st.Diff.Del.Render("-"+sanitize.Fold(t)))
	}
	if len(parts) == 0 {
		return st.Text.Muted.Render("no tool changes")
	}
	return strings.Join(parts, " ")
}

func deliveryText(st *themes.Styles, d capability.Delivery) string {
	switch d {
	case capability.DeliveryPrepared:
		return st.Text.Success.Render("prepared") + st.Text.Muted.Render(" (request assembled; not delivery)")
	case capability.DeliveryPending:
		return st.Text.Warning.Render("pending next request")
	}
	return st.Text.Muted.Render("none")
}

func presentationText(p capability.Presentation) string {
	if p == capability.PresentationNative {
		return "native system sections"
	}
	return "fallback user updates"
}

func wrap(text string, width int) []string {
	return strings.Split(ansi.Wrap(text, max(10, width), " "), "\n")
}

// wrapLabel wraps a labelled value, indenting continuation lines.
func wrapLabel(st *themes.Styles, l, val string, width int) []string {
	body := strings.Split(ansi.Wrap(val, max(10, width-12), " ,"), "\n")
	out := []string{st.Text.Muted.Render(padRight(l, 12)) + body[0]}
	for _, b := range body[1:] {
		out = append(out, strings.Repeat(" ", 12)+b)
	}
	return out
}

func ruleWith(title string, width int) string {
	left := 2
	return strings.Repeat("─", left) + title + strings.Repeat("─", max(0, width-left-ansi.StringWidth(title)))
}

// sessionView is the session half of the panel: which session and entry
// it follows and what was computed there.
type sessionView struct {
	file, name, entryID string
	// atLeaf: the selection is the session's current leaf
	// (Selection.AtLeaf), so the state is computed at whatever the leaf is
	// when the file is read (after this panel's own append too).
	atLeaf bool
	// foreign is the session's project when it is not the workbench's
	// (actions are refused); abandoned are forgebench's writes off the
	// session's active branch (capstate.AbandonedWrites).
	foreign   string
	abandoned []capstate.AbandonedWrite
	state     *capstate.State
	declared  []string
	err       string
	loading   bool
	cursor    int
	offset    int
	focused   bool
	expanded  map[string]bool
	// starts, lineCount and height are the last frame's card starts, line
	// count and inner height (the mouse reads them).
	starts            []int
	lineCount, height int
	// bodies caches the cards' wrapped frozen text (body).
	bodies map[bodyKey][]string
}

// at is the entry the state is computed at: "" (the leaf) while the
// selection follows the leaf, else the selected entry.
func (v *sessionView) at() string {
	if v.atLeaf {
		return ""
	}
	return v.entryID
}

func (v *sessionView) placeholder() string {
	switch {
	case v.loading:
		return "reading the session…"
	case v.file == "":
		return "no session selected — pick one in the Session panel (3)"
	}
	return "no capability state yet"
}

// selectedActive is the card under the cursor.
func (v *sessionView) selectedActive() (capability.Active, bool) {
	if v.state == nil {
		return capability.Active{}, false
	}
	active := v.state.Active()
	if v.cursor < 0 || v.cursor >= len(active) {
		return capability.Active{}, false
	}
	return active[v.cursor], true
}
