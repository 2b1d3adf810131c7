package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Agents are the keys of the Agents panel (panel 5), after pi-subagent's
// /subagents dashboard: select an agent, scroll the focused pane, open the
// details (narrow layout) or expand the task preview, the read-only
// transcript with its earlier pages, follow and tool-output expansion, and
// the Open/Closed lifecycle filter.
type Agents struct {
	Nav
	Open       key.Binding
	Back       key.Binding
	Transcript key.Binding
	// Lifecycle switches the list between open (with closing) and closed
	// agents.
	Lifecycle key.Binding
	// Hidden also lists agents registered on abandoned branches.
	Hidden key.Binding
	// Follow jumps to the newest transcript page and follows the file.
	Follow key.Binding
	// Earlier loads the previous transcript page.
	Earlier key.Binding
	// Expand shows tool output in full (Pi binds ctrl+o to it).
	Expand key.Binding
	// Timeline draws every agent of the tree as a bar on one time axis.
	Timeline key.Binding
	Reload   key.Binding
}

// DefaultAgents returns the stock Agents panel bindings.
func DefaultAgents() Agents {
	return Agents{
		Nav:        DefaultNav(),
		Open:       bind([]string{"enter"}, "enter", i18n.Mark("details/expand task")),
		Back:       bind([]string{"esc"}, "esc", i18n.Mark("back")),
		Transcript: bind([]string{"t"}, "t", i18n.Mark("transcript")),
		Lifecycle:  bind([]string{"f"}, "f", i18n.Mark("open/closed")),
		Hidden:     bind([]string{"*"}, "*", i18n.Mark("hidden agents")),
		Follow:     bind([]string{"F", "end"}, "F/end", i18n.Mark("newest + follow")),
		Earlier:    bind([]string{"p"}, "p", i18n.Mark("earlier page")),
		Expand:     bind([]string{"space", "ctrl+o"}, "space", i18n.Mark("expand tools")),
		Reload:     bind([]string{"r"}, "r", i18n.Mark("reload")),
		Timeline:   bind([]string{"T"}, "T", i18n.Mark("timeline")),
	}
}

// Named exposes the bindings under the stable names used by overrides.
func (a *Agents) Named() map[string]*key.Binding {
	return a.Nav.addNamed("agents.", map[string]*key.Binding{
		"agents.open": &a.Open, "agents.back": &a.Back, "agents.transcript": &a.Transcript,
		"agents.lifecycle": &a.Lifecycle, "agents.hidden": &a.Hidden, "agents.follow": &a.Follow,
		"agents.earlier": &a.Earlier, "agents.expand": &a.Expand, "agents.reload": &a.Reload,
		"agents.timeline": &a.Timeline,
	})
}
