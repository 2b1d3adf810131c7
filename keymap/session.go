package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Session are the keys of the Session panel (panel 3): moving in its
// lists, folding the branch tree, opening an entry, and switching the
// detail pane between the entry, the rebuilt context and the stats.
type Session struct {
	Nav
	Open key.Binding
	Back key.Binding
	// Filter narrows the picker; in the timeline and the tree the same key
	// searches the session (its text, and like Pi's /tree search the
	// kind, id, summary and label) and the shared Search keys step through
	// the matches.
	Filter key.Binding
	// Scope switches the picker between this project and all projects.
	Scope  key.Binding
	Fold   key.Binding
	Unfold key.Binding
	// TreeFilter cycles the tree's display modes (default, all, user
	// messages only, labeled only), like Pi's /tree filters.
	TreeFilter key.Binding
	Expand     key.Binding
	Thinking   key.Binding
	Context    key.Binding
	Stats      key.Binding
	Follow     key.Binding
	Reload     key.Binding
	// GotoEntry asks for an entry id (or a unique prefix) and selects it.
	GotoEntry key.Binding
	// ToLeaf selects the session's current leaf again.
	ToLeaf key.Binding
	// CopyContext copies the request at the entry as the provider
	// received it, or what the Context view shows (Global.Copy copies the
	// entry's text).
	CopyContext key.Binding
	// PiContext switches the Context view between the request as sent
	// (pi-forge's rewrite included) and Pi's own context.
	PiContext key.Binding
	// Skipped lists the lines of the file the reader dropped, and why.
	Skipped key.Binding
	// MatchesOnly narrows the timeline to the entries the search matches
	// (and back).
	MatchesOnly key.Binding
	// ContinueInPi forks the session at the selected entry as Pi's /fork
	// does (after a confirmation) and hands the new session to Pi.
	ContinueInPi key.Binding
	// Mark marks the selected entry as one side of a branch comparison
	// (and unmarks it); Compare compares the marked entry with the
	// selected one: the two branches after their fork point, then the
	// request at each through the Payloads panel's diff.
	Mark    key.Binding
	Compare key.Binding
	// Composition shows what fills the request at the selected entry:
	// system prompt, tools, history, tool results… as one stacked bar.
	Composition key.Binding
}

// DefaultSession returns the stock Session panel bindings. Fold and unfold
// follow Pi's /tree habits (left/right, or h/l for vi users); thinking and
// tool output take Pi's own keys (ctrl+t, ctrl+o; space expands too).
func DefaultSession() Session {
	return Session{
		Nav:         DefaultNav(),
		Open:        bind([]string{"enter"}, "enter", i18n.Mark("open/select")),
		Back:        bind([]string{"esc"}, "esc", i18n.Mark("back")),
		Filter:      bind([]string{"/"}, "/", i18n.Mark("filter")),
		Scope:       bind([]string{"*"}, "*", i18n.Mark("all projects")),
		Fold:        bind([]string{"left", "h"}, "←/h", i18n.Mark("fold")),
		Unfold:      bind([]string{"right", "l"}, "→/l", i18n.Mark("unfold")),
		TreeFilter:  bind([]string{"f"}, "f", i18n.Mark("tree filter")),
		Expand:      bind([]string{"space", "ctrl+o"}, "space", i18n.Mark("expand tools")),
		Thinking:    bind([]string{"ctrl+t"}, "ctrl+t", i18n.Mark("thinking")),
		Context:     bind([]string{"c"}, "c", i18n.Mark("context here")),
		Stats:       bind([]string{"s"}, "s", i18n.Mark("stats")),
		Follow:      bind([]string{"F"}, "F", i18n.Mark("follow")),
		Reload:      bind([]string{"r"}, "r", i18n.Mark("reload")),
		GotoEntry:   bind([]string{"#"}, "#", i18n.Mark("go to entry id")),
		ToLeaf:      bind([]string{"L"}, "L", i18n.Mark("back to leaf")),
		CopyContext: bind([]string{"Y"}, "Y", i18n.Mark("copy request as sent")),
		PiContext:   bind([]string{"p"}, "p", i18n.Mark("as sent/Pi's context")),
		Skipped:     bind([]string{"!"}, "!", i18n.Mark("skipped lines")),
		MatchesOnly: bind([]string{"m"}, "m", i18n.Mark("matches only")),
		// C is free in every view of this panel and in the key grammar
		// being rewritten (docs/KEYS.md of issue 21's branch).
		ContinueInPi: bind([]string{"C"}, "C", i18n.Mark("continue in Pi")),
		// m is "matches only" in this same view (docs/KEYS.md): the mark
		// takes its capital. D is the grammar's diff verb.
		Mark:        bind([]string{"M"}, "M", i18n.Mark("mark to compare")),
		Compare:     bind([]string{"D"}, "D", i18n.Mark("compare with mark")),
		Composition: bind([]string{"%"}, "%", i18n.Mark("composition")),
	}
}

// Named exposes the bindings under the stable names used by overrides.
func (s *Session) Named() map[string]*key.Binding {
	return s.Nav.addNamed("session.", map[string]*key.Binding{
		"session.open": &s.Open, "session.back": &s.Back, "session.filter": &s.Filter, "session.scope": &s.Scope,
		"session.fold": &s.Fold, "session.unfold": &s.Unfold, "session.tree-filter": &s.TreeFilter, "session.expand": &s.Expand,
		"session.thinking": &s.Thinking, "session.context": &s.Context, "session.stats": &s.Stats,
		"session.follow": &s.Follow, "session.reload": &s.Reload,
		"session.goto-entry": &s.GotoEntry, "session.to-leaf": &s.ToLeaf, "session.copy-context": &s.CopyContext,
		"session.pi-context": &s.PiContext, "session.skipped": &s.Skipped, "session.matches-only": &s.MatchesOnly,
		"session.continue-in-pi": &s.ContinueInPi, "session.mark": &s.Mark, "session.compare": &s.Compare,
		"session.composition": &s.Composition,
	})
}
