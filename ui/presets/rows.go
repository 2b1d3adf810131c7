package presets

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// The row items of the panel's lists. Each carries everything its row
// shows (already sanitised), so the kit's render cache, keyed by the item
// value, the width and the theme, can never show a stale row; they are
// built in Update when the data changes, never in View.
type (
	// presetRow is one Preset of the library.
	presetRow struct {
		path   string // identity: two files may declare the same id
		active bool
		scope  string // the scope badge: P, G or L (legacy)
		id     string
		name   string // the display name when it is not the id
		errs   int
		warns  int
	}
	// itemRow is one item of the open draft or, after the items, one of
	// the Preset-wide settings rows (setting != "").
	itemRow struct {
		setting string
		enabled bool
		role    string
		slot    bool
		what    string // the slot's name
		label   string
		errs    int
		warns   int
	}
	// profileRow is one agent profile.
	profileRow struct {
		path   string
		global bool
		id     string
		name   string
		errs   int
		warns  int
		// last marks the profile the selected session last applied,
		// auto the one a fresh session applies, dirty an open draft.
		last, auto, dirty bool
	}
)

// newPresetList is the Preset library list; the cursor stays on its file
// across reloads.
func newPresetList() *common.List[presetRow] {
	l := common.NewList(renderPresetRow)
	l.SetIdentity(func(r presetRow) string { return r.path })
	l.SetFilter(common.FilterWords(func(r presetRow) string { return r.id + " " + r.name }))
	return l
}

func newItemList() *common.List[itemRow] { return common.NewList(renderItemRow) }

func newProfileList() *common.List[profileRow] {
	l := common.NewList(renderProfileRow)
	l.SetIdentity(func(r profileRow) string { return r.path })
	return l
}

// presetRows are the library's rows; active is the session's Preset.
func presetRows(lib *resources.Library, active *resources.Preset) []presetRow {
	rows := make([]presetRow, len(lib.Presets))
	for i, p := range lib.Presets {
		errs, warns := p.Counts()
		r := presetRow{path: p.Path, active: p == active, scope: scopeLetter(p), id: sanitize.Line(p.ID), errs: errs, warns: warns}
		if n := p.Name(); n != p.ID {
			r.name = sanitize.Line(n)
		}
		rows[i] = r
	}
	return rows
}

// scopeLetter is the scope badge's letter of a Preset.
func scopeLetter(p *resources.Preset) string {
	switch {
	case p.Legacy:
		return "L"
	case p.Scope == preset.ScopeGlobal:
		return "G"
	}
	return "P"
}

func renderPresetRow(r presetRow, s common.RowState) string {
	st := s.Styles
	mark := " "
	if r.active {
		mark = st.Badge.Active.Render("▶")
	}
	badge := st.Badge.Project.Render(r.scope)
	if r.scope == "G" {
		badge = st.Badge.Global.Render(r.scope)
	}
	// The id, then the display name, at every width (truncated to fit).
	name := r.id
	if r.name != "" {
		name += " " + st.Text.Muted.Render(r.name)
	}
	return selectable(s, leftRight(" "+mark+badge+" "+st.List.Item.Render(name), countBadges(st, r.errs, r.warns), s.Width))
}

// itemRows are the draft's item rows, then the settings rows; counts are
// the diagnostics per item id.
func itemRows(items []preset.Item, counts map[string][2]int) []itemRow {
	rows := make([]itemRow, 0, len(items)+len(settingsRows))
	for i := range items {
		it := &items[i]
		n := counts[it.ID]
		r := itemRow{enabled: it.IsEnabled(), role: roleShort(it.Role), label: itemLabel(it), errs: n[0], warns: n[1]}
		if it.Kind == preset.KindSlot {
			r.slot, r.what = true, sanitize.Line(it.Slot)
		}
		rows = append(rows, r)
	}
	for _, s := range settingsRows {
		rows = append(rows, itemRow{setting: s})
	}
	return rows
}

func renderItemRow(r itemRow, s common.RowState) string {
	st := s.Styles
	if r.setting != "" {
		return selectable(s, " "+st.Text.Info.Render("⚙ ")+st.Text.Subtle.Render(i18n.T(r.setting)))
	}
	on := st.Text.Success.Render("●")
	if !r.enabled {
		on = st.Text.Muted.Render("○")
	}
	k, desc := "blk", ""
	if r.slot {
		k = "slt"
		if r.what != "" {
			desc = " " + st.Text.Muted.Render("("+r.what+")")
		}
	}
	left := " " + on + " " + st.Text.Muted.Render(r.role+" "+k) + " " + st.List.Item.Render(r.label) + desc
	return selectable(s, leftRight(left, countBadges(st, r.errs, r.warns), s.Width))
}

// profileRows are the library's agent profiles; lastKey is the profile
// the selected session last applied ("" none), dirtyPath the file of a
// profile draft with unsaved edits.
func profileRows(lib *resources.Library, lastKey, dirtyPath string) []profileRow {
	auto := lib.AutoActivateProfile()
	rows := make([]profileRow, len(lib.Profiles))
	for i, p := range lib.Profiles {
		errs, warns := p.Counts()
		r := profileRow{path: p.Path, global: p.Scope == preset.ScopeGlobal, id: sanitize.Line(p.ID), errs: errs, warns: warns,
			last: p.Key() == lastKey, auto: p == auto, dirty: p.Path == dirtyPath}
		if p.Profile.Name != nil && *p.Profile.Name != p.ID {
			r.name = sanitize.Line(*p.Profile.Name)
		}
		rows[i] = r
	}
	return rows
}

func renderProfileRow(r profileRow, s common.RowState) string {
	st := s.Styles
	badge := st.Badge.Project.Render("P")
	if r.global {
		badge = st.Badge.Global.Render("G")
	}
	mark := " "
	if r.last {
		mark = st.Badge.Active.Render("◆") // last applied in the selected session
	}
	id := r.id
	if r.dirty {
		id = "● " + id
	}
	text := " " + mark + badge + " " + st.List.Item.Render(id)
	if r.name != "" {
		text += " " + st.Text.Muted.Render(r.name)
	}
	right := countBadges(st, r.errs, r.warns)
	if r.auto {
		right = strings.TrimSpace(st.Text.Info.Render("auto") + " " + right)
	}
	return selectable(s, leftRight(text, right, s.Width))
}

// selectable draws row as the list shows it: unchanged, or under the
// cursor as one plain line with the cursor mark, filled to the width.
func selectable(s common.RowState, row string) string {
	if !s.Selected {
		return row
	}
	plain := ansi.Truncate(ansi.Strip(row), s.Width, "…")
	if rest, ok := strings.CutPrefix(plain, " "); ok {
		plain = "▸" + rest
	}
	plain += strings.Repeat(" ", max(0, s.Width-ansi.StringWidth(plain)))
	if s.Focused {
		return s.Styles.List.Selected.Render(plain)
	}
	return s.Styles.List.SelectedBlurred.Render(plain)
}

// roleShort is the three-letter role column.
func roleShort(r preset.Role) string {
	switch r {
	case preset.RoleSystem:
		return "sys"
	case preset.RoleUser:
		return "usr"
	case preset.RoleAssistant:
		return "ast"
	case preset.RoleCustom:
		return "cus"
	}
	return " — "
}

// itemLabel is how the panel names an item: its name, else its id.
func itemLabel(it *preset.Item) string {
	if it.Name != nil && *it.Name != "" {
		return sanitize.Line(*it.Name)
	}
	return sanitize.Line(it.ID)
}

// countBadges renders error and warning counts ("" when both are zero).
func countBadges(st *themes.Styles, errs, warns int) string {
	var parts []string
	if errs > 0 {
		parts = append(parts, st.Badge.Error.Render(fmt.Sprintf("✗%d", errs)))
	}
	if warns > 0 {
		parts = append(parts, st.Badge.Warning.Render(fmt.Sprintf("!%d", warns)))
	}
	return strings.Join(parts, " ")
}

// leftRight puts right at the end of a row of width cells.
func leftRight(left, right string, width int) string {
	rw := ansi.StringWidth(right)
	if rw > 0 {
		rw++
	}
	left = ansi.Truncate(left, max(0, width-rw), "…")
	pad := strings.Repeat(" ", max(0, width-rw-ansi.StringWidth(left)))
	if right == "" {
		return left + pad
	}
	return left + pad + " " + right
}

// countOf is "1 item", "2 items": n with noun (item, error or warning),
// in the plural form the language gives n.
func countOf(n int, noun string) string {
	switch noun {
	case "error":
		return i18n.T("%d errors", n)
	case "warning":
		return i18n.T("%d warnings", n)
	}
	return i18n.T("%d items", n)
}
