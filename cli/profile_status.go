package cli

import (
	"errors"
	"fmt"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// ProfileStatusCmd reports the last applied profile of a session.
type ProfileStatusCmd struct {
	Session string `help:"Pi session to read the provenance entries (pi-forge-agent-profile-state) from: a file, a session id or a unique prefix of one (default: the newest session of the project, named on stderr)." placeholder:"SESSION" predictor:"session"`
	Leaf    string `help:"Entry of --session (default: the last entry)." placeholder:"ID" predictor:"entry"`
	JSON    bool   `name:"json" help:"Print {session, entryId, current:{model, thinkingLevel, promptStack, tools}, lastApplied: null | {entryId, profile, provenance, sourceState, drift:{model, thinkingLevel, tools, promptStack}}}; each drift is {expected, actual, changed, unknown}; the tools drift, forgebench's own check, adds a note saying so."`
}

// profileStatusAt is replay.ProfileStatusAt over the library.
func profileStatusAt(lib *resources.Library, s *session.Session, index int) replay.ProfileStatus {
	return replay.ProfileStatusAt(s, index, lib.ProfileCatalog(), LibraryPresetLookup(lib))
}

// LibraryPresetLookup resolves a Preset selector in the library for
// replay.ProfileStatusAt (a Preset with errors still resolves).
func LibraryPresetLookup(lib *resources.Library) replay.PresetLookup {
	return func(selector string) (string, *preset.ResourcePolicy, bool) {
		p, err := lib.ResolvePreset(selector)
		if p == nil || (err != nil && !errors.Is(err, resources.ErrUnusable)) {
			return "", nil, false
		}
		return p.Key(), p.Stack.Tools, true
	}
}

// Run prints the status.
func (c *ProfileStatusCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	path, err := g.namedSession(c.Session, "--session", readsSession)
	if err != nil {
		return err
	}
	s, index, err := openAt(path, c.Leaf)
	if err != nil {
		return err
	}
	if index < 0 {
		return failErr(exitFailed, i18n.Errorf("session %s has no entries", path))
	}
	st := profileStatusAt(lib, s, index)
	if c.JSON {
		return printJSON(g.stdout, profileStatusJSON(st))
	}
	w := g.stdout
	cur := st.Current
	model := i18n.T("(none)")
	if cur.Model != nil {
		model = cur.Model.String()
	}
	tools := i18n.T("unknown (the session records no tool selection)")
	if cur.ToolsKnown {
		tools = toolListText(cur.Tools)
	}
	stack := i18n.T("(none)")
	if cur.PromptStack != nil {
		stack = *cur.PromptStack
	}
	fmt.Fprint(w, i18n.T("session   %s at %s\ncurrent   model %s · thinking %s · preset %s\n          tools %s\n",
		sanitize.Clip(st.SessionID, 60), sanitize.Clip(st.EntryID, 20), sanitize.Line(model), sanitize.Line(cur.ThinkingLevel), sanitize.Line(stack), sanitize.Line(tools)))
	if st.Last == nil {
		fmt.Fprintln(w, i18n.T("last applied profile: (none)"))
		return nil
	}
	p := st.Last.Provenance
	source := st.Last.SourceState
	if source == profile.SourceChanged {
		source = i18n.T("changed since application (the profile file's fingerprint differs)")
	}
	fmt.Fprint(w, i18n.T("last applied profile: %s (entry %s, applied at %s)\nsource    %s — %s\ndrift\n",
		sanitize.Line(provenanceKey(p)), sanitize.Clip(st.LastEntry, 20), sanitize.Line(p.AppliedAt), sanitize.Line(p.SourcePath), source))
	for _, d := range []struct {
		name string
		d    profile.Drift
	}{{"model", st.Last.Model}, {"thinking", st.Last.Thinking}, {"preset", st.Last.Preset}, {"tools *", st.Last.Tools}} { //i18n:raw field names, as the JSON's drift keys
		fmt.Fprintf(w, "  %-9s %s\n", d.name, sanitize.Line(driftText(d.d)))
	}
	fmt.Fprintf(w, "  * %s\n", profile.ToolsDriftNote)
	return nil
}

// provenanceKey is the applied profile's scoped key (a record without a
// scope is a project profile).
func provenanceKey(p profile.Provenance) string {
	scope := p.Scope
	if scope == "" {
		scope = preset.ScopeProject
	}
	return string(scope) + ":" + p.ProfileID
}

// driftText is "unchanged", "expected → actual" or "unknown (…)".
func driftText(d profile.Drift) string {
	switch {
	case d.Unknown:
		return i18n.T("unknown (expected %s; the session records no tool selection)", d.Expected)
	case d.Changed:
		return d.Expected + " → " + d.Actual
	}
	return i18n.T("unchanged (%s)", d.Expected)
}

func profileStatusJSON(st replay.ProfileStatus) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("session", st.SessionID)
	o.Set("entryId", st.EntryID)
	cur := jsonv.NewObject()
	if st.Current.Model != nil {
		cur.Set("model", st.Current.Model.String())
	} else {
		cur.Set("model", nil)
	}
	cur.Set("thinkingLevel", st.Current.ThinkingLevel)
	if st.Current.PromptStack != nil {
		cur.Set("promptStack", *st.Current.PromptStack)
	} else {
		cur.Set("promptStack", nil)
	}
	if st.Current.ToolsKnown {
		cur.Set("tools", stringsJSON(st.Current.Tools))
	} else {
		cur.Set("tools", nil)
	}
	o.Set("current", cur)
	if st.Last == nil {
		o.Set("lastApplied", nil)
		return o
	}
	last := jsonv.NewObject()
	last.Set("entryId", st.LastEntry)
	last.Set("profile", provenanceKey(st.Last.Provenance))
	last.Set("provenance", st.Last.Provenance.JSON())
	last.Set("sourceState", st.Last.SourceState)
	drift := jsonv.NewObject()
	for _, d := range []struct {
		key string
		d   profile.Drift
	}{{"model", st.Last.Model}, {"thinkingLevel", st.Last.Thinking}, {"tools", st.Last.Tools}, {"promptStack", st.Last.Preset}} { //i18n:raw pi-forge's words (contract)
		do := jsonv.NewObject()
		do.Set("expected", d.d.Expected)
		do.Set("actual", d.d.Actual)
		do.Set("changed", d.d.Changed)
		do.Set("unknown", d.d.Unknown)
		if d.key == "tools" {
			do.Set("note", profile.ToolsDriftNote)
		}
		drift.Set(d.key, do)
	}
	last.Set("drift", drift)
	o.Set("lastApplied", last)
	return o
}
