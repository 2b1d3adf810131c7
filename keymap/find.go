package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Find are the keys of the global search view (issue 16): Global.Find
// opens it from anywhere; inside, typed text is the query, so only
// control keys act. Its options mirror `forgebench search`'s flags.
type Find struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	// Open moves the shared selection to the hit under the cursor.
	Open key.Binding
	// Close leaves the view (the results stay for the next opening).
	Close key.Binding
	// Clear empties the query.
	Clear key.Binding
	// Regex, Case, Agents and AllProjects toggle --regex,
	// --case-sensitive, --agents and --all-projects.
	Regex       key.Binding
	Case        key.Binding
	Agents      key.Binding
	AllProjects key.Binding
}

// DefaultFind returns the stock bindings of the search view.
func DefaultFind() Find {
	return Find{
		Up:          bind([]string{"up", "ctrl+p"}, "↑", i18n.Mark("previous hit")),
		Down:        bind([]string{"down", "ctrl+n"}, "↓", i18n.Mark("next hit")),
		PageUp:      bind([]string{"pgup"}, "pgup", i18n.Mark("page up")),
		PageDown:    bind([]string{"pgdown"}, "pgdn", i18n.Mark("page down")),
		Open:        bind([]string{"enter"}, "enter", i18n.Mark("go to hit")),
		Close:       bind([]string{"esc"}, "esc", i18n.Mark("close")),
		Clear:       bind([]string{"ctrl+u"}, "ctrl+u", i18n.Mark("clear query")),
		Regex:       bind([]string{"ctrl+r"}, "ctrl+r", i18n.Mark("regex")),
		Case:        bind([]string{"ctrl+t"}, "ctrl+t", i18n.Mark("match case")),
		Agents:      bind([]string{"ctrl+a"}, "ctrl+a", i18n.Mark("agent transcripts")),
		AllProjects: bind([]string{"ctrl+o"}, "ctrl+o", i18n.Mark("all projects")),
	}
}

// Named exposes the search view's keys for overrides.
func (f *Find) Named() map[string]*key.Binding {
	return map[string]*key.Binding{
		"find.up": &f.Up, "find.down": &f.Down, "find.page-up": &f.PageUp, "find.page-down": &f.PageDown,
		"find.open": &f.Open, "find.close": &f.Close, "find.clear": &f.Clear, "find.regex": &f.Regex,
		"find.case": &f.Case, "find.agents": &f.Agents, "find.all-projects": &f.AllProjects,
	}
}

// ShortHelp is the search view's footer, the most needed first.
func (f *Find) ShortHelp() []key.Binding {
	return []key.Binding{f.Open, f.Close, f.Up, f.Down, f.Regex, f.Case, f.Agents, f.AllProjects}
}
