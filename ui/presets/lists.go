package presets

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
)

// renderCache memoises rendered rows per (width, version). Every change
// that can alter a row bumps the version (a test proves the bump).
type renderCache struct {
	version int

	listW, listV int
	list         []string

	itemsW, itemsV int
	items          []string

	previewW, previewV int
	preview            []string
}

// bump invalidates every cached row.
func (c *renderCache) bump() { c.version++ }

// listRows are the Preset list rows (unselected form).
func (m *Model) listRows(width int) []string {
	c := &m.cache
	if c.list != nil && c.listW == width && c.listV == c.version {
		return c.list
	}
	st := m.com.Styles
	active := m.activeKey()
	rows := make([]string, len(m.lib.Presets))
	for i, p := range m.lib.Presets {
		mark := " "
		if active != "" && active == p.Key() {
			mark = st.Badge.Active.Render("▶")
		}
		errs, warns := p.Counts()
		name := sanitize.Line(p.ID)
		if n := p.Name(); n != p.ID && width >= 36 {
			name += " " + st.Text.Muted.Render(sanitize.Line(n))
		}
		rows[i] = leftRight(" "+mark+m.scopeBadge(p)+" "+st.List.Item.Render(name), m.countBadges(errs, warns), width)
	}
	c.list, c.listW, c.listV = rows, width, c.version
	return rows
}

// listView is the Preset list pane.
func (m *Model) listView(r rect) string {
	st := m.com.Styles
	focused := m.focus == paneList
	inner := max(0, r.w-4)
	var lines []string
	switch {
	case m.lib == nil && m.libErr != nil:
		lines = wrap(m.libErr.Error(), inner)
	case m.lib == nil:
		lines = []string{st.Pane.Placeholder.Render("loading…")}
	case len(m.lib.Presets) == 0:
		lines = []string{st.Pane.Placeholder.Render("no presets yet — n creates one")}
	default:
		rows := m.listRows(inner)
		from, to := window(m.listCursor, len(rows), r.h-2, &m.listOffset)
		for i := from; i < to; i++ {
			if i == m.listCursor {
				lines = append(lines, m.selectRow(rows[i], inner, focused))
			} else {
				lines = append(lines, rows[i])
			}
		}
	}
	info := ""
	if m.lib != nil {
		info = fmt.Sprintf("%d/%d", min(m.listCursor+1, len(m.lib.Presets)), len(m.lib.Presets))
		if !m.com.Workspace.Trust.Trusted {
			info = "untrusted · " + info
		}
		if m.activeKey() == "none" {
			info = "session: presets off · " + info
		}
	}
	return m.frame(r, "Presets", info, focused, lines)
}

// itemDiagCounts are the error and warning counts per item id, from
// validation and from the last preview (template errors of a block); a
// message both report counts once.
func (m *Model) itemDiagCounts() map[string][2]int {
	out := map[string][2]int{}
	seen := map[string]bool{}
	for _, d := range m.allDiagnostics() {
		k := d.ItemID + "\x00" + string(d.Level) + "\x00" + d.Message
		if d.ItemID == "" || seen[k] {
			continue
		}
		seen[k] = true
		c := out[d.ItemID]
		switch d.Level {
		case preset.LevelError:
			c[0]++
		case preset.LevelWarning:
			c[1]++
		}
		out[d.ItemID] = c
	}
	return out
}

// allDiagnostics are the draft's validation diagnostics followed by the
// last preview's compile diagnostics.
func (m *Model) allDiagnostics() []preset.Diagnostic {
	all := append([]preset.Diagnostic(nil), m.d.diags...)
	if m.preview != nil {
		all = append(all, m.preview.res.Result.System.Diagnostics...)
		all = append(all, m.preview.res.Result.Messages.Diagnostics...)
	}
	return all
}

// itemDiagnostics lists the diagnostics of one item id (validation first,
// then the compile's), without repeats.
func (m *Model) itemDiagnostics(id string) []preset.Diagnostic {
	var out []preset.Diagnostic
	seen := map[string]bool{}
	for _, d := range m.allDiagnostics() {
		k := string(d.Level) + "\x00" + d.Message
		if d.ItemID == id && !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// roleShort is the three-letter role column.
func roleShort(obj *jsonv.Object) string {
	v, _ := obj.Get("role")
	switch v {
	case "system":
		return "sys"
	case "user":
		return "usr"
	case "assistant":
		return "ast"
	case "custom":
		return "cus"
	}
	return " — "
}

// itemRowsRendered are the item list rows (unselected form): the items,
// then the Preset-wide settings rows.
func (m *Model) itemRowsRendered(width int) []string {
	c := &m.cache
	if c.items != nil && c.itemsW == width && c.itemsV == c.version {
		return c.items
	}
	st := m.com.Styles
	counts := m.itemDiagCounts()
	list := m.d.items()
	rows := make([]string, 0, len(list)+len(settingsRows)+1)
	for i := range list {
		obj := m.d.item(i)
		if obj == nil {
			rows = append(rows, st.Text.Danger.Render("   (item is not an object)"))
			continue
		}
		on := st.Text.Success.Render("●")
		if v, ok := obj.Get("enabled"); ok && v == false {
			on = st.Text.Muted.Render("○")
		}
		kind, _ := obj.Get("kind")
		k := "blk"
		desc := ""
		if kind == "slot" {
			k = "slt"
			if s, ok := obj.Get("slot"); ok {
				desc = " " + st.Text.Muted.Render("("+sanitize.Line(jsonv.ToString(s))+")")
			}
		}
		n := counts[itemID(obj)]
		left := " " + on + " " + st.Text.Muted.Render(roleShort(obj)+" "+k) + " " + st.List.Item.Render(itemLabel(obj)) + desc
		rows = append(rows, leftRight(left, m.countBadges(n[0], n[1]), width))
	}
	for _, s := range settingsRows {
		rows = append(rows, " "+st.Text.Info.Render("⚙ ")+st.Text.Subtle.Render(s))
	}
	c.items, c.itemsW, c.itemsV = rows, width, c.version
	return rows
}

// itemsView is the item list pane of the open draft.
func (m *Model) itemsView(r rect) string {
	st := m.com.Styles
	focused := m.focus == paneItems
	inner := max(0, r.w-4)
	if m.d == nil {
		hint := "open a preset (" + m.keys.Open.Help().Key + ")"
		if m.lib != nil && len(m.lib.Presets) == 0 {
			hint = "no preset to open — " + m.keys.New.Help().Key + " creates one"
		}
		return m.frame(r, "Items", "", focused, []string{st.Pane.Placeholder.Render(hint)})
	}
	rows := m.itemRowsRendered(inner)
	var lines []string
	from, to := window(m.itemCursor, len(rows), r.h-2, &m.itemOffset)
	for i := from; i < to; i++ {
		if i == m.itemCursor {
			lines = append(lines, m.selectRow(rows[i], inner, focused))
		} else {
			lines = append(lines, rows[i])
		}
	}
	title := m.d.stack.ID
	if m.d.dirty {
		title = "● " + title + " (unsaved)"
	}
	errs, warns := m.d.diags.Count(preset.LevelError), m.d.diags.Count(preset.LevelWarning)
	info := countOf(len(m.d.items()), "item")
	if errs > 0 {
		info += " · " + countOf(errs, "error")
	}
	if warns > 0 {
		info += " · " + countOf(warns, "warning")
	}
	return m.frame(r, "Items · "+title, info, focused, lines)
}

// diagIcon is the level marker of a diagnostic.
func (m *Model) diagIcon(level preset.Level) string {
	st := m.com.Styles
	switch level {
	case preset.LevelError:
		return st.Text.Danger.Render("✗ ")
	case preset.LevelWarning:
		return st.Text.Warning.Render("! ")
	}
	return st.Text.Info.Render("i ")
}

// wrapDiags renders diagnostics wrapped to width, prefix before each.
func (m *Model) wrapDiags(ds []preset.Diagnostic, prefix string, width int) []string {
	var out []string
	pw := ansi.StringWidth(prefix)
	for _, d := range ds {
		for i, l := range wrap(sanitize.Text(prefix+d.Message), max(1, width-2)) {
			if i == 0 {
				out = append(out, m.diagIcon(d.Level)+l)
			} else {
				out = append(out, strings.Repeat(" ", 2+pw)+l)
			}
		}
	}
	return out
}

// countOf is "1 item", "2 items": n with noun, plural unless n is 1.
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
