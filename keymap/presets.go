package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Presets are the keys of the Presets panel (panel 1): the preset list,
// the item list, the inline block editor and forms, the preview dock and
// the profiles view.
type Presets struct {
	Nav
	Open      key.Binding
	Back      key.Binding
	Toggle    key.Binding
	MoveUp    key.Binding
	MoveDown  key.Binding
	AddBlock  key.Binding
	AddSlot   key.Binding
	Duplicate key.Binding
	Delete    key.Binding
	Edit      key.Binding
	Save      key.Binding
	Fork      key.Binding
	New       key.Binding
	Undo      key.Binding
	// Redo re-applies the last undone edit.
	Redo    key.Binding
	Preview key.Binding
	// Item opens the properties of the item under the cursor (name, id,
	// role, enabled).
	Item key.Binding
	// Import creates a Preset from a native pi-forge JSON file.
	Import key.Binding
	// Scope switches the scope of a Preset or profile being created.
	Scope key.Binding
	// ShowDiff and Overwrite answer a save refused by a change on disk.
	ShowDiff  key.Binding
	Overwrite key.Binding
	// DraftDiff compares the unsaved draft with the saved Preset, both
	// compiled at the selected entry.
	DraftDiff key.Binding
	Profiles  key.Binding
	// RawJSON switches the profile editor between its form and the whole
	// file as JSON (the Preset's is the Advanced row).
	RawJSON key.Binding
	Reload  key.Binding
	// Use applies what is under the cursor to the selected session at its
	// leaf (a profile in the profiles view, a Preset in the list), Forget
	// appends the forgetting of the last applied profile and Capture
	// saves the selected entry's runtime as a new profile; each shows
	// pi-forge's preflight before anything is written.
	Use     key.Binding
	Forget  key.Binding
	Capture key.Binding
	// Export writes the open draft to a new file under a new id (the
	// file's name), or shows it as preset show --json prints it.
	Export key.Binding
	// Diagnostics shows every diagnostic of the workspace; Macro supplies
	// an extension macro's value for the preview.
	Diagnostics key.Binding
	Macro       key.Binding
	// Cost shows what the Preset item under the cursor has cost: the
	// Payloads panel lists the cache breaks it caused.
	Cost    key.Binding
	Confirm key.Binding
	Cancel  key.Binding
	// Submit and Dismiss answer a dialog that takes text or a choice (the
	// id prompt of new and fork, the slot picker), where y and n are not
	// answers.
	Submit  key.Binding
	Dismiss key.Binding
}

// DefaultPresets returns the stock Presets panel bindings.
func DefaultPresets() Presets {
	return Presets{
		Nav:         DefaultNav(),
		Open:        bind([]string{"enter"}, "enter", i18n.Mark("open")),
		Back:        bind([]string{"esc"}, "esc", i18n.Mark("back")),
		Toggle:      bind([]string{"space"}, "space", i18n.Mark("enable/disable")),
		MoveUp:      bind([]string{"K", "alt+up"}, "K", i18n.Mark("move up")),
		MoveDown:    bind([]string{"J", "alt+down"}, "J", i18n.Mark("move down")),
		AddBlock:    bind([]string{"a"}, "a", i18n.Mark("add block")),
		AddSlot:     bind([]string{"A"}, "A", i18n.Mark("add slot")),
		Duplicate:   bind([]string{"d"}, "d", i18n.Mark("duplicate")),
		Delete:      bind([]string{"x"}, "x", i18n.Mark("delete")),
		Edit:        bind([]string{"e"}, "e", i18n.Mark("edit in $EDITOR")),
		Save:        bind([]string{"ctrl+s"}, "ctrl+s", i18n.Mark("save")),
		Fork:        bind([]string{"S"}, "S", i18n.Mark("fork")),
		New:         bind([]string{"a"}, "a", i18n.Mark("new preset")),
		Undo:        bind([]string{"u"}, "u", i18n.Mark("undo")),
		Redo:        bind([]string{"U", "ctrl+r"}, "U", i18n.Mark("redo")),
		Item:        bind([]string{"i"}, "i", i18n.Mark("item properties")),
		Import:      bind([]string{"I"}, "I", i18n.Mark("import JSON")),
		Scope:       bind([]string{"tab"}, "tab", i18n.Mark("switch scope")),
		ShowDiff:    bind([]string{"D"}, "D", i18n.Mark("show difference")),
		Overwrite:   bind([]string{"O"}, "O", i18n.Mark("overwrite")),
		Preview:     bind([]string{"P"}, "P", i18n.Mark("preview")),
		DraftDiff:   bind([]string{"D"}, "D", i18n.Mark("draft diff")),
		Profiles:    bind([]string{"p"}, "p", i18n.Mark("profiles")),
		RawJSON:     bind([]string{"m"}, "m", i18n.Mark("raw JSON")),
		Reload:      bind([]string{"r"}, "r", i18n.Mark("reload")),
		Use:         bind([]string{"+"}, "+", i18n.Mark("use in the session")),
		Forget:      bind([]string{"-"}, "-", i18n.Mark("forget applied profile")),
		Capture:     bind([]string{"c"}, "c", i18n.Mark("profile from entry")),
		Export:      bind([]string{"w"}, "w", i18n.Mark("export draft")),
		Diagnostics: bind([]string{"!"}, "!", i18n.Mark("workspace diagnostics")),
		Macro:       bind([]string{"X"}, "X", i18n.Mark("extension macro value")),
		Cost:        bind([]string{"$"}, "$", i18n.Mark("what has this cost")),
		Confirm:     bind([]string{"y", "enter"}, "y", i18n.Mark("confirm")),
		Cancel:      bind([]string{"n", "esc"}, "n/esc", i18n.Mark("cancel")),
		Submit:      bind([]string{"enter"}, "enter", i18n.Mark("accept")),
		Dismiss:     bind([]string{"esc"}, "esc", i18n.Mark("cancel")),
	}
}

// Named exposes the bindings under the stable names used by overrides.
func (p *Presets) Named() map[string]*key.Binding {
	return p.Nav.addNamed("presets.", map[string]*key.Binding{
		"presets.open": &p.Open, "presets.back": &p.Back, "presets.toggle": &p.Toggle,
		"presets.move-up": &p.MoveUp, "presets.move-down": &p.MoveDown,
		"presets.add-block": &p.AddBlock, "presets.add-slot": &p.AddSlot,
		"presets.duplicate": &p.Duplicate, "presets.delete": &p.Delete, "presets.edit": &p.Edit,
		"presets.save": &p.Save, "presets.fork": &p.Fork, "presets.new": &p.New,
		"presets.undo": &p.Undo, "presets.redo": &p.Redo, "presets.item": &p.Item, "presets.import": &p.Import,
		"presets.scope": &p.Scope, "presets.show-diff": &p.ShowDiff, "presets.overwrite": &p.Overwrite, "presets.preview": &p.Preview, "presets.draft-diff": &p.DraftDiff, "presets.profiles": &p.Profiles, "presets.raw-json": &p.RawJSON,
		"presets.reload": &p.Reload, "presets.use": &p.Use, "presets.forget": &p.Forget, "presets.capture": &p.Capture, "presets.export": &p.Export, "presets.diagnostics": &p.Diagnostics, "presets.macro": &p.Macro, "presets.cost": &p.Cost, "presets.confirm": &p.Confirm, "presets.cancel": &p.Cancel,
		"presets.submit": &p.Submit, "presets.dismiss": &p.Dismiss,
	})
}
