package capability

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/preset"
)

// Entry is one loaded capability file (pi-forge's LoadedCapability).
type Entry struct {
	// Scope is the storage scope the file was read from.
	Scope preset.Scope
	// Path is the file path as the loader knows it (only its base name is
	// used here, in the duplicate-id message).
	Path string
	// Capability is the normalized capability (the fallback for a fault).
	Capability *Capability
	// Diagnostics of the file; any error makes the entry unusable.
	Diagnostics Diagnostics
	// SourceRevision is the lowercase sha256 hex of the bytes that were
	// parsed; "" for a fault that had no bytes (read failure, oversize).
	SourceRevision string
}

// Key is the entry's {scope, id}.
func (e *Entry) Key() Key { return Key{Scope: e.Scope, ID: e.Capability.ID} }

// Usable reports whether the entry has no error diagnostics.
func (e *Entry) Usable() bool { return !e.Diagnostics.HasErrors() }

// Load parses one capability file's bytes into a catalog entry
// (readSingleCapabilityFile without the IO). The source revision is computed
// from the same bytes; an oversized file gets no revision.
func Load(raw []byte, path string, scope preset.Scope) *Entry {
	c, diags := Parse(raw, path, scope)
	entry := &Entry{Scope: scope, Path: path, Capability: c, Diagnostics: diags}
	if len(raw) <= MaxSourceSize {
		entry.SourceRevision = fingerprint.SourceRevision(raw)
	}
	return entry
}

// ReadFailure is the fail-closed entry for a file that could not be read:
// error "Failed to read capability: <msg>" and the fallback capability.
func ReadFailure(path string, scope preset.Scope, err error) *Entry {
	message := "Failed to read capability: "
	if err != nil {
		message += err.Error()
	}
	return &Entry{Scope: scope, Path: path, Capability: fallback(idFromBasename(path)),
		Diagnostics: Diagnostics{{Level: preset.LevelError, Message: message}}}
}

// Oversized is the fail-closed entry for a file whose size (from stat)
// exceeds MaxSourceSize: pi-forge refuses it without reading it, so there is
// no revision. The error is
// "Capability capability file size (<n> bytes) exceeds 1MiB limit."
func Oversized(path string, scope preset.Scope, size int64) *Entry {
	return &Entry{Scope: scope, Path: path, Capability: fallback(idFromBasename(path)),
		Diagnostics: Diagnostics{{Level: preset.LevelError, Message: sizeMessage(size)}}}
}

func sizeMessage(size int64) string {
	return "Capability capability file size (" + strconv.FormatInt(size, 10) + " bytes) exceeds 1MiB limit."
}

// Catalog is an in-memory capability catalog: the loaded entries of the
// global and the project library (pi-forge lists global first, then project,
// each sorted by file name).
type Catalog struct {
	Entries []*Entry
}

// NewCatalog builds a catalog over entries and marks ids that appear in
// more than one file of the same scope (annotateDuplicateCapabilityIds):
// each such entry gains the error
// `Duplicate <scope> capability id: "<id>" appears in multiple files (<a.json, b.json>).`
func NewCatalog(entries ...*Entry) *Catalog {
	AnnotateDuplicates(entries)
	return &Catalog{Entries: entries}
}

// AnnotateDuplicates appends the duplicate-id error to every entry whose
// scope and id are shared with another entry.
func AnnotateDuplicates(entries []*Entry) {
	groups := map[Key][]*Entry{}
	var order []Key
	for _, e := range entries {
		k := e.Key()
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	for _, k := range order {
		matches := groups[k]
		if len(matches) <= 1 {
			continue
		}
		names := make([]string, len(matches))
		for i, e := range matches {
			names[i] = filepath.Base(e.Path)
		}
		files := strings.Join(names, ", ")
		for _, e := range matches {
			e.Diagnostics = append(e.Diagnostics, Diagnostic{Level: preset.LevelError,
				Message: "Duplicate " + string(e.Scope) + ` capability id: "` + e.Capability.ID + `" appears in multiple files (` + files + ")."})
		}
	}
}

// Lookup returns the entries of one scope and id, in catalog order.
func (c *Catalog) Lookup(k Key) []*Entry {
	var out []*Entry
	if c == nil {
		return nil
	}
	for _, e := range c.Entries {
		if e.Scope == k.Scope && e.Capability.ID == k.ID {
			out = append(out, e)
		}
	}
	return out
}

// Resolve resolves a selector (resolveCapability, §9.3): "project:<id>" and
// "global:<id>" look in that scope only; a bare id tries project, then
// global, and a project match that is ambiguous or has errors fails closed.
// On failure the entry is nil and the string is pi-forge's message. The
// returned entry is the catalog's own; callers must not modify it.
func Resolve(c *Catalog, selector string) (*Entry, string) {
	entry, msg, _ := resolveClassified(c, selector)
	return entry, msg
}

// resolveClassified is Resolve that also says why it failed: RefusedUsage
// for a selector that does not parse, RefusedUnknown when no capability
// has that id, RefusedRule for an ambiguous one or one with errors.
func resolveClassified(c *Catalog, selector string) (*Entry, string, RefusalKind) {
	sel, err := preset.ParseSelector(selector)
	if err != "" {
		return nil, err, RefusedUsage
	}
	if sel.Scope != "" {
		entry, msg, found := c.resolveIn(Key{Scope: sel.Scope, ID: sel.ID})
		if !found {
			return nil, `Capability capability "` + sel.String() + `" not found.`, RefusedUnknown
		}
		return entry, msg, RefusedRule
	}
	for _, scope := range []preset.Scope{preset.ScopeProject, preset.ScopeGlobal} {
		if entry, msg, found := c.resolveIn(Key{Scope: scope, ID: sel.ID}); found {
			return entry, msg, RefusedRule
		}
	}
	return nil, `Capability capability "` + sel.ID + `" not found.`, RefusedUnknown
}

// resolveIn checks one scope; found is false when the scope has no entry
// with that id.
func (c *Catalog) resolveIn(k Key) (entry *Entry, errMessage string, found bool) {
	matches := c.Lookup(k)
	switch {
	case len(matches) == 0:
		return nil, "", false
	case len(matches) > 1:
		return nil, `Ambiguous capability "` + k.String() + `": multiple definitions found.`, true
	}
	if detail := matches[0].Diagnostics.FirstError(); detail != "" {
		return nil, `Capability capability "` + k.String() + `" has errors: ` + detail, true
	}
	return matches[0], "", true
}
