package profile

import (
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/preset"
)

// Entry is one loaded profile file (pi-forge's LoadedAgentProfile).
type Entry struct {
	// Scope is the storage scope the file was read from.
	Scope preset.Scope
	// Path is the file path (its base name appears in conflict messages and
	// it is the provenance sourcePath).
	Path string
	// Profile is the normalized profile (the fallback for a fault).
	Profile *Profile
	// Diagnostics of the file, plus catalog-level conflicts.
	Diagnostics Diagnostics
}

// Usable reports whether the entry has no error diagnostics.
func (e *Entry) Usable() bool { return !e.Diagnostics.HasErrors() }

// Selector is the entry's scoped key "scope:id".
func (e *Entry) Selector() string { return string(e.Scope) + ":" + e.Profile.ID }

// Load parses one profile file's bytes into an entry.
func Load(raw []byte, path string, scope preset.Scope) *Entry {
	p, diags := Parse(raw, path, scope)
	return &Entry{Scope: scope, Path: path, Profile: p, Diagnostics: diags}
}

// ReadFailure is the fail-closed entry for a file that could not be read:
// error "Failed to read agent profile: <msg>" and the fallback profile.
func ReadFailure(path string, scope preset.Scope, err error) *Entry {
	message := "Failed to read agent profile: "
	if err != nil {
		message += err.Error()
	}
	return &Entry{Scope: scope, Path: path, Profile: fallback(idFromBasename(path)),
		Diagnostics: Diagnostics{errorAt("", message)}}
}

// Catalog is an in-memory profile catalog: the global then the project
// profiles, each sorted by file name, as pi-forge lists them.
type Catalog struct {
	Entries []*Entry
}

// NewCatalog builds a catalog and adds pi-forge's catalog-level errors:
// `Duplicate <scope> profile id: <id> appears in multiple files (<files>).`
// on every entry sharing a scope and id, and
// `Multiple <scope> profiles request auto-activation (<files>); exactly one is allowed.`
// (field autoActivate) on every auto-activating entry of a scope that has
// more than one.
func NewCatalog(entries ...*Entry) *Catalog {
	annotateDuplicates(entries)
	annotateAutoActivateConflicts(entries)
	return &Catalog{Entries: entries}
}

func annotateDuplicates(entries []*Entry) {
	type key struct {
		scope preset.Scope
		id    string
	}
	groups := map[key][]*Entry{}
	var order []key
	for _, e := range entries {
		k := key{e.Scope, e.Profile.ID}
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	for _, k := range order {
		if matches := groups[k]; len(matches) > 1 {
			files := baseNames(matches)
			for _, e := range matches {
				e.Diagnostics = append(e.Diagnostics, errorAt("",
					"Duplicate "+string(e.Scope)+" profile id: "+e.Profile.ID+" appears in multiple files ("+files+")."))
			}
		}
	}
}

func annotateAutoActivateConflicts(entries []*Entry) {
	groups := map[preset.Scope][]*Entry{}
	var order []preset.Scope
	for _, e := range entries {
		if !e.Profile.AutoActivates() {
			continue
		}
		if _, seen := groups[e.Scope]; !seen {
			order = append(order, e.Scope)
		}
		groups[e.Scope] = append(groups[e.Scope], e)
	}
	for _, scope := range order {
		if candidates := groups[scope]; len(candidates) > 1 {
			files := baseNames(candidates)
			for _, e := range candidates {
				e.Diagnostics = append(e.Diagnostics, errorAt("autoActivate",
					"Multiple "+string(scope)+" profiles request auto-activation ("+files+"); exactly one is allowed."))
			}
		}
	}
}

func baseNames(entries []*Entry) string {
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = filepath.Base(e.Path)
	}
	return strings.Join(names, ", ")
}

// Find looks a profile up by selector (§11.2): "project:<id>" or
// "global:<id>" in that scope, a bare id in project first, then global. A
// project profile shadows a global one of the same id even when it has
// errors (callers then fail closed on its diagnostics). With duplicates the
// first entry is returned; it carries the duplicate error. On failure the
// message is the selector error or "Unknown agent profile: <selector>".
func Find(c *Catalog, selector string) (*Entry, string) {
	sel, err := preset.ParseSelector(selector)
	if err != "" {
		return nil, err
	}
	scopes := []preset.Scope{sel.Scope}
	if sel.Scope == "" {
		scopes = []preset.Scope{preset.ScopeProject, preset.ScopeGlobal}
	}
	if c != nil {
		for _, scope := range scopes {
			for _, e := range c.Entries {
				if e.Scope == scope && e.Profile.ID == sel.ID {
					return e, ""
				}
			}
		}
	}
	return nil, "Unknown agent profile: " + selector
}

// ChooseAutoActivate picks the profile to auto-activate on a fresh session
// (§11.3): when the project has auto-activating profiles, exactly one usable
// one or none (fail closed, no global fallback); otherwise exactly one
// usable global candidate whose id no project profile shadows.
func ChooseAutoActivate(c *Catalog) *Entry {
	if c == nil {
		return nil
	}
	var project, global []*Entry
	projectIDs := map[string]bool{}
	for _, e := range c.Entries {
		if e.Scope == preset.ScopeProject {
			projectIDs[e.Profile.ID] = true
		}
	}
	for _, e := range c.Entries {
		if !e.Profile.AutoActivates() {
			continue
		}
		switch {
		case e.Scope == preset.ScopeProject:
			project = append(project, e)
		case e.Scope == preset.ScopeGlobal && !projectIDs[e.Profile.ID]:
			global = append(global, e)
		}
	}
	candidates := global
	if len(project) > 0 {
		candidates = project
	}
	if len(candidates) == 1 && candidates[0].Usable() {
		return candidates[0]
	}
	return nil
}
