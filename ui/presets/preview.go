package presets

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/compare"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/draft"
)

// previewDock is the compiled preview of the draft and the run context of
// the selected session entry it compiles against. It is a sub-model of
// the panel: its own Update, View, ShortHelp and CapturesInput on its
// own state and the shared Common; the panel hands it its keys (sized by
// Model.dock) and the compiles' results (install), and acts on what its
// Update asks (an intent).
type previewDock struct {
	com  *common.Common
	keys *keymap.Presets
	// size is the dock's outer size (the panel's layout).
	size rect

	rc        *runContext
	rcPending bool
	// macros are the extension macro values supplied for the preview
	// (X; replaced whole, never changed in place, so a command may hold it).
	macros map[string]string
	// customSlots are the custom slots' preview values (X on a custom slot
	// item, slotvalue.go; replaced whole like macros).
	customSlots map[string]string
	// active is the session's Preset at the entry, resolved in the
	// library as pi-forge and the CLI do (a bare id included); nil when
	// none is recorded, Presets are off, or it does not resolve.
	active  *resources.Preset
	preview *previewMsg
	// whatIf is what the draft's edits change against the saved Preset
	// (issue 26): the token delta and where the cached prefix ends. The
	// baseline is the preview of the draft while it was clean.
	whatIf      whatIfState
	previewGen  int // counts installed previews (the preview cache key)
	previewRun  previewRun
	showPreview bool
	previewOff  int
	previewText renderedLines
	// following waits for the selection to rest before the run context
	// at its entry is read (common.Debounce): a burst of cursor moves in
	// the Session panel reads it, and compiles the preview, once.
	following common.Debounce
}

// Update implements the part: the keys scroll the preview; Back asks the
// panel to give the items the keys.
func (p *previewDock) Update(msg tea.Msg) (tea.Cmd, intent) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	keys := p.keys
	page := max(1, p.size.h-2)
	switch {
	case key.Matches(k, keys.Back):
		return nil, focusIntent{pane: paneItems}
	default:
		p.previewOff, _ = common.NavMove(k, keys.Nav, p.previewOff, page, len(p.lines(p.width()))-1)
	}
	return nil, nil
}

// Scroll moves the preview by delta lines (the wheel), within its end.
func (p *previewDock) Scroll(delta int) {
	lines := len(p.lines(p.width()))
	p.previewOff = common.Clamp(p.previewOff+delta, 0, max(0, lines-(p.size.h-2)))
}

// ShortHelp implements the part: its keys.
func (p *previewDock) ShortHelp() []key.Binding {
	k := p.keys
	return []key.Binding{k.Up, k.Down, p.com.Keys.Copy, p.com.Keys.View, k.Preview, k.Back}
}

// CapturesInput implements the part: the dock takes no typed text.
func (p *previewDock) CapturesInput() bool { return false }

// width is the dock's inner width.
func (p *previewDock) width() int { return max(0, p.size.w-4) }

// install keeps a compiled preview of the draft (the caller checked it is
// of the draft now).
func (p *previewDock) install(msg previewMsg, d *draft.Draft) {
	p.preview = &msg
	p.previewGen++
	p.whatIf.install(msg.pieces, d)
}

// whatIfState compares the draft's preview with the saved Preset's.
type whatIfState struct {
	// of is the draft the baseline is of: a baseline never compares
	// with another Preset's draft.
	of       *draft.Draft
	baseline []compare.Piece
	// result is the comparison of the newest preview; nil while the
	// draft is clean or has no baseline.
	result *compare.WhatIf
}

// install takes the pieces of a preview of d: the baseline while d is
// clean, else compared with it.
func (w *whatIfState) install(pieces []compare.Piece, d *draft.Draft) {
	switch {
	case d == nil:
		*w = whatIfState{}
	case !d.Dirty():
		*w = whatIfState{of: d, baseline: pieces}
	case w.of == d:
		r := compare.Compare(w.baseline, pieces)
		w.result = &r
	default:
		w.result = nil
	}
}

// rebase makes the newest preview the baseline (the draft was saved).
func (p *previewDock) rebase(d *draft.Draft) {
	if p.preview != nil {
		p.whatIf = whatIfState{of: d, baseline: p.preview.pieces}
	}
}

// title is the what-if's words for the dock's title: the token delta
// against the saved Preset and the tokens before the first change, which
// the provider's cached prefix keeps; "" when nothing changed.
func (w *whatIfState) title() string {
	r := w.result
	if r == nil || !r.Changed {
		return ""
	}
	return i18n.T(" · Δ %+d tok · ~%d cached", r.Delta, r.PrefixTokens)
}

// layout renders the preview for the dock r (lines keeps it for View)
// and keeps its scroll within it.
func (p *previewDock) layout(r rect) {
	p.size = r
	if r.h <= 0 {
		return
	}
	inner, innerH := max(0, r.w-4), max(0, r.h-2)
	if lines := p.lines(inner); len(lines) > 0 {
		p.previewOff = clampPreviewOffset(p.previewOff, len(lines), innerH)
	}
}

// View implements the part: the compiled system prompt and messages,
// each part labelled with its item and a token estimate, in the dock's
// frame (focused: it has the keys; draftVersion: the draft now, so an
// older preview says it is updating).
func (p *previewDock) View(focused bool, draftVersion int) string {
	r := p.size
	st := p.com.Styles
	inner, innerH := max(0, r.w-4), max(0, r.h-2)
	lines := p.lines(inner)
	if len(lines) == 0 {
		msg := i18n.T("compiling…")
		if p.rc == nil {
			msg = i18n.T("reading the selected session…")
		}
		return frame(p.com, r, i18n.T("Preview"), "", focused, []string{st.Pane.Placeholder.Render(msg)})
	}
	off := clampPreviewOffset(p.previewOff, len(lines), innerH) // layoutParts keeps it so
	end := min(len(lines), off+innerH)
	title := i18n.T("Preview")
	if res := p.preview; res != nil {
		sys, msgs := 0, 0
		for _, p := range res.res.System {
			sys += p.Tokens
		}
		for _, p := range res.res.Messages {
			msgs += p.Tokens
		}
		title = i18n.T("Preview · system ~%d tok · %d messages ~%d tok", sys, len(res.res.Messages), msgs) + p.whatIf.title()
		if res.version != draftVersion {
			title += " · " + i18n.T("updating…")
		}
	}
	info := ""
	if p.rc != nil {
		info = p.rc.source
	}
	return frame(p.com, r, title, info, focused, lines[off:end])
}

// clampPreviewOffset keeps the preview's scroll, n lines with height on
// screen, within them.
func clampPreviewOffset(off, n, height int) int { return max(0, min(off, n-height)) }

// previewPartLines caps the text lines shown for one message part.
const previewPartLines = 8

// renderedLines are lines rendered for one key (width, data, theme).
type renderedLines struct {
	key   previewKey
	lines []string
}

// previewKey is what the rendered preview depends on.
type previewKey struct {
	width, gen int
	theme      string
}

// lines renders the preview, cached per width, preview and theme.
func (dock *previewDock) lines(width int) []string {
	if dock.preview == nil || width <= 0 {
		return nil
	}
	key := previewKey{width: width, gen: dock.previewGen, theme: common.ThemeKey(&dock.com.Styles)}
	if dock.previewText.lines != nil && dock.previewText.key == key {
		return dock.previewText.lines
	}
	st := dock.com.Styles
	res := dock.preview.res
	var out []string
	diags := append(append([]preset.Diagnostic(nil), res.Result.System.Diagnostics...), res.Result.Messages.Diagnostics...)
	for _, d := range diags {
		prefix := ""
		if d.ItemID != "" {
			prefix = d.ItemID + ": "
		}
		out = append(out, wrapDiags(&dock.com.Styles, []preset.Diagnostic{d}, prefix, width)...)
	}
	out = append(out, st.Text.Strong.Render(i18n.T("System prompt")))
	for _, p := range res.System {
		if p.Kind == compile.PartSeparator {
			continue
		}
		out = append(out, dock.partHeader(p, width))
		for _, l := range strings.Split(p.Text, "\n") {
			out = append(out, common.Wrap(sanitize.Text(l), width)...)
		}
	}
	heading := i18n.T("Messages (%d)", len(res.Messages))
	if res.HiddenSystem > 0 {
		heading += " · " + i18n.T("%d empty System message(s) hidden", res.HiddenSystem)
	}
	out = append(out, "", st.Text.Strong.Render(heading))
	for _, p := range res.Messages {
		out = append(out, dock.partHeader(p, width))
		var text []string
		for _, l := range strings.Split(p.Text, "\n") {
			wrapped := common.Wrap(sanitize.Text(l), width)
			if p.System != nil && l == p.System.ToolsNote() {
				for i := range wrapped {
					wrapped[i] = st.Text.Muted.Render(wrapped[i]) // history, collapsed
				}
			}
			text = append(text, wrapped...)
		}
		if len(text) > previewPartLines {
			hidden := len(text) - previewPartLines
			text = append(text[:previewPartLines], st.Text.Muted.Render(i18n.T("… %d lines hidden", hidden)))
		}
		out = append(out, text...)
	}
	dock.previewText = renderedLines{key: key, lines: out}
	return out
}

// partHeader labels one preview part: kind/role, item and tokens.
func (dock *previewDock) partHeader(p compile.Part, width int) string {
	st := dock.com.Styles
	label := p.Label
	if p.ItemID != "" && p.ItemID != label {
		label += " (" + p.ItemID + ")"
	}
	head := "── " + sanitize.Line(p.Role) + " · " + sanitize.Line(label)
	if p.Kind != compile.PartItem && p.Kind != compile.PartSystem {
		head = "── " + sanitize.Line(p.Kind) + " · " + sanitize.Line(label)
	}
	tok := " " + i18n.T("~%d tok", p.Tokens)
	head = ansi.Truncate(head, max(0, width-ansi.StringWidth(tok)-2), "…")
	fill := max(0, width-ansi.StringWidth(head)-ansi.StringWidth(tok)-1)
	return st.Text.Info.Render(head) + " " + st.Text.Muted.Render(strings.Repeat("─", fill)+tok)
}
