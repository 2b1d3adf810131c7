package resources

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/regfile"
)

// maxCapabilitySize is the largest capability file pi-forge reads (1 MiB).
const maxCapabilitySize = capability.MaxSourceSize

func capabilitySizeMessage(n int64) string {
	return "Capability capability file size (" + strconv.FormatInt(n, 10) + " bytes) exceeds 1MiB limit."
}

// Capability is one loaded capability file.
type Capability struct {
	Resource
	// Capability is the normalized capability (the fallback for a fault).
	Capability *capability.Capability
	// Entry is the engine's catalog entry for the same file.
	Entry *capability.Entry
}

// readError carries a Node-style message for the engine's fault entries.
type readError struct{ msg string }

func (e readError) Error() string { return e.msg }

// capabilityJobs lists the capability files of one scope (§9.2): non-hidden
// *.json entries that are regular files or symlinks to regular files; a
// broken symlink is kept so its read records a fault. A missing directory
// is empty; any other listing error is a DirFault that makes capability
// resolution fail closed.
func (lib *Library) capabilityJobs(scope Scope, dir string) []loadJob {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			lib.DirFaults = append(lib.DirFaults, DirFault{Kind: KindCapability, Scope: scope, Dir: dir, Err: err})
		}
		return nil
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.Mode().IsRegular() {
				continue
			}
		case !t.IsRegular():
			continue
		}
		names = append(names, name)
	}
	sortNames(names)
	jobs := make([]loadJob, len(names))
	for i, name := range names {
		jobs[i] = loadJob{kind: KindCapability, scope: scope, path: filepath.Join(dir, name)}
	}
	return jobs
}

func sortNames(names []string) {
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && lessUTF16(names[j], names[j-1]); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}

// loadCapabilityFile reads one capability once and hands the same bytes to
// the codec, which hashes them for the revision. Like pi-forge it checks the
// size before reading: a file over 1 MiB is a fault and is never read.
func loadCapabilityFile(path string, scope Scope) *Capability {
	var entry *capability.Entry
	raw, size, err := readCapped(path, maxCapabilitySize)
	switch {
	case err != nil:
		call := "open"
		var opErr *nodeOpError
		if errors.As(err, &opErr) {
			call = opErr.syscall
		}
		entry = capability.ReadFailure(path, scope, readError{nodeReadError(err, call, path)})
	case raw == nil:
		entry = capability.Oversized(path, scope, size)
	default:
		entry = capability.Load(raw, path, scope)
	}
	c := &Capability{Entry: entry, Capability: entry.Capability}
	c.Scope, c.Path, c.ID = scope, path, entry.Capability.ID
	if err != nil {
		c.Fault = true
	} else if raw != nil {
		c.Raw, c.SourceRevision = raw, entry.SourceRevision
	}
	return c
}

// nodeOpError is a read failure with the Node syscall pi-forge would have
// reported it from ("stat" before reading, "open"/"read" after).
type nodeOpError struct {
	syscall string
	err     error
}

func (e *nodeOpError) Error() string { return e.err.Error() }
func (e *nodeOpError) Unwrap() error { return e.err }

// readCapped reads path unless it is larger than limit. An oversized file
// returns nil bytes, its size and no error; it is not read. Reading stops
// after limit+1 bytes, so a file that grows while it is read is reported as
// oversized too. Errors are *nodeOpError.
func readCapped(path string, limit int64) ([]byte, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		call := "stat" // pi-forge stats first; only a permission error passes stat
		if errors.Is(err, fs.ErrPermission) {
			call = "open"
		}
		return nil, 0, &nodeOpError{call, err}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, &nodeOpError{"stat", err}
	}
	if !fi.Mode().IsRegular() { // swapped for a FIFO or device since listing
		return nil, 0, &nodeOpError{"read", &fs.PathError{Op: "read", Path: path, Err: regfile.ErrNotRegular}}
	}
	if fi.Size() > limit {
		return nil, fi.Size(), nil
	}
	raw, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, &nodeOpError{"read", err}
	}
	if int64(len(raw)) > limit {
		return nil, int64(len(raw)), nil
	}
	return raw, int64(len(raw)), nil
}

// annotateCapabilityDuplicates builds the engine catalog (global first, as
// pi-forge lists it), which adds the duplicate-id errors, and copies the
// final diagnostics into each Capability.
func annotateCapabilityDuplicates(caps []*Capability) *capability.Catalog {
	entries := make([]*capability.Entry, 0, len(caps))
	for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
		for _, c := range caps {
			if c.Scope == scope {
				entries = append(entries, c.Entry)
			}
		}
	}
	catalog := capability.NewCatalog(entries...)
	for _, c := range caps {
		c.Diagnostics = make([]Diagnostic, 0, len(c.Entry.Diagnostics))
		for _, d := range c.Entry.Diagnostics {
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Level: d.Level, Message: d.Message, Field: d.Field})
		}
	}
	return catalog
}

// CapabilityCatalog is the engine catalog of this snapshot, for binding
// resolution (capability.ResolveBindings). Project entries are absent when
// the project is untrusted.
func (lib *Library) CapabilityCatalog() *capability.Catalog { return lib.capCatalog }

// capabilityDirFault returns the first capability directory fault of scope
// ("" = any scope).
func (lib *Library) capabilityDirFault(scope Scope) *DirFault {
	for i := range lib.DirFaults {
		f := &lib.DirFaults[i]
		if f.Kind == KindCapability && (scope == "" || f.Scope == scope) {
			return f
		}
	}
	return nil
}

// ResolveCapability resolves a capability selector with pi-forge's rules
// and messages (§9.3) through capability.Resolve; it fails closed (ErrUnusable
// and no capability) when a capability directory could not be listed.
func (lib *Library) ResolveCapability(selector string) (*Capability, error) {
	sel, msg := preset.ParseSelector(selector)
	if msg != "" {
		return nil, newError(ErrInvalidSelector, msg)
	}
	if f := lib.capabilityDirFault(""); f != nil { // pi-forge aborts the whole catalog read
		return nil, newError(ErrUnusable, dirFaultMessage(f))
	}
	entry, msg := capability.Resolve(lib.capCatalog, selector)
	if entry == nil {
		kind := ErrNotFound
		switch {
		case strings.HasPrefix(msg, "Ambiguous "):
			kind = ErrAmbiguous
		case strings.Contains(msg, " has errors: "):
			kind = ErrUnusable
		}
		// A fail-closed match is still shown by show/validate.
		var found *Capability
		if kind == ErrUnusable {
			found = lib.capabilityFor(sel)
		}
		e := newError(kind, msg)
		if kind == ErrNotFound {
			e.Subject = `capability "` + strings.TrimSpace(selector) + `"`
		}
		return found, e
	}
	for _, c := range lib.Capabilities {
		if c.Entry == entry {
			return c, nil
		}
	}
	e := newError(ErrNotFound, "Capability capability \""+selector+"\" not found.")
	e.Subject = `capability "` + strings.TrimSpace(selector) + `"`
	return nil, e
}

// capabilityFor finds the single capability a selector points at (bare =
// project first), ignoring usability.
func (lib *Library) capabilityFor(sel preset.Selector) *Capability {
	scopes := []Scope{sel.Scope}
	if sel.Scope == "" {
		scopes = []Scope{ScopeProject, ScopeGlobal}
	}
	for _, scope := range scopes {
		var hit []*Capability
		for _, c := range lib.Capabilities {
			if c.Scope == scope && c.ID == sel.ID {
				hit = append(hit, c)
			}
		}
		if len(hit) == 1 {
			return hit[0]
		}
		if len(hit) > 1 {
			return nil
		}
	}
	return nil
}

// ResolvePresetCapabilities resolves the capability bindings of a loaded
// Preset against this snapshot (§9.4). When a capability directory could
// not be listed, pi-forge's capability read aborts, so every binding fails
// closed with the directory error.
func (lib *Library) ResolvePresetCapabilities(p *Preset) capability.Resolution {
	res := capability.ResolveBindings(p.Stack, p.Scope, lib.capCatalog)
	if f := lib.capabilityDirFault(""); f != nil && len(res.Bindings) > 0 {
		msg := dirFaultMessage(f)
		res.Error, res.ErrorIndex = msg, -1
		for i := range res.Bindings {
			b := &res.Bindings[i]
			b.Source, b.Effective = nil, nil
			if b.Error == "" {
				b.Error = msg
			}
		}
	}
	return res
}

func dirFaultMessage(f *DirFault) string {
	return "Failed to read capabilities in " + f.Dir + ": " + f.Err.Error()
}
