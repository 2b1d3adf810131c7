package presets

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// libraryList is the Preset list: the library it shows and the watcher
// that reloads it. It is a sub-model of the panel: its own Update (the
// list's keys and its filter line), View, ShortHelp and CapturesInput on
// its own state and the shared Common; what touches the rest of the
// panel (opening, creating or deleting a Preset) it asks for as an
// intent. The panel installs each library it loads (applyLibrary).
type libraryList struct {
	com  *common.Common
	keys *keymap.Presets

	lib    *resources.Library
	libErr error
	// presets lists the library's Presets.
	presets *common.List[presetRow]
	// wantOpen is the scoped key to open after the next library load.
	wantOpen string

	// watchOn starts a watcher of the library directories (watch.go);
	// watch is the running one and diskChanged marks a reload it caused.
	watchOn     bool
	watch       *libraryWatch
	diskChanged bool
}

// The intents of the Preset list.
type (
	// openPresetIntent opens p (asking first when the draft is dirty).
	openPresetIntent struct{ p *resources.Preset }
	// newPresetIntent asks for the id of a new Preset.
	newPresetIntent struct{}
	// deletePresetIntent asks before deleting p.
	deletePresetIntent struct{ p *resources.Preset }
)

func (openPresetIntent) isIntent()   {}
func (newPresetIntent) isIntent()    {}
func (deletePresetIntent) isIntent() {}

// Update implements the part: while the filter line is open it takes
// every key (the panel's letters too); else the cursor keys move, / opens
// the filter, and n, x and enter ask the panel for a new Preset, a
// delete or an open.
func (l *libraryList) Update(msg tea.Msg) (tea.Cmd, intent) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	keys := l.keys
	if l.presets.Filtering() {
		l.presets.FilterKey(k, keys.Open, keys.Back, common.TextKeys(l.com))
		return nil, nil
	}
	if l.presets.HandleNav(k, keys.Nav) {
		return nil, nil
	}
	switch {
	case key.Matches(k, l.com.Keys.Filter):
		l.presets.StartFilter()
	case key.Matches(k, keys.New): // a adds to the focused list
		return nil, newPresetIntent{}
	case key.Matches(k, keys.Delete):
		if p := l.selected(); p != nil {
			return nil, deletePresetIntent{p}
		}
	case key.Matches(k, keys.Open):
		if p := l.selected(); p != nil {
			return nil, openPresetIntent{p}
		}
	case key.Matches(k, keys.Use):
		if p := l.selected(); p != nil {
			return nil, usePresetIntent{p}
		}
	}
	return nil, nil
}

// selected is the Preset under the cursor (nil: none, or no library).
func (l *libraryList) selected() *resources.Preset {
	i := l.presets.SelectedIndex()
	if i < 0 || l.lib == nil {
		return nil
	}
	return l.lib.Presets[i]
}

// CapturesInput implements the part: true while the filter line is open.
func (l *libraryList) CapturesInput() bool { return l.presets.Filtering() }

// ShortHelp implements the part: the list's keys (forkable: a draft is
// open, which fork copies), or the filter line's while it is open.
func (l *libraryList) ShortHelp(forkable bool) []key.Binding {
	k := l.keys
	if l.presets.Filtering() {
		return []key.Binding{k.Submit, k.Dismiss}
	}
	var bs []key.Binding
	if l.presets.Len() > 0 {
		bs = append(bs, k.Open)
	}
	bs = append(bs, k.New)
	if forkable {
		bs = append(bs, k.Fork)
	}
	if l.presets.Len() > 0 {
		bs = append(bs, l.com.Keys.Filter, k.Delete, k.Use)
	}
	return append(bs, k.Import, k.Profiles, k.Reload)
}

// View implements the part: the Preset list pane r (focused: it has the
// keys; presetsOff: the selected session switched Presets off).
func (l *libraryList) View(r rect, focused, presetsOff bool) string {
	var lines []string
	if l.lib == nil && l.libErr != nil {
		lines = common.Wrap(l.libErr.Error(), r.w-4)
	} else {
		lines = libraryLines(l.com, l.lib == nil, l.presets, i18n.T("no presets yet — n creates one"), r, focused)
	}
	info := ""
	if l.lib != nil {
		info = fmt.Sprintf("%d/%d", min(l.presets.Cursor()+1, l.presets.Len()), l.presets.Len())
		if !l.com.Workspace.Trust.Trusted {
			info = i18n.T("untrusted · %s", info)
		}
		if presetsOff {
			info = i18n.T("session: presets off · %s", info)
		}
	}
	return frame(l.com, r, i18n.T("Presets"), info, focused, lines)
}

// libraryLines are the lines of a pane listing the library: loading (no
// library yet), the empty text, or the list's visible rows.
func libraryLines[T comparable](com *common.Common, loading bool, l *common.List[T], empty string, r rect, focused bool) []string {
	st := &com.Styles
	switch {
	case loading:
		return []string{st.Pane.Placeholder.Render(i18n.T("loading…"))}
	case l.Total() == 0:
		return []string{st.Pane.Placeholder.Render(empty)}
	}
	return l.View(st, max(0, r.w-4), r.h-2, focused)
}
