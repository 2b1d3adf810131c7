package keymap

import "github.com/forgebench/forgebench/i18n"

// The scope model: which bindings are live at the same moment.
//
// A key press reaches exactly one view, and inside it one switch of
// bindings; two bindings that share a key in one such view cannot both
// work (the first checked wins, the other never sees the key). Bindings
// of views that are never on screen together may share keys freely:
// "x" deletes in the Presets list and swaps A/B in the Payloads panel.
//
// The views, as the root (ui.Model.handleKey) and the panels route keys:
//
//   - The root's keys (Root: quit, help, palette, find, next-pane,
//     prev-pane and the five panel switches) come first whenever the
//     active panel does not capture input, so they share a scope with
//     every key of every panel view that does not capture input. ctrl+c
//     always quits, before everything but the quit question.
//   - A panel view is one state of one panel: its pane with focus, a
//     dialog, a sub-view (the Agents transcript, the Payloads requests
//     list, the Presets draft diff or profiles view). Keys a sub-view
//     owns are checked only while it is showing, so they are a scope of
//     their own, together with the panel keys that stay live there.
//   - A view with a focused text input (a filter, a search or prompt
//     line, a form field being edited, the palette, the global search)
//     captures input: the root's keys are off, its own command keys come
//     first and the text-editing keys (form.text.*; the one-line subset in
//     one-line inputs) take the rest. Any key that types a character
//     ("a", "?", "space") types it there, so a command binding on such a
//     key conflicts with typing.
//   - The help overlay, the quit question, the palette and the global
//     search take every key while open.
//
// Same lists bindings that do the same thing in a view (help, back and
// quit all close the help overlay), so sharing a key there loses nothing.
// Yield lists the few overlaps the default keys make on purpose, each for
// one key only: in the global search ctrl+a toggles agent transcripts
// rather than moving to the line start (home still does). A user's
// override that makes any other overlap is a conflict.

// Scope is one set of bindings that are live together.
type Scope struct {
	// Name says where, for messages ("the Agents transcript").
	Name string
	// Bindings are the names (as in Set.Named) live in this view.
	Bindings []string
	// Text is true when a text input has the keyboard: keys that type a
	// character type it, so no command may take them.
	Text bool
	// Same are groups of bindings that do the same thing here.
	Same [][]string
	// Yield are overlaps of the default keys made on purpose.
	Yield []Yield
}

// Yield is a key two bindings of one scope share on purpose: First takes
// Key and Then keeps its other keys.
type Yield struct {
	First, Then, Key string
}

// Root are the bindings the root handles before the active panel while
// that panel does not capture input.
var Root = []string{"quit", "help", "palette", "find", "next-pane", "prev-pane",
	"panel-presets", "panel-capabilities", "panel-session", "panel-payloads", "panel-agents"}

// Inert are names a settings file may rebind that no view reads today
// (the global edit, reload and expand: each panel has its own). They are
// in no scope, so they conflict with nothing.
var Inert = []string{"edit", "reload", "expand"}

// QuitKey is the key the root always reads as quit (through the quit
// guard), whatever the bindings say; only the quit question sees it first.
const QuitKey = "ctrl+c"

// oneLineText are the text-editing keys of a one-line input (the kit's
// textinput and LineInput: common.ApplyTextKeys).
var oneLineText = []string{
	"form.text.left", "form.text.right", "form.text.word-left", "form.text.word-right",
	"form.text.delete-word-before", "form.text.delete-word-after", "form.text.kill-to-end",
	"form.text.kill-to-start", "form.text.delete-before", "form.text.delete-after",
	"form.text.line-start", "form.text.line-end", "form.text.paste",
}

// multiLineText are the keys of the forms' multi-line editor (the raw
// JSON view); it reads every form.text key but paste.
var multiLineText = []string{
	"form.text.left", "form.text.right", "form.text.up", "form.text.down",
	"form.text.page-up", "form.text.page-down", "form.text.line-start", "form.text.line-end",
	"form.text.top", "form.text.bottom", "form.text.newline", "form.text.indent",
	"form.text.delete-before", "form.text.delete-after", "form.text.kill-to-end",
	"form.text.kill-to-start", "form.text.word-left", "form.text.word-right",
	"form.text.delete-word-before", "form.text.delete-word-after",
}

// with joins name lists into one.
func with(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// prefixed names the bindings of one group: prefixed("agents.", "up") is
// "agents.up".
func prefixed(prefix string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// navNames are the six navigation keys of a group's Nav.
var navNames = []string{"up", "down", "page-up", "page-down", "top", "bottom"}

// Focused are the keys every panel view gives the thing under its focus
// (docs/KEYS.md): copy it, view it whole, open it in $PAGER.
var Focused = []string{"copy", "view-whole", "pager"}

// Yields of the default keys inside text inputs: a view's command takes a
// control key the one-line editor also reads, which keeps another key.
var (
	// ctrl+u empties a search or filter line (readline's kill to the start, from anywhere in the line)
	yieldClearLine = Yield{First: "search.clear", Then: "form.text.kill-to-start", Key: "ctrl+u"}
	// ctrl+u empties the query of the global search
	yieldFindClear = Yield{First: "find.clear", Then: "form.text.kill-to-start", Key: "ctrl+u"}
	// ctrl+a toggles agent transcripts in the global search; home moves to the line start
	yieldFindAgents = Yield{First: "find.agents", Then: "form.text.line-start", Key: "ctrl+a"}
	// ctrl+e hands the capability to $EDITOR; end moves to the line end
	yieldExternal = Yield{First: "capabilities.external", Then: "form.text.line-end", Key: "ctrl+e"}
)

// searchLine is the scope of every search, filter and prompt line the kit
// draws (common.LineInput.PromptKey, common.List.FilterInput): the
// Session panel's search, filter and go-to-entry lines.
var searchLine = Scope{
	Name:     i18n.Mark("a search, filter or prompt line"),
	Bindings: with([]string{"search.accept", "search.cancel", "search.clear"}, oneLineText),
	Text:     true,
	Yield:    []Yield{yieldClearLine},
}

// Scopes returns every view's scope, the model Conflicts checks.
func Scopes() []Scope {
	var out []Scope
	out = append(out, rootScopes()...)
	out = append(out, sessionScopes()...)
	out = append(out, agentsScopes()...)
	out = append(out, payloadsScopes()...)
	out = append(out, capabilitiesScopes()...)
	out = append(out, presetsScopes()...)
	out = append(out, formScopes()...)
	return out
}

// rootScopes are the views the root draws over every panel.
func rootScopes() []Scope {
	return []Scope{
		{Name: i18n.Mark("the view-whole overlay"), Bindings: with([]string{"back", "view-whole", "quit", "copy", "pager"}, prefixed("", navNames...)),
			Same: [][]string{{"back", "view-whole", "quit"}}},
		{Name: i18n.Mark("the help overlay"), Bindings: []string{"help", "back", "quit", "up", "down", "page-up", "page-down"},
			Same: [][]string{{"help", "back", "quit"}}},
		{Name: i18n.Mark("the quit question"), Bindings: []string{"confirm.yes", "confirm.no"}},
		{Name: i18n.Mark("the command palette"), Bindings: with(prefixed("palette.", "up", "down", "run", "close"), oneLineText), Text: true},
		{Name: i18n.Mark("the global search"), Text: true,
			Bindings: with(prefixed("find.", "up", "down", "page-up", "page-down", "open", "close", "clear",
				"regex", "case", "agents", "all-projects"), oneLineText),
			Yield: []Yield{yieldFindClear, yieldFindAgents}},
		searchLine,
	}
}

// panelView is a scope of a panel view that does not capture input: the
// root's keys come first.
func panelView(name string, bindings ...[]string) Scope {
	return Scope{Name: name, Bindings: with(append([][]string{Root}, bindings...)...)}
}

// sessionScopes: the Session panel (ui/sessions) checks one switch for
// every pane; its search, filter and go-to lines are searchLine.
func sessionScopes() []Scope {
	return []Scope{
		panelView(i18n.Mark("the Session panel"), prefixed("session.", append([]string{"open", "back", "filter", "scope", "fold",
			"unfold", "tree-filter", "expand", "thinking", "context", "stats", "follow", "reload", "goto-entry",
			"to-leaf", "copy-context", "pi-context", "skipped", "matches-only", "continue-in-pi", "mark", "compare",
			"composition"}, navNames...)...),
			Focused, []string{"search.next", "search.prev"}),
	}
}

// agentsScopes: the Agents panel (ui/agents): the dashboard's list and
// detail, the narrow full-width detail, the transcript.
func agentsScopes() []Scope {
	a := func(names ...string) []string { return prefixed("agents.", names...) }
	nav := a(navNames...)
	return []Scope{
		panelView(i18n.Mark("the Agents list"), a("reload", "lifecycle", "hidden", "transcript", "open", "timeline"), nav, Focused),
		panelView(i18n.Mark("the Agents detail"), a("reload", "lifecycle", "hidden", "transcript", "open", "back", "timeline"), nav, Focused),
		panelView(i18n.Mark("the Agents timeline"), a("reload", "open", "back", "timeline"), nav, Focused),
		{
			Name:     i18n.Mark("the Agents transcript"),
			Bindings: with(Root, a("back", "follow", "earlier", "expand"), nav, Focused),
			// end in a transcript goes to the newest page and follows it; G goes to the bottom
			Yield: []Yield{{First: "agents.follow", Then: "agents.bottom", Key: "end"}},
		},
	}
}

// payloadsScopes: the Payloads panel (ui/payloads and the request diff
// of ui/components/requestdiff).
func payloadsScopes() []Scope {
	p := func(names ...string) []string { return prefixed("payloads.", names...) }
	nav := p(navNames...)
	diff := p("pick-a", "pick-b", "swap", "reload", "requests", "jump", "layout", "context", "wrap",
		"next-change", "prev-change")
	return []Scope{
		panelView(i18n.Mark("the Payloads block list"), diff, p("open"), nav, Focused),
		panelView(i18n.Mark("the Payloads line diff"), diff, p("back"), nav, Focused),
		panelView(i18n.Mark("the Payloads reference picker"), p("back", "open"), nav, []string{"filter"}),
		{Name: i18n.Mark("the Payloads reference picker's typed reference"), Bindings: with(p("open", "back"), oneLineText), Text: true},
		{Name: i18n.Mark("a Payloads list filter"), Bindings: with(p("open", "back"), oneLineText), Text: true},
		{
			Name:     i18n.Mark("the Payloads requests list"),
			Bindings: with(Root, p("back", "requests", "reload", "open"), nav, []string{"filter"}, Focused),
			Same:     [][]string{{"payloads.back", "payloads.requests"}},
		},
	}
}

// capabilitiesScopes: the Capabilities panel (ui/capabilities).
func capabilitiesScopes() []Scope {
	c := func(names ...string) []string { return prefixed("capabilities.", names...) }
	panel := c("reload", "bindings", "enable-bound", "add", "reset")
	return []Scope{
		panelView(i18n.Mark("the Capabilities library"), panel, c(navNames...), c("filter", "open", "new", "delete", "enable", "cost"), Focused),
		panelView(i18n.Mark("the Capabilities detail"), panel, c("up", "down", "page-up", "page-down", "top", "open", "enable"), Focused),
		panelView(i18n.Mark("the Capabilities bindings view"), panel, c("up", "down", "enable"), Focused),
		panelView(i18n.Mark("the Capabilities session pane"), panel, c("up", "down", "top", "bottom", "expand", "disable", "enable", "locate"), Focused),
		{
			// Tab is the root's next-pane, which moves the editor's field.
			Name:     i18n.Mark("the capability editor's tool picker"),
			Bindings: with(Root, c("save", "external", "next-field", "prev-field", "back", "up", "down", "toggle", "tool-name")),
			Same:     [][]string{{"next-pane", "capabilities.next-field"}, {"prev-pane", "capabilities.prev-field"}},
		},
		{Name: i18n.Mark("the capability editor's text fields"), Text: true,
			Bindings: with(c("save", "external", "next-field", "prev-field", "back"), oneLineText),
			Yield:    []Yield{yieldExternal}},
		{Name: i18n.Mark("the Capabilities write preview"), Bindings: c("confirm", "cancel", "dismiss", "up", "down", "page-up", "page-down", "top", "bottom"),
			Same: [][]string{{"capabilities.cancel", "capabilities.dismiss"}}},
		{Name: i18n.Mark("a Capabilities question"), Bindings: c("confirm", "cancel")},
		{Name: i18n.Mark("the Capabilities binding chooser"), Bindings: c("up", "down", "submit", "dismiss")},
		{Name: i18n.Mark("a Capabilities text dialog or filter"), Bindings: with(c("submit", "dismiss"), oneLineText), Text: true},
	}
}

// presetsScopes: the Presets panel (ui/presets) outside its forms.
func presetsScopes() []Scope {
	p := func(names ...string) []string { return prefixed("presets.", names...) }
	nav := p(navNames...)
	// panel are the keys presets.Model.panelKey reads in every pane of a
	// Preset (not in a form, which takes them as its own); new is the
	// list's (a adds what the focused list holds).
	panel := with(Focused, p("save", "profiles", "reload", "preview", "import", "draft-diff",
		"undo", "redo", "fork", "export", "diagnostics", "macro"))
	open := [][]string{{"presets.open", "select"}}
	diff := prefixed("payloads.", "layout", "context", "wrap", "next-change", "prev-change", "up", "down",
		"page-up", "page-down", "top", "bottom")
	return []Scope{
		panelView(i18n.Mark("the Presets list"), panel, nav, p("delete", "open", "new", "use"), []string{"filter"}),
		{
			Name: i18n.Mark("the Presets item list"),
			Bindings: with(Root, panel, nav, []string{"select"}, p("open", "edit", "back", "add-block", "add-slot",
				"item", "toggle", "move-up", "move-down", "duplicate", "delete", "cost")),
			Same: open,
		},
		{Name: i18n.Mark("the Presets block view"), Bindings: with(Root, panel, []string{"select"}, p("back", "open", "edit")), Same: open},
		panelView(i18n.Mark("the Presets preview"), panel, p("back"), nav),
		{Name: i18n.Mark("the Presets inline block editor"), Bindings: p("save", "back"), Text: true},
		{Name: i18n.Mark("the Presets list filter"), Bindings: with(p("open", "back"), oneLineText), Text: true},
		{Name: i18n.Mark("a Presets question"), Bindings: p("confirm", "cancel")},
		{Name: i18n.Mark("the Presets save conflict"), Bindings: p("show-diff", "up", "down", "page-up", "page-down", "fork",
			"reload", "overwrite", "dismiss")},
		{Name: i18n.Mark("the Presets slot picker"), Bindings: with(nav, p("submit", "dismiss"))},
		{Name: i18n.Mark("a Presets id prompt"), Bindings: with(p("scope", "submit", "dismiss"), oneLineText), Text: true},
		panelView(i18n.Mark("the draft diff's block list"), diff, []string{"payloads.open"}, p("back", "draft-diff"), Focused),
		{
			Name:     i18n.Mark("the draft diff's line diff"),
			Bindings: with(Root, diff, []string{"payloads.back"}, p("back", "draft-diff"), Focused),
			// esc steps back one level: from the line diff to the blocks, then to the Preset
			Yield: []Yield{{First: "payloads.back", Then: "presets.back", Key: "esc"}},
		},
		panelView(i18n.Mark("the profiles list"), nav, Focused, p("save", "raw-json", "undo", "item", "edit", "new", "fork", "delete",
			"back", "open", "profiles", "reload", "import", "draft-diff", "use", "forget", "capture", "diagnostics", "macro")),
	}
}

// formScopes: the forms of the Presets panel's editor pane and of the
// profile editor (ui/components/forms). Outside a text field the panel keeps
// save, esc (presets.back), undo and redo (the profile editor: save, its
// raw JSON switch, esc, undo and e) and the form takes every other key; a
// form's own esc (form.cancel) acts only while it captures input. Save
// works in every form state.
func formScopes() []Scope {
	f := func(names ...string) []string { return prefixed("form.", names...) }
	presetKept := []string{"presets.save", "presets.back", "presets.undo", "presets.redo"}
	profileKept := []string{"presets.save", "presets.raw-json", "presets.back", "presets.undo", "presets.edit"}
	form := func(name string, bindings ...[]string) Scope {
		return Scope{Name: name, Bindings: with(append([][]string{Root, presetKept}, bindings...)...)}
	}
	fields := f("up", "down", "top", "bottom", "reset", "toggle", "edit", "cycle", "cycle-back")
	raw := f("up", "down", "page-up", "page-down", "top", "bottom", "edit")
	return []Scope{
		form(i18n.Mark("a form's fields"), fields),
		{
			// The parameters and slot options forms: a field list whose
			// reset and delete both remove the field under the cursor.
			Name:     i18n.Mark("a form's fields with add and delete"),
			Bindings: with(Root, presetKept, fields, f("add", "rename", "delete")),
			Same:     [][]string{{"form.reset", "form.delete"}},
		},
		form(i18n.Mark("the tool policy form"), f("up", "down", "top", "bottom", "page-up", "page-down", "mode", "toggle",
			"edit", "cycle", "cycle-back", "add", "delete", "move-up", "move-down")),
		// The regex rules and capability bindings: an entry list and the
		// entry's fields, where ←/→ move between the two panes.
		form(i18n.Mark("a form's entry list"), f("up", "down", "top", "bottom", "delete", "move-up", "move-down", "add",
			"detail", "edit", "toggle", "pick")),
		form(i18n.Mark("a form's entry fields"), f("up", "down", "top", "bottom", "reset", "toggle", "edit", "list", "pick")),
		form(i18n.Mark("the raw JSON view"), raw, []string{"presets.edit"}),
		{Name: i18n.Mark("the profile form"), Bindings: with(Root, profileKept, fields)},
		{Name: i18n.Mark("the profile's raw JSON view"), Bindings: with(Root, profileKept, raw)},
		{Name: i18n.Mark("the capability picker of the bindings form"), Bindings: with([]string{"presets.save"}, f("cancel", "list", "up", "down", "commit", "toggle")),
			Same: [][]string{{"form.cancel", "form.list"}, {"form.commit", "form.toggle"}}},
		{Name: i18n.Mark("a form field being edited"), Bindings: with([]string{"presets.save"}, f("commit", "cancel", "field-prev", "field-next"), oneLineText), Text: true},
		{Name: i18n.Mark("a form's prompt"), Bindings: with([]string{"presets.save"}, f("commit", "cancel"), oneLineText), Text: true},
		{Name: i18n.Mark("the raw JSON editor"), Bindings: with([]string{"presets.save"}, f("cancel"), multiLineText), Text: true},
	}
}
