// Package forms holds the editor forms of the Presets panel: slot options,
// parameters (v2) / variables (v1), tool and skill policy, regex rules,
// context options and capability bindings.
//
// Forms never mutate the draft they are given. When the user commits a field
// (enter, or ↑/↓ while editing, which commits and moves), a form returns a
// tea.Cmd producing an EditMsg; the panel applies it to its draft,
// re-validates the preset, and re-creates the form from the new draft (keys
// typed before that edit is back wait in the panel, so a form never sees a
// key after its own edit). An
// EditMsg targets the deepest container that already exists: setting
// context.mergeSeparator on a draft without `context` emits
// Path{"context"} with {"mergeSeparator": …}, so the panel never has to
// invent intermediate objects.
//
// To keep the user's place across re-creation, every constructor accepts
// Options: pass WithCursor(CursorOf(oldForm)). Cursors are clamped, and after
// an add the old form's cursor already points at the new entry.
//
// Keys (see Keys/DefaultKeys; rebind with keymap.Apply on a *keymap.Forms and pass
// WithKeys): ↑/↓ (k/j) move; enter edits a text/number/JSON field, toggles a
// bool, cycles an enum; space toggles or cycles; ←/→ cycle enums in the
// one-pane forms and switch list ↔ detail in the regex and bindings forms;
// x unsets a field or deletes an entry; a adds; R renames a parameter; K/J
// (alt+↑/↓) reorder; m cycles the policy mode; p opens the capability
// picker for the focused binding's ref. While editing: enter commits, esc
// cancels, ↑/↓ commit and move, and the keymap's text keys (home/end,
// word motions, kill line or word) edit the text.
package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/draft"
)

// Path addresses a value inside the draft JSON: string keys into objects and
// int indexes into arrays, e.g. Path{"items", 3, "options"}.
type Path = draft.Path

// EditMsg asks the panel to change its draft: set Value (a jsonv value) at
// Path, or delete the value at Path when Delete is true. Label names the edit
// for the undo history ("tools.allow").
type EditMsg struct {
	Path   Path
	Value  any
	Delete bool
	Label  string
	// Coalesce joins the edit to the previous one of the same label (a
	// run of typing is one undo step).
	Coalesce bool
}

// Context is what a form is built from. Draft (the raw tree, which a form
// edits by path) and Stack (its typed view, which a form reads) are shared
// and must be treated as immutable; Diagnostics are the panel's last
// validation of the draft. A nil Stack is parsed from Draft.
type Context struct {
	Com         *common.Common
	Draft       *jsonv.Object
	Stack       *preset.Stack
	Diagnostics preset.Diagnostics
	KnownTools  []string
	Library     *resources.Library
	Scope       preset.Scope
	// Memory keeps what forms remember across their re-creation for one
	// draft (the policy patterns of each mode); nil remembers nothing.
	Memory *Memory
}

// Memory is what forms remember for one open draft: the pattern list each
// policy mode last had, so cycling allow → deny → none → allow gives the
// allow patterns back.
type Memory struct {
	patterns map[string][]string
}

// remember stores list under key.
func (m *Memory) remember(key string, list []string) {
	if m == nil {
		return
	}
	if m.patterns == nil {
		m.patterns = map[string][]string{}
	}
	m.patterns[key] = append([]string(nil), list...)
}

// recall returns what key holds.
func (m *Memory) recall(key string) ([]string, bool) {
	if m == nil {
		return nil, false
	}
	list, ok := m.patterns[key]
	return list, ok
}

// Form is one editor form hosted by the Presets panel.
type Form interface {
	// Update handles a message routed to the form.
	Update(msg tea.Msg) (Form, tea.Cmd)
	// SetSize lays the form out for width×height cells, the size View is
	// then called with. The host calls it from Update: after building a
	// form and whenever the size it gives the form may have changed.
	SetSize(width, height int)
	// View renders the form in exactly width×height cells; it changes
	// nothing in the form.
	View(width, height int) string
	// CapturesInput is true while a text field has focus, so the panel
	// passes printable keys through instead of treating them as shortcuts.
	CapturesInput() bool
	// Title names the form ("Slot options · history").
	Title() string
	// ShortHelp lists the form's keys for the footer.
	ShortHelp() []key.Binding
}

// Cursor is a form's position, opaque to the panel: read it from the old
// form with CursorOf and pass it to the constructor with WithCursor.
type Cursor struct {
	// Row is the focused row (field, list entry or pattern).
	Row int
	// Detail is the focused row inside a detail pane (regex rule fields,
	// binding fields); 0 when the form has none.
	Detail int
	// Pane is the focused pane of two-pane forms (0 list, 1 detail).
	Pane int
}

// Option configures a form at construction.
type Option func(*options)

type options struct {
	cursor Cursor
	keys   *keymap.Forms
}

// WithKeys makes the form use km; without it a form uses the Forms keys
// of Context.Com (the user's bindings), else keymap.DefaultForms().
func WithKeys(km *keymap.Forms) Option {
	return func(o *options) { o.keys = km }
}

// WithCursor restores a cursor taken from a previous instance of the same
// form (see CursorOf); out-of-range values are clamped.
func WithCursor(c Cursor) Option {
	return func(o *options) { o.cursor = c }
}

// CursorOf returns the cursor of a form built by this package, or the zero
// Cursor for any other Form.
func CursorOf(f Form) Cursor {
	if c, ok := f.(interface{ cursor() Cursor }); ok {
		return c.cursor()
	}
	return Cursor{}
}

func applyOptions(opts []Option) options {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// edit returns the command that emits one EditMsg.
func edit(path Path, value any, label string) tea.Cmd {
	msg := EditMsg{Path: append(Path(nil), path...), Value: value, Label: label}
	return func() tea.Msg { return msg }
}

// remove returns the command that deletes the value at path.
func remove(path Path, label string) tea.Cmd {
	msg := EditMsg{Path: append(Path(nil), path...), Delete: true, Label: label}
	return func() tea.Msg { return msg }
}
