package capabilities

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// libraryList is the capability library as a sub-model: the library the
// panel loaded last (its generation drops an older load's result) and the
// list of its capabilities with its filter line. Its Update moves the
// cursor and edits the filter; what that sets off elsewhere (the detail
// follows, the editor opens, a capability is created, deleted or enabled)
// it asks the panel for as an intent.
type libraryList struct {
	com  *common.Common
	keys *keymap.Capabilities

	lib    *resources.Library
	libErr string
	libGen int
	list   *common.List[libRow]
}

// newLibraryList returns the list, empty until a library is installed.
func newLibraryList(com *common.Common, keys *keymap.Capabilities) libraryList {
	l := libraryList{com: com, keys: keys, list: common.NewList(renderLibRow)}
	l.list.SetIdentity(func(r libRow) string { return r.key })
	l.list.SetFilter(common.FilterWords(func(r libRow) string { return r.key + " " + r.name + " " + r.tools }))
	return l
}

// Update implements part: while the filter line is open it takes every
// key; else the cursor keys move (the detail follows from its top), the
// filter key opens the filter, and open, new, delete and enable ask the
// panel for the editor, a new capability, a delete or an action.
func (l *libraryList) Update(msg tea.Msg) (tea.Cmd, intent) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	keys := l.keys
	if l.list.Filtering() {
		l.list.FilterKey(k, keys.Submit, keys.Dismiss, common.TextKeys(l.com))
		return nil, detailIntent{}
	}
	if l.list.HandleNav(k, keys.Nav) {
		return nil, detailIntent{fromTop: true}
	}
	switch {
	case key.Matches(k, keys.Filter):
		l.list.StartFilter()
	case key.Matches(k, keys.Open):
		return nil, openEditorIntent{}
	case key.Matches(k, keys.New):
		return nil, newCapabilityIntent{}
	case key.Matches(k, keys.Delete):
		return nil, deleteIntent{}
	case key.Matches(k, keys.Enable):
		return nil, enableSelectedIntent{}
	case key.Matches(k, keys.Cost):
		// What has this cost: the Payloads panel lists the cache breaks
		// the capability caused.
		if r, ok := l.list.Selected(); ok {
			return l.com.Jump(common.JumpTarget{Panel: common.PanelPayloads, CacheBreaksOf: r.key}), nil
		}
	}
	return nil, nil
}

// ShortHelp implements part: the list's keys, or the filter line's while
// it is open.
func (l *libraryList) ShortHelp() []key.Binding {
	k := l.keys
	if l.list.Filtering() {
		return []key.Binding{k.Submit, k.Dismiss}
	}
	return []key.Binding{k.Open, k.Enable, k.New, k.Delete, k.Filter, l.com.Keys.View, k.Bindings}
}

// CapturesInput implements part: true while the filter line is open.
func (l *libraryList) CapturesInput() bool { return l.list.Filtering() }

// reload starts a library load (the services' snapshot, read again).
func (l *libraryList) reload() tea.Cmd {
	l.libGen++
	return libraryCmd(l.com.Services(), l.libGen)
}

// install takes a loaded library and its rows, the capabilities active
// at the followed entry marked; it reports whether it took it (not an
// older load's, not a failure, which the pane then shows).
func (l *libraryList) install(msg libraryMsg, active map[string]bool) bool {
	if msg.gen != l.libGen {
		return false
	}
	if msg.err != nil {
		l.libErr = sanitize.Fold(msg.err.Error())
		return false
	}
	l.lib, l.libErr = msg.lib, ""
	l.list.SetItems(markActive(msg.rows, active))
	return true
}

// selectedCapability is the library capability under the cursor.
func (l *libraryList) selectedCapability() *resources.Capability {
	r, ok := l.list.Selected()
	if !ok || l.lib == nil {
		return nil
	}
	for _, c := range l.lib.Capabilities {
		if c.Key() == r.key {
			return c
		}
	}
	return nil
}

// View implements the part: the library pane r (focused: it has the keys).
func (l *libraryList) View(r rect, focused bool) string {
	st := l.com.Styles
	var lines []string
	switch {
	case l.libErr != "":
		lines = wrap(st.Text.Danger.Render(l.libErr), r.w-4)
	case l.lib == nil:
		lines = []string{st.Pane.Placeholder.Render(i18n.T("loading the library…"))}
	case l.list.Total() == 0:
		lines = wrap(st.Pane.Placeholder.Render(i18n.T("No capabilities. Place JSON in .pi/forge/capabilities/ or ~/.pi/forge/capabilities/, or press %s.", l.keys.New.Help().Key)), r.w-4)
	default:
		lines = l.list.View(&st, r.w-4, r.h-2, focused)
	}
	info := l.list.Position()
	if l.lib != nil {
		info = i18n.T("%d capabilities", l.list.Total()) + "  " + info
	}
	return common.Frame(st, r.w, r.h, i18n.T("Library"), info, focused, lines)
}

// markActive flags the rows whose capability is in active (their keys).
func markActive(rows []libRow, active map[string]bool) []libRow {
	out := make([]libRow, len(rows))
	for i, r := range rows {
		r.active = active[r.key]
		out[i] = r
	}
	return out
}

// libRow is one capability of the library list: everything its row shows.
type libRow struct {
	key      string
	scope    resources.Scope
	id       string
	name     string
	tools    string
	errors   int
	warnings int
	// boundBy lists the Presets that bind it ("scope:id"), joined.
	boundBy string
	bound   int
	// active is true when the session at the selected entry has it active.
	active bool
}

// buildRows turns the library into list rows, with the Presets that bind
// each capability.
func buildRows(lib *resources.Library) []libRow {
	bound := map[string][]string{}
	for _, p := range lib.Presets {
		res := lib.ResolvePresetCapabilities(p)
		seen := map[string]bool{}
		for _, b := range res.Bindings {
			k := b.Ref.String()
			if b.Ref.ID == "" || seen[k] {
				continue
			}
			seen[k] = true
			bound[k] = append(bound[k], p.Key())
		}
	}
	rows := make([]libRow, 0, len(lib.Capabilities))
	for _, c := range lib.Capabilities {
		errs, warns := c.Counts()
		by := bound[c.Key()]
		sort.Strings(by)
		rows = append(rows, libRow{key: c.Key(), scope: c.Scope, id: c.ID, name: c.Capability.DisplayName(),
			tools: c.Capability.Tools.String(), errors: errs, warnings: warns,
			boundBy: strings.Join(by, ", "), bound: len(by)})
	}
	return rows
}

// renderLibRow draws one library row: scope badge, id, name, tool patch,
// validity and how many Presets bind it.
func renderLibRow(r libRow, s common.RowState) string {
	st := s.Styles
	badge := st.Badge.Project.Render("P")
	if r.scope == resources.ScopeGlobal {
		badge = st.Badge.Global.Render("G")
	}
	mark := " "
	if r.active {
		mark = st.Badge.Active.Render("●")
	}
	status := st.Text.Success.Render("✓ ")
	if r.errors > 0 {
		status = st.Text.Danger.Render(common.PadRight(fmt.Sprintf("✗%d", min(r.errors, 9)), 2))
	} else if r.warnings > 0 {
		status = st.Text.Warning.Render(common.PadRight(fmt.Sprintf("!%d", min(r.warnings, 9)), 2))
	}
	bound := "   "
	if r.bound > 0 {
		bound = st.Text.Muted.Render(common.PadRight(fmt.Sprintf("⛓%d", min(r.bound, 9)), 3))
	}
	head := badge + mark + status + bound
	rest := max(0, s.Width-ansi.StringWidth(head))
	idW := min(max(8, rest*2/5), 24)
	text := common.PadRight(sanitize.Clip(r.id, idW), idW) + " " + sanitize.Fold(r.name)
	if r.tools != "" {
		text += "  " + r.tools
	}
	text = ansi.Truncate(text, rest, "…")
	style := st.List.Item
	switch {
	case s.Selected && s.Focused:
		style = st.List.Selected
	case s.Selected:
		style = st.List.SelectedBlurred
	}
	return head + style.Render(common.PadRight(text, rest))
}
