package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// The chrome around the panels: the header (workspace and the shared
// selection), the tab bar and the footer (key hints or a status).

// Header field ranks (common.Field): when the line is too narrow the
// sacrifices go from the highest rank down — "✓" for "trusted", cut a
// long cwd, "●" for "(leaf)", drop the brand, the preset without its
// scope, drop "trusted", cut the session's title and the preset to their
// minimum, drop the cwd, drop the preset. The session and the entry
// always stay, and so does a warning that the project is untrusted.
const (
	rankShortTrust   = 95
	rankCutCwd       = 90
	rankShortEntry   = 85
	rankDropBrand    = 80
	rankShortPreset  = 75
	rankDropTrusted  = 70
	rankShortUntrust = 60
	rankCutSession   = 50
	rankCutPreset    = 40
	rankDropCwd      = 30
	rankDropPreset   = 20
)

// headerView is one line: the workspace (cwd, trust) and the selection
// (session, entry, preset), fitted to the width (common.FitFields).
func (m *Model) headerView() string {
	st := m.com.Styles
	ws := m.com.Workspace
	sel := m.com.Selection
	trust := common.Field{Label: i18n.T("trust"), Value: i18n.T("trusted"), Short: "✓", Style: st.Text.Success,
		Shorten: rankShortTrust, Drop: rankDropTrusted}
	if !ws.Trust.Trusted {
		trust = common.Field{Value: i18n.T("untrusted (read-only)"), Short: i18n.T("read-only"), Style: st.Text.Warning, Shorten: rankShortUntrust}
	}
	entryKey, entry, entryShort := entryLabel(sel, m.followHint())
	entryField := common.Field{Label: entryKey, Value: entry, Short: entryShort, Style: st.App.HeaderValue, Shorten: rankShortEntry}
	if m.selectedTruncated() {
		// The entry and what follows it in the file read as zeros now:
		// say so instead, and what to do.
		entryField = common.Field{Value: i18n.T("file truncated — reload"), Style: st.Text.Warning}
	}
	preset, presetShort := presetLabel(sel, m.auto)
	fields := []common.Field{
		{Value: "forgebench", Style: st.Pane.TitleFocused, Drop: rankDropBrand},
		{Label: i18n.T("cwd"), Value: m.cwdLabel, Style: st.App.HeaderValue, Path: true, Min: 12, Cut: rankCutCwd, Drop: rankDropCwd},
		trust,
		{Label: i18n.T("session"), Value: orNone(sanitize.Line(sel.SessionName)), Style: st.App.HeaderValue, Min: 16, Cut: rankCutSession},
		entryField,
		{Label: i18n.T("preset"), Value: preset, Short: presetShort, Style: st.App.HeaderValue, Shorten: rankShortPreset,
			Min: 12, Cut: rankCutPreset, Drop: rankDropPreset},
	}
	line := common.FitFields(fields, st.App.HeaderKey, st.App.TabGap.Render(" │ "), max(0, m.width-2))
	return st.App.Header.Width(m.width).Render(line)
}

// entryLabel is the header's entry, with its label: its id, marked when
// it is the leaf and the selection follows the leaf as the session grows;
// otherwise it says the selection is held there ("paused at entry …"),
// with hint — the key that follows again, where it works — in full.
func entryLabel(sel common.Selection, hint string) (label, full, short string) {
	id := sanitize.Line(sel.EntryID)
	switch {
	case sel.SessionFile == "":
		return i18n.T("entry"), "—", ""
	case id == "":
		return i18n.T("entry"), i18n.T("leaf"), ""
	case sel.AtLeaf && !sel.Paused:
		return i18n.T("entry"), i18n.T("%s (leaf)", id), id + " ●"
	}
	full = id
	if hint != "" {
		full += " · " + hint
	}
	return i18n.T("paused at entry"), full, id
}

// followHint is the header's "F follow" while the Session panel, where
// the key works, is in front ("" elsewhere).
func (m *Model) followHint() string {
	if m.active != common.PanelSession {
		return ""
	}
	return i18n.T("%s follow", m.keys.Session.Follow.Help().Key)
}

// selectedTruncated reports whether the panel holding the selected
// session found its file cut under it (sessions.Model.TruncatedFile).
func (m *Model) selectedTruncated() bool {
	file := m.com.Selection.SessionFile
	if file == "" {
		return false
	}
	for _, p := range m.panels {
		if t, ok := p.(interface{ TruncatedFile() string }); ok && t.TruncatedFile() == file {
			return true
		}
	}
	return false
}

// presetLabel is the header's preset: the one the user opened in the
// Presets panel, else the one the session's branch records at the entry
// (marked ▶, as the Presets list marks the active Preset), else the one
// pi-forge would auto-activate there — for a new session when none is
// selected — marked "(auto)" (autopreset.go), else none: Pi's default
// prompt. "…" while the library is being read. The short form leaves out
// the scope ("project:").
func presetLabel(sel common.Selection, auto autoPresets) (full, short string) {
	active := sel.ActivePreset
	if active == "none" {
		active = i18n.T("none (switched off)")
	}
	if active == "" { // nothing recorded: pi-forge picks by itself
		var label string
		switch a := auto.at(sel.FreshBranch || sel.SessionFile == ""); {
		case !auto.loaded:
			label = "…"
		case a == "":
			label = noPresetLabel()
		case sel.PresetID == a:
			return i18n.T("(auto) %s", a), withoutScope(i18n.T("(auto) %s", a))
		default:
			label = i18n.T("(auto) %s", a)
		}
		switch {
		case sel.PresetID == "" && label == noPresetLabel():
			return label, i18n.T("none")
		case sel.PresetID == "":
			return label, withoutScope(label)
		case sel.SessionFile == "" || !auto.loaded:
			return sel.PresetID, withoutScope(sel.PresetID)
		}
		return i18n.T("%s (branch: %s)", sel.PresetID, label), withoutScope(sel.PresetID)
	}
	switch {
	case sel.PresetID == "":
		full = "▶ " + active
	case sel.PresetID == sel.ActivePreset:
		full = "▶ " + sel.PresetID
	default:
		return i18n.T("%s (branch: %s)", sel.PresetID, "▶ "+active), withoutScope(sel.PresetID)
	}
	return full, withoutScope(full)
}

// noPresetLabel is the header's preset where none is selected, recorded
// or auto-activated: Pi then sends its own system prompt.
func noPresetLabel() string { return i18n.T("none (Pi's default prompt)") }

// withoutScope drops the "project:"/"global:" of a Preset key in a label.
func withoutScope(label string) string {
	for _, scope := range []string{"project:", "global:"} {
		label = strings.Replace(label, scope, "", 1)
	}
	return label
}

// tabLabels are the tab bar's labels in panel order.
func (m *Model) tabLabels() []string {
	labels := make([]string, len(m.panels))
	for i, p := range m.panels {
		labels[i] = m.keys.Tabs()[i].Help().Key + " " + p.Title()
	}
	return labels
}

func (m *Model) tabsView() string {
	st := m.com.Styles
	labels := m.tabLabels()
	tabs := make([]string, len(labels))
	for i, label := range labels {
		if i == m.active {
			tabs[i] = st.App.TabActive.Render(label)
		} else {
			tabs[i] = st.App.Tab.Render(label)
		}
	}
	return ansi.Truncate(strings.Join(tabs, st.App.TabGap.Render("│")), m.width, "…")
}

// tabAt is the tab drawn at column x of the tab bar (-1: none). Each tab
// is its label padded by one cell on both sides, then a one-cell gap.
func (m *Model) tabAt(x int) int {
	at := 0
	for i, label := range m.tabLabels() {
		w := ansi.StringWidth(label) + 2
		if x >= at && x < at+w {
			return i
		}
		at += w + 1
	}
	return -1
}

// Footer hint ranks (common.Hint): `?` stays whatever the width (it shows
// every key), the panel's keys come next in their own order, and the
// root's other keys give way first.
const (
	rankHelp      = 0
	rankPanelKeys = 10
	rankQuit      = 60
	rankPalette   = 70
	rankNextPane  = 80
)

// footerView is the short help: the focused panel's keys, then the global
// keys, fitted by rank so no hint is cut and the panel's own keys win
// over the root's. While a text input has focus the global keys type
// text, so only the panel's are shown. A status replaces the hints until
// it expires.
func (m *Model) footerView() string {
	st := &m.com.Styles
	width := max(0, m.width-2)
	if s := m.status.View(st); s != "" {
		return st.App.Footer.Render(ansi.Truncate(s, width, "…"))
	}
	if m.dialogs.Open() { // the quit question takes every key: its answers
		line, _ := common.FitHints(st, common.Ranked(0, m.dialogs.ShortHelp()...), width)
		return st.App.Footer.Render(line)
	}
	if m.whole != nil {
		line, _ := common.FitHints(st, common.Ranked(0, common.ViewerHelp(&m.keys)...), width)
		return st.App.Footer.Render(line)
	}
	if m.find.IsOpen() { // the view's keys, here only
		line, _ := common.FitHints(st, common.Ranked(0, m.find.ShortHelp()...), width)
		return st.App.Footer.Render(line)
	}
	panel := m.panels[m.active]
	hints := common.Ranked(rankPanelKeys, panel.ShortHelp()...)
	if !panel.CapturesInput() {
		hints = append(hints,
			common.Hint{Binding: m.keys.NextPane, Rank: rankNextPane},
			common.Hint{Binding: m.keys.Palette, Rank: rankPalette},
			common.Hint{Binding: m.keys.Help, Rank: rankHelp},
			common.Hint{Binding: m.keys.Quit, Rank: rankQuit})
	}
	line, omitted := common.FitHints(st, hints, width)
	if omitted > 0 && !panel.CapturesInput() {
		// Some keys did not fit: `?` says it shows them all.
		more := key.NewBinding(key.WithKeys(m.keys.Help.Keys()...), key.WithHelp(m.keys.Help.Help().Key, i18n.Mark("all keys")))
		hints[len(hints)-2].Binding = more
		line, _ = common.FitHints(st, hints, width)
	}
	return st.App.Footer.Render(line)
}
