package capabilities

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
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
		return st.Text.Muted.Render(common.PadRight(l, 12)) + val
	}
	entry := s.ID
	if v.entryID == "" || v.atLeaf {
		entry = i18n.T("%s (leaf)", entry)
	}
	lines := []string{
		label(i18n.T("session"), sanitize.Fold(v.name)+st.Text.Muted.Render(" · "+filepath.Base(v.file))),
		label(i18n.T("entry"), sanitize.Fold(entry)),
	}
	if v.foreign != "" {
		lines = append(lines, wrap(st.Text.Warning.Render("! "+i18n.T("a session of another project (%s): its state is shown with this project's library, and actions are refused", sanitize.Fold(v.foreign))), width)...)
	}
	for _, note := range strings.Split(capstate.AbandonedNote(v.abandoned), "\n") {
		if note != "" {
			lines = append(lines, wrap(st.Text.Warning.Render("! "+sanitize.Fold(strings.TrimPrefix(note, "forgebench: "))), width)...)
		}
	}
	preset := i18n.T("none recorded (auto-activation applies)")
	if s.StoredPreset != nil {
		preset = *s.StoredPreset
	}
	if s.Preset != nil && (s.StoredPreset == nil || *s.StoredPreset != s.Preset.Key.String()) {
		preset = i18n.T("%s → in force: %s", preset, s.Preset.Key.String())
	}
	lines = append(lines, label(i18n.T("preset"), sanitize.Fold(preset)))
	if s.PresetProblem != "" {
		lines = append(lines, st.Text.Warning.Render("  "+sanitize.Fold(s.PresetProblem)))
	}
	if s.Err != nil {
		lines = append(lines, "")
		text := s.Err.Message
		if s.ErrEntryID != "" {
			text = i18n.T("%s (entry %s)", s.Err.Message, s.ErrEntryID)
		}
		return append(lines, wrap(st.Text.Danger.Render(sanitize.Fold(text)), width)...), nil
	}
	model := i18n.T("no model selected")
	if s.Model.Known {
		model = s.Model.Provider + "/" + s.Model.ID
	}
	lines = append(lines,
		label(i18n.T("delivery"), deliveryText(st, s.Delivery)+st.Text.Muted.Render("  · "+i18n.T("%d pending", len(s.Pending)))),
		label(i18n.T("presents"), presentationText(s.Presentation)+st.Text.Muted.Render(" · "+sanitize.Fold(model))))
	tools := i18n.T("(unknown: the session records no tool selection)")
	if s.EffectiveTools != nil {
		tools = strings.Join(s.EffectiveTools, ", ")
		if tools == "" {
			tools = i18n.T("(none)")
		}
	}
	lines = append(lines, wrapLabel(st, i18n.T("tools"), sanitize.Fold(tools), width)...)
	if s.Problem != "" {
		lines = append(lines, wrap(st.Text.Warning.Render(i18n.T("problem: %s", sanitize.Fold(s.Problem))), width)...)
	}
	lines = append(lines, callableLines(st, v.callable, width)...)
	active := s.Active()
	lines = append(lines, st.Text.Muted.Render(ruleWith(" "+i18n.T("%d active", len(active))+" ", width)))
	if len(active) == 0 {
		what := i18n.T("no active capability")
		if s.History == nil || len(s.History.Events) == 0 {
			what = i18n.T("no capability history on this branch (another session: Session panel, 3)")
		}
		lines = append(lines, wrap(st.Pane.Placeholder.Render(i18n.T("%s — a enables the selected one, + adds a directive", what)), width)...)
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

// callableLines say what the agent may enable through forge_capability
// at the entry (pi-forge's list action: the active Preset's bindings
// marked modelCallable, when the project is trusted and the control tool
// usable), one binding a line: its id, the capability and its name.
func callableLines(st *themes.Styles, callable []capability.CallableBinding, width int) []string {
	if len(callable) == 0 {
		return wrapLabel(st, i18n.T("agent may"), st.Text.Muted.Render(i18n.T("enable nothing through %s", capability.ControlTool)), width)
	}
	lines := wrapLabel(st, i18n.T("agent may"), i18n.T("enable through %s:", capability.ControlTool), width)
	for _, c := range callable {
		text := sanitize.Fold(c.BindingID) + " → " + sanitize.Fold(c.Capability)
		if c.Name != "" {
			text += " (" + sanitize.Fold(c.Name) + ")"
		}
		lines = append(lines, wrapLabel(st, "", "  "+text, width)...)
	}
	return lines
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
		return []string{st.Pane.Placeholder.Render("  " + i18n.T("(tool-only: no text is sent)"))}
	}
	body := strings.Split(ansi.Wordwrap(content, max(10, width-4), ""), "\n")
	if !expanded && len(body) > collapsedLines {
		hidden := len(body) - collapsedLines
		body = append(body[:collapsedLines:collapsedLines], st.Text.Muted.Render(i18n.T("… %d more lines (space expands)", hidden)))
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
		src = i18n.T("%s via %s", src, b)
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
		return st.Text.Muted.Render(i18n.T("no tool changes"))
	}
	return strings.Join(parts, " ")
}

func deliveryText(st *themes.Styles, d capability.Delivery) string {
	switch d {
	case capability.DeliveryPrepared:
		return st.Text.Success.Render(i18n.T("prepared")) + st.Text.Muted.Render(i18n.T(" (request assembled; not delivery)"))
	case capability.DeliveryPending:
		return st.Text.Warning.Render(i18n.T("pending next request"))
	}
	return st.Text.Muted.Render(i18n.T("none"))
}

func presentationText(p capability.Presentation) string {
	if p == capability.PresentationNative {
		return i18n.T("native system sections")
	}
	return i18n.T("fallback user updates")
}

func wrap(text string, width int) []string {
	return strings.Split(ansi.Wrap(text, max(10, width), " "), "\n")
}

// wrapLabel wraps a labelled value, indenting continuation lines.
func wrapLabel(st *themes.Styles, l, val string, width int) []string {
	body := strings.Split(ansi.Wrap(val, max(10, width-12), " ,"), "\n")
	out := []string{st.Text.Muted.Render(common.PadRight(l, 12)) + body[0]}
	for _, b := range body[1:] {
		out = append(out, strings.Repeat(" ", 12)+b)
	}
	return out
}

func ruleWith(title string, width int) string {
	left := 2
	return strings.Repeat("─", left) + title + strings.Repeat("─", max(0, width-left-ansi.StringWidth(title)))
}

// sessionView is the session half of the panel as a sub-model: which
// session and entry it follows (the shared selection), the session as
// read (its generation drops an older read's or computation's result),
// what was computed at the entry, and its cards (cards). Its Update moves
// among the cards and folds them; disable and enable ask the panel for
// the action. The panel starts the computation, which needs the library.
type sessionView struct {
	com  *common.Common
	keys *keymap.Capabilities

	file, name, entryID string
	// atLeaf: the selection is the session's current leaf
	// (Selection.AtLeaf), so the state is computed at whatever the leaf is
	// when the file is read (after this panel's own append too).
	atLeaf bool
	// sess is the followed session as read, gen the generation of the
	// last read or computation started.
	sess *session.Session
	gen  int
	// following waits for the selection to rest before the state at its
	// entry is computed (common.Debounce).
	following common.Debounce
	// lastWrite is the stamp this panel's last append left.
	lastWrite common.FileStamp
	// foreign is the session's project when it is not the workbench's
	// (actions are refused); abandoned are forgebench's writes off the
	// session's active branch (capstate.AbandonedWrites).
	foreign   string
	abandoned []capstate.AbandonedWrite
	state     *capstate.State
	declared  []string
	// callable is what the agent may enable at the entry (stateMsg).
	callable []capability.CallableBinding
	err      string
	loading  bool
	cards
}

// cards is the session view's list of active snapshots as laid out: the
// cursor, the scroll, which cards are expanded, and the layout View draws
// (which the mouse reads).
type cards struct {
	cursor   int
	offset   int
	focused  bool
	expanded map[string]bool
	// lines are the view laid out (layout); starts, lineCount and height
	// its card starts, line count and inner height (the mouse reads them).
	lines             []string
	starts            []int
	lineCount, height int
	// bodies caches the cards' wrapped frozen text (body).
	bodies map[bodyKey][]string
}

// newSessionView returns a view that follows no session yet.
func newSessionView(com *common.Common, keys *keymap.Capabilities) sessionView {
	return sessionView{com: com, keys: keys, cards: cards{expanded: map[string]bool{}}}
}

// Update implements part: the moving keys move among the cards, expand
// folds the selected one in or out; disable and enable ask for the
// action (on the card's activation, on the library's capability).
func (v *sessionView) Update(msg tea.Msg) (tea.Cmd, intent) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	keys := v.keys
	n := 0
	if v.state != nil {
		n = len(v.state.Active())
	}
	switch {
	case key.Matches(k, keys.Up):
		v.cursor = max(0, v.cursor-1)
	case key.Matches(k, keys.Down):
		v.cursor = min(max(0, n-1), v.cursor+1)
	case key.Matches(k, keys.Top):
		v.cursor = 0
	case key.Matches(k, keys.Bottom):
		v.cursor = max(0, n-1)
	case key.Matches(k, keys.Expand):
		if a, ok := v.selectedActive(); ok {
			v.expanded[a.Snapshot.ActivationID] = !v.expanded[a.Snapshot.ActivationID]
		}
	case key.Matches(k, keys.Disable):
		if a, ok := v.selectedActive(); ok {
			return nil, actionIntent{capstate.Operation{Kind: capstate.OpDisable, Arg: a.Snapshot.ActivationID}}
		}
	case key.Matches(k, keys.Enable):
		return nil, enableSelectedIntent{}
	case key.Matches(k, keys.Locate):
		return nil, locateIntent{}
	}
	return nil, nil
}

// ShortHelp implements part.
func (v *sessionView) ShortHelp() []key.Binding {
	k := v.keys
	return []key.Binding{k.Disable, k.Expand, v.com.Keys.View, k.EnableBound, k.Add, k.Reset, k.Reload}
}

// CapturesInput implements part: the cards take no text.
func (v *sessionView) CapturesInput() bool { return false }

// follow makes the view track the shared selection: a new file is read
// (the command returned), a new entry is marked loading and waits for the
// selection to rest (common.FollowDelay), so a burst of cursor moves
// computes the state once, where it ends.
func (v *sessionView) follow(sel common.Selection) tea.Cmd {
	if sel.SessionFile == "" {
		return nil
	}
	v.name, v.atLeaf = sel.SessionName, sel.AtLeaf
	if sel.SessionFile != v.file || v.sess == nil {
		v.file, v.entryID, v.state, v.err = sel.SessionFile, sel.EntryID, nil, ""
		v.loading = true
		v.following.Cancel() // the state is computed once the file is read
		v.gen++
		return sessionCmd(sel.SessionFile, v.com.Workspace.Cwd, v.gen)
	}
	if sel.EntryID != v.entryID {
		v.entryID = sel.EntryID
		v.loading = true
		return v.following.Ask(v.com, common.FollowDelay)
	}
	return nil
}

// reopen reads the followed session again.
func (v *sessionView) reopen() tea.Cmd {
	if v.file == "" {
		return nil
	}
	v.sess = nil
	v.loading = true
	v.gen++
	return sessionCmd(v.file, v.com.Workspace.Cwd, v.gen)
}

// compute starts the state computation at the followed entry with lib
// (nil: the session or the library is not loaded yet).
func (v *sessionView) compute(lib *resources.Library) tea.Cmd {
	if v.sess == nil || lib == nil {
		return nil
	}
	v.gen++
	v.loading = true
	return stateCmd(v.sess, v.file, v.at(), lib, v.com.Services(), v.gen)
}

// installSession takes a read session; it reports whether the state is
// to be computed on it (not an older read's, not a failure).
func (v *sessionView) installSession(msg sessionMsg) bool {
	if msg.gen != v.gen || msg.file != v.file {
		return false
	}
	if msg.err != nil {
		v.sess, v.loading, v.err = nil, false, sanitize.Fold(msg.err.Error())
		return false
	}
	v.sess = msg.sess
	v.abandoned, v.foreign = msg.abandoned, msg.foreign
	return true
}

// installState takes the state computed at the entry; it reports whether
// it is new (not an older computation's, not a failure).
func (v *sessionView) installState(msg stateMsg) bool {
	if msg.gen != v.gen || msg.file != v.file {
		return false
	}
	v.loading = false
	if msg.err != nil {
		v.state, v.err = nil, sanitize.Fold(msg.err.Error())
		return false
	}
	v.state, v.err, v.declared, v.callable = msg.st, "", msg.declared, msg.callable
	v.cursor = min(v.cursor, max(0, len(msg.st.Active())-1))
	return true
}

// activeKeys are the library capabilities active at the entry (unbound
// or bound), by key.
func (v *sessionView) activeKeys() map[string]bool {
	active := map[string]bool{}
	if st := v.state; st != nil {
		for _, a := range st.Active() {
			if a.Snapshot.Source.Kind == capability.SourceCapability {
				active[a.Snapshot.Source.Key.String()] = true
			}
		}
	}
	return active
}

// layout lays the view out for the pane r (focused: it has the keys):
// the lines at the entry, the cards' starts, and the scroll that keeps
// the selected card in view, moved the least from where it was. The panel
// calls it after every Update and resize (layoutParts), so View only
// draws; the mouse reads the starts, the line count and the height.
func (v *sessionView) layout(r rect, focused bool) {
	st := v.com.Styles
	v.focused = focused
	lines, starts := sessionLines(v, &st, r.w-4)
	innerH := r.h - 2
	if v.cursor < len(starts) {
		top := starts[v.cursor]
		end := len(lines)
		if v.cursor+1 < len(starts) {
			end = starts[v.cursor+1]
		}
		if top < v.offset {
			v.offset = top
		}
		if end > v.offset+innerH {
			v.offset = min(top, end-innerH)
		}
	}
	v.offset = min(max(0, v.offset), max(0, len(lines)-innerH))
	v.lines, v.starts, v.lineCount, v.height = lines, starts, len(lines), innerH
}

// View implements the part: the lines laid out last (layout) in the pane
// r, from the scroll.
func (v *sessionView) View(r rect, focused bool) string {
	st := v.com.Styles
	innerH := r.h - 2
	title := i18n.T("Session")
	if v.state != nil && v.state.ID != "" {
		title = i18n.T("Session @ %s", v.state.ID)
	}
	info := ""
	if len(v.lines) > innerH {
		info = fmt.Sprintf("%d–%d/%d", v.offset+1, min(len(v.lines), v.offset+innerH), len(v.lines))
	}
	return common.Frame(st, r.w, r.h, title, info, focused, v.lines[min(v.offset, len(v.lines)):])
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
		return i18n.T("reading the session…")
	case v.file == "":
		return i18n.T("no session selected — pick one in the Session panel (3)")
	}
	return i18n.T("no capability state yet")
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
