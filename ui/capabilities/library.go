package capabilities

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

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
		status = st.Text.Danger.Render(padRight(fmt.Sprintf("✗%d", min(r.errors, 9)), 2))
	} else if r.warnings > 0 {
		status = st.Text.Warning.Render(padRight(fmt.Sprintf("!%d", min(r.warnings, 9)), 2))
	}
	bound := "   "
	if r.bound > 0 {
		bound = st.Text.Muted.Render(padRight(fmt.Sprintf("⛓%d", min(r.bound, 9)), 3))
	}
	head := badge + mark + status + bound
	rest := max(0, s.Width-ansi.StringWidth(head))
	idW := min(max(8, rest*2/5), 24)
	text := padRight(sanitize.Clip(r.id, idW), idW) + " " + sanitize.Fold(r.name)
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
	return head + style.Render(padRight(text, rest))
}

func padRight(s string, w int) string {
	if d := w - ansi.StringWidth(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

// detailKey names a rendered capability detail: the capability, the file
// revision (an edit is a new key), the width and the theme.
type detailKey struct {
	key, revision string
	width         int
	theme         string
}

// detailCmd renders a capability's detail lines off the UI goroutine: the
// header facts and the content as markdown.
func detailCmd(k detailKey, c *resources.Capability, boundBy string, ws resources.Workspace, st themes.Styles, md *common.Markdown) tea.Cmd {
	return func() tea.Msg {
		return detailMsg{key: k, lines: detailLines(c, boundBy, shortPath(ws, c), &st, md, k.width)}
	}
}

// shortPath shows a capability file relative to its scope's root: the
// project for project capabilities, "~forge" for the global directory.
func shortPath(ws resources.Workspace, c *resources.Capability) string {
	root, prefix := ws.Cwd, ""
	if c.Scope == resources.ScopeGlobal {
		root, prefix = ws.ForgeDir, "~forge/"
	}
	if rel, err := filepath.Rel(root, c.Path); err == nil && !strings.HasPrefix(rel, "..") {
		return prefix + filepath.ToSlash(rel)
	}
	return c.Path
}

// detailLines lays out a capability for the detail pane.
func detailLines(c *resources.Capability, boundBy, path string, st *themes.Styles, md *common.Markdown, width int) []string {
	cp := c.Capability
	label := func(l, v string) string {
		return st.Text.Muted.Render(padRight(l, 10)) + sanitize.Fold(v)
	}
	lines := []string{st.Text.Strong.Render(c.Key()) + "  " + sanitize.Fold(cp.DisplayName())}
	if cp.Description != nil && *cp.Description != "" {
		for _, l := range strings.Split(ansi.Wordwrap(sanitize.Fold(*cp.Description), max(10, width), ""), "\n") {
			lines = append(lines, st.Text.Subtle.Render(l))
		}
	}
	lines = append(lines, label("file", path))
	rev := c.SourceRevision
	if len(rev) > 12 {
		rev = rev[:12] + "…"
	}
	lines = append(lines, label("revision", rev))
	tools := cp.Tools.String()
	if tools == "" {
		tools = "no tool changes"
	}
	lines = append(lines, label("tools", tools))
	if boundBy == "" {
		boundBy = "no Preset"
	}
	lines = append(lines, label("bound by", boundBy))
	if len(c.Diagnostics) == 0 {
		lines = append(lines, label("status", "valid"))
	}
	for _, d := range c.Diagnostics {
		style := st.Text.Warning
		if d.Level == "error" {
			style = st.Text.Danger
		}
		lines = append(lines, style.Render(sanitize.Fold(string(d.Level)+": "+d.Message)))
	}
	lines = append(lines, st.Text.Muted.Render(strings.Repeat("─", max(0, width))))
	content := sanitize.Text(cp.Content)
	if strings.TrimSpace(content) == "" {
		return append(lines, st.Pane.Placeholder.Render("(no content: a tool-only capability sends no text)"))
	}
	if out, ok := md.Render(st, max(10, width), content); ok {
		return append(lines, strings.Split(out, "\n")...)
	}
	return append(lines, strings.Split(ansi.Wordwrap(content, max(10, width), ""), "\n")...)
}
