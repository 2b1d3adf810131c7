package capabilities

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// detailCacheMax bounds the rendered-detail cache; it is cleared when full.
const detailCacheMax = 128

// capabilityDetail is the detail pane's capability view as a sub-model:
// the capability under the library's cursor, rendered in a command
// (markdown) and cached per capability, revision, width and theme, and
// how far it is scrolled. Its Update scrolls; open and enable act on the
// library's capability, so it asks the panel for them.
type capabilityDetail struct {
	com  *common.Common
	keys *keymap.Capabilities

	rendered map[detailKey][]string
	pending  map[detailKey]bool
	offset   int
	// maxOffset is the last offset the detail's text allows at the size
	// it is laid out for (layout; the wheel and the keys stop there).
	maxOffset int
}

// newCapabilityDetail returns the view with an empty cache.
func newCapabilityDetail(com *common.Common, keys *keymap.Capabilities) capabilityDetail {
	return capabilityDetail{com: com, keys: keys, rendered: map[detailKey][]string{}, pending: map[detailKey]bool{}}
}

// Update implements part: the moving keys scroll the text; open and
// enable ask for the editor and the action on the capability.
func (d *capabilityDetail) Update(msg tea.Msg) (tea.Cmd, intent) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	keys := d.keys
	if off, moved := common.NavMove(k, keys.Nav, d.offset, 10, d.maxOffset); moved {
		d.offset = off
		return nil, nil
	}
	switch {
	case key.Matches(k, keys.Open):
		return nil, openEditorIntent{}
	case key.Matches(k, keys.Enable):
		return nil, enableSelectedIntent{}
	}
	return nil, nil
}

// ShortHelp implements part.
func (d *capabilityDetail) ShortHelp() []key.Binding {
	k := d.keys
	return []key.Binding{k.Up, k.Down, k.Open, k.Enable, d.com.Keys.View, k.Bindings}
}

// CapturesInput implements part: the detail takes no text.
func (d *capabilityDetail) CapturesInput() bool { return false }

// scroll moves the text by delta lines within what the layout allows.
func (d *capabilityDetail) scroll(delta int) {
	d.offset = common.Clamp(d.offset+delta, 0, d.maxOffset)
}

// request renders c's detail at width in a command, unless it is
// rendered or being rendered; boundBy are the Presets binding it.
func (d *capabilityDetail) request(c *resources.Capability, boundBy string, width int) tea.Cmd {
	if c == nil || width <= 0 {
		return nil
	}
	k := detailKey{key: c.Key(), revision: c.SourceRevision, width: width, theme: common.ThemeKey(&d.com.Styles)}
	if _, ok := d.rendered[k]; ok || d.pending[k] {
		return nil
	}
	d.pending[k] = true
	return detailCmd(k, c, boundBy, d.com.Workspace, d.com.Styles, d.com.Markdown())
}

// install caches a rendered detail.
func (d *capabilityDetail) install(msg detailMsg) {
	delete(d.pending, msg.key)
	if len(d.rendered) >= detailCacheMax {
		clear(d.rendered)
	}
	d.rendered[msg.key] = msg.lines
}

// layout fits the scroll to c's detail in the pane r: the last offset
// the rendered text allows (the wheel and the keys stop there) and the
// offset kept within it, so a key pressed past the end is not owed back
// before the text moves again. Until the rendering is back nothing is
// known and the offset waits. The panel calls it after every Update and
// resize (layoutParts), so View only draws.
func (d *capabilityDetail) layout(r rect, c *resources.Capability) {
	d.maxOffset = 0
	if c == nil {
		return
	}
	innerW, innerH := r.w-4, r.h-2
	k := detailKey{key: c.Key(), revision: c.SourceRevision, width: innerW, theme: common.ThemeKey(&d.com.Styles)}
	if lines, ok := d.rendered[k]; ok {
		d.maxOffset = max(0, len(lines)-innerH)
		d.offset = min(d.offset, d.maxOffset)
	}
}

// View implements the part: c's detail in the pane r, from the offset
// ("rendering…" until its command is back).
func (d *capabilityDetail) View(r rect, c *resources.Capability, focused bool) string {
	st := d.com.Styles
	if c == nil {
		return common.Frame(st, r.w, r.h, i18n.T("Capability"), "", focused, nil)
	}
	innerW, innerH := r.w-4, r.h-2
	k := detailKey{key: c.Key(), revision: c.SourceRevision, width: innerW, theme: common.ThemeKey(&st)}
	lines, ok := d.rendered[k]
	if !ok {
		lines = []string{st.Pane.Placeholder.Render(i18n.T("rendering…"))}
	}
	off := min(d.offset, max(0, len(lines)-innerH))
	info := ""
	if len(lines) > innerH {
		info = fmt.Sprintf("%d–%d/%d", off+1, min(len(lines), off+innerH), len(lines))
	}
	return common.Frame(st, r.w, r.h, i18n.T("Capability %s", c.Key()), info, focused, lines[off:])
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
		root, prefix = ws.ForgeDir, "~forge/" //i18n:raw a path
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
		return st.Text.Muted.Render(common.PadRight(l, 10)) + sanitize.Fold(v)
	}
	lines := []string{st.Text.Strong.Render(c.Key()) + "  " + sanitize.Fold(cp.DisplayName())}
	if cp.Description != nil && *cp.Description != "" {
		for _, l := range strings.Split(ansi.Wordwrap(sanitize.Fold(*cp.Description), max(10, width), ""), "\n") {
			lines = append(lines, st.Text.Subtle.Render(l))
		}
	}
	lines = append(lines, label(i18n.T("file"), path))
	rev := c.SourceRevision
	if len(rev) > 12 {
		rev = rev[:12] + "…"
	}
	lines = append(lines, label(i18n.T("revision"), rev))
	tools := cp.Tools.String()
	if tools == "" {
		tools = i18n.T("no tool changes")
	}
	lines = append(lines, label(i18n.T("tools"), tools))
	if boundBy == "" {
		boundBy = i18n.T("no Preset")
	}
	lines = append(lines, label(i18n.T("bound by"), boundBy))
	if len(c.Diagnostics) == 0 {
		lines = append(lines, label(i18n.T("status"), i18n.T("valid")))
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
		return append(lines, st.Pane.Placeholder.Render(i18n.T("(no content: a tool-only capability sends no text)")))
	}
	if out, ok := md.Render(st, max(10, width), content); ok {
		return append(lines, strings.Split(out, "\n")...)
	}
	return append(lines, strings.Split(ansi.Wordwrap(content, max(10, width), ""), "\n")...)
}
