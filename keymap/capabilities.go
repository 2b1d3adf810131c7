package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Capabilities are the keys of the Capabilities panel (panel 2): the
// library list, the capability editor, the bindings view and the session
// actions (enable, enable-bound, disable, reset, add).
type Capabilities struct {
	Nav
	Open   key.Binding
	Back   key.Binding
	Filter key.Binding
	// New creates a capability; Delete removes the selected one.
	New    key.Binding
	Delete key.Binding
	Save   key.Binding
	// External hands the content being edited to $EDITOR.
	External key.Binding
	// Bindings switches the detail pane between the selected capability
	// and the bindings of the selected Preset.
	Bindings key.Binding
	// Session actions.
	Enable      key.Binding
	EnableBound key.Binding
	Disable     key.Binding
	Reset       key.Binding
	Add         key.Binding
	// Expand shows a card's whole frozen text; Toggle cycles a tool in the
	// picker (none → add → remove).
	Expand key.Binding
	Toggle key.Binding
	// ToolName types a tool the picker does not offer (an extension's
	// tool the session has not declared).
	ToolName key.Binding
	Reload   key.Binding
	// Cost shows what the capability under the cursor has cost: the
	// Payloads panel's cache breaks it caused.
	Cost key.Binding
	// Locate jumps from the session card under the cursor to the update
	// block its capability produced in the request at the followed entry
	// (the Payloads panel; the web editor's Locate).
	Locate key.Binding
	// Confirm and Cancel answer a preview or a question; Submit and
	// Dismiss answer a dialog that takes text.
	Confirm key.Binding
	Cancel  key.Binding
	Submit  key.Binding
	Dismiss key.Binding
	// NextField and PrevField move between the editor's fields.
	NextField key.Binding
	PrevField key.Binding
}

// DefaultCapabilities returns the stock Capabilities panel bindings: + and
// - enable and disable in the session, a adds (a capability, a tool by
// name), A adds the other kind (a manual directive), B enables a binding.
func DefaultCapabilities() Capabilities {
	return Capabilities{
		Nav:         DefaultNav(),
		Open:        bind([]string{"enter"}, "enter", i18n.Mark("open/edit")),
		Back:        bind([]string{"esc"}, "esc", i18n.Mark("back")),
		Filter:      bind([]string{"/"}, "/", i18n.Mark("filter")),
		New:         bind([]string{"a"}, "a", i18n.Mark("new capability")),
		Delete:      bind([]string{"x"}, "x", i18n.Mark("delete")),
		Save:        bind([]string{"ctrl+s"}, "ctrl+s", i18n.Mark("save")),
		External:    bind([]string{"ctrl+e"}, "ctrl+e", i18n.Mark("content in $EDITOR")),
		Bindings:    bind([]string{"b"}, "b", i18n.Mark("bindings/capability")),
		Enable:      bind([]string{"+"}, "+", i18n.Mark("enable in session")),
		EnableBound: bind([]string{"B"}, "B", i18n.Mark("enable binding")),
		Disable:     bind([]string{"-"}, "-", i18n.Mark("disable")),
		Reset:       bind([]string{"R"}, "R", i18n.Mark("reset all")),
		Add:         bind([]string{"A"}, "A", i18n.Mark("add directive")),
		Expand:      bind([]string{"space"}, "space", i18n.Mark("expand text")),
		Toggle:      bind([]string{"space"}, "space", i18n.Mark("cycle +add/-remove")),
		ToolName:    bind([]string{"a"}, "a", i18n.Mark("add a tool by name")),
		Reload:      bind([]string{"r"}, "r", i18n.Mark("reload")),
		Cost:        bind([]string{"$"}, "$", i18n.Mark("what has this cost")),
		Locate:      bind([]string{">"}, ">", i18n.Mark("locate in the request")),
		Confirm:     bind([]string{"y", "enter"}, "y", i18n.Mark("confirm")),
		Cancel:      bind([]string{"n", "esc"}, "n/esc", i18n.Mark("cancel")),
		Submit:      bind([]string{"enter"}, "enter", i18n.Mark("accept")),
		Dismiss:     bind([]string{"esc"}, "esc", i18n.Mark("cancel")),
		NextField:   bind([]string{"tab"}, "tab", i18n.Mark("next field")),
		PrevField:   bind([]string{"shift+tab"}, "shift+tab", i18n.Mark("previous field")),
	}
}

// Named exposes the bindings under the stable names used by overrides.
func (c *Capabilities) Named() map[string]*key.Binding {
	return c.Nav.addNamed("capabilities.", map[string]*key.Binding{
		"capabilities.open": &c.Open, "capabilities.back": &c.Back, "capabilities.filter": &c.Filter,
		"capabilities.new": &c.New, "capabilities.delete": &c.Delete, "capabilities.save": &c.Save,
		"capabilities.external": &c.External, "capabilities.bindings": &c.Bindings,
		"capabilities.enable": &c.Enable, "capabilities.enable-bound": &c.EnableBound,
		"capabilities.disable": &c.Disable, "capabilities.reset": &c.Reset, "capabilities.add": &c.Add,
		"capabilities.expand": &c.Expand, "capabilities.toggle": &c.Toggle, "capabilities.tool-name": &c.ToolName, "capabilities.reload": &c.Reload, "capabilities.cost": &c.Cost, "capabilities.locate": &c.Locate,
		"capabilities.confirm": &c.Confirm, "capabilities.cancel": &c.Cancel,
		"capabilities.submit": &c.Submit, "capabilities.dismiss": &c.Dismiss,
		"capabilities.next-field": &c.NextField, "capabilities.prev-field": &c.PrevField,
	})
}
