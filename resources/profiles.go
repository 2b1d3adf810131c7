package resources

import (
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
)

// Profile is one loaded agent profile file.
type Profile struct {
	Resource
	// Profile is the normalized profile (the fallback for a fault).
	Profile *profile.Profile
	// Entry is the engine's catalog entry for the same file.
	Entry *profile.Entry
}

// profileJobs lists the agent profile files of one scope: *.json names,
// sorted. pi-forge treats an unlistable directory as empty; the snapshot
// records it as a DirFault.
func (lib *Library) profileJobs(scope Scope, dir string) []loadJob {
	entries, err := listJSON(dir)
	if err != nil {
		lib.DirFaults = append(lib.DirFaults, DirFault{Kind: KindProfile, Scope: scope, Dir: dir, Err: err})
		return nil
	}
	jobs := make([]loadJob, len(entries))
	for i, e := range entries {
		jobs[i] = loadJob{kind: KindProfile, scope: scope, path: filepath.Join(dir, e.Name())}
	}
	return jobs
}

// loadProfileFile reads one profile once and parses the same bytes.
func loadProfileFile(path string, scope Scope) *Profile {
	var entry *profile.Entry
	raw, err := readRegularFile(path)
	if err != nil {
		entry = profile.ReadFailure(path, scope, readError{nodeReadError(err, "open", path)})
	} else {
		entry = profile.Load(raw, path, scope)
	}
	p := &Profile{Entry: entry, Profile: entry.Profile}
	p.Scope, p.Path, p.ID = scope, path, entry.Profile.ID
	if err != nil {
		p.Fault = true
	} else {
		p.Raw, p.SourceRevision = raw, sourceRevision(raw)
	}
	return p
}

// annotateProfiles builds the engine catalog (global first, as pi-forge
// lists it), which adds the duplicate-id and auto-activation conflicts, and
// copies the final diagnostics into each Profile.
func annotateProfiles(profiles []*Profile) *profile.Catalog {
	entries := make([]*profile.Entry, 0, len(profiles))
	for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
		for _, p := range profiles {
			if p.Scope == scope {
				entries = append(entries, p.Entry)
			}
		}
	}
	catalog := profile.NewCatalog(entries...)
	for _, p := range profiles {
		p.Diagnostics = make([]Diagnostic, 0, len(p.Entry.Diagnostics))
		for _, d := range p.Entry.Diagnostics {
			p.Diagnostics = append(p.Diagnostics, Diagnostic{Level: d.Level, Message: d.Message, Field: d.Field})
		}
	}
	return catalog
}

// ProfileCatalog is the engine catalog of this snapshot (for preflight and
// provenance helpers of engine/profile).
func (lib *Library) ProfileCatalog() *profile.Catalog { return lib.profCatalog }

// ResolveProfile resolves a profile selector (§11.2): bare = project over
// global, and a same-id project profile shadows the global one even when it
// is invalid. Errors: ErrInvalidSelector (selector message), ErrNotFound
// (`Unknown agent profile: <selector>`), ErrUnusable (`Agent profile
// <scope>:<id> has errors: <first error>`, returned with the profile).
func (lib *Library) ResolveProfile(selector string) (*Profile, error) {
	entry, msg := profile.Find(lib.profCatalog, selector)
	if entry == nil {
		if _, selMsg := preset.ParseSelector(selector); selMsg != "" {
			return nil, newError(ErrInvalidSelector, msg)
		}
		e := newError(ErrNotFound, msg)
		e.Subject = `profile "` + strings.TrimSpace(selector) + `"`
		return nil, e
	}
	var found *Profile
	for _, p := range lib.Profiles {
		if p.Entry == entry {
			found = p
		}
	}
	if found == nil {
		e := newError(ErrNotFound, "Unknown agent profile: "+strings.TrimSpace(selector))
		e.Subject = `profile "` + strings.TrimSpace(selector) + `"`
		return nil, e
	}
	if first := found.firstError(); first != "" {
		return found, newError(ErrUnusable, "Agent profile "+found.Key()+" has errors: "+first)
	}
	return found, nil
}

// ResolveProfilePreset resolves a profile's promptStack relative to the
// profile's scope (§11.2). It returns nil and no diagnostics for
// promptStack null; on failure the diagnostics carry pi-forge's messages.
func (lib *Library) ResolveProfilePreset(p *Profile) (*Preset, []Diagnostic) {
	refs := make(profile.PresetList, 0, len(lib.Presets))
	byRef := map[*profile.PresetRef]*Preset{}
	for _, ps := range lib.Presets {
		diags := make(preset.Diagnostics, len(ps.Diagnostics))
		for i, d := range ps.Diagnostics {
			diags[i] = preset.Diagnostic{Level: d.Level, Message: d.Message, ItemID: d.ItemID}
		}
		ref := &profile.PresetRef{Scope: ps.Scope, Stack: ps.Stack, Diagnostics: diags}
		refs = append(refs, ref)
		byRef[ref] = ps
	}
	ref, diags := profile.ResolvePromptStack(p.Entry, refs)
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		out = append(out, Diagnostic{Level: d.Level, Message: d.Message, Field: d.Field})
	}
	if ref == nil {
		return nil, out
	}
	return byRef[ref], out
}

// AutoActivateProfile is the profile pi-forge would auto-activate on a
// fresh session (§11.3), or nil. An untrusted project auto-activates
// nothing, not even global definitions.
func (lib *Library) AutoActivateProfile() *Profile {
	if !lib.Workspace.Trust.Trusted {
		return nil
	}
	entry := profile.ChooseAutoActivate(lib.profCatalog)
	for _, p := range lib.Profiles {
		if entry != nil && p.Entry == entry {
			return p
		}
	}
	return nil
}

// CreateProfile writes a new agent profile file (exclusive create).
func CreateProfile(ws Workspace, scope Scope, p *profile.Profile) (WriteResult, error) {
	return CreateFile(ws, KindProfile, scope, p.ID, profile.Serialize(p))
}

// SaveProfile replaces profile id of scope when the file still has
// expectedRevision; p.ID must be id.
func SaveProfile(ws Workspace, scope Scope, id string, p *profile.Profile, expectedRevision string) (WriteResult, error) {
	return SaveFile(ws, KindProfile, scope, id, profile.Serialize(p), expectedRevision)
}

// DeleteProfile removes profile id of scope when the file still has
// expectedRevision.
func DeleteProfile(ws Workspace, scope Scope, id, expectedRevision string) (string, error) {
	return DeleteFile(ws, KindProfile, scope, id, expectedRevision)
}

// ForkProfile copies a loaded profile under a new id.
func ForkProfile(ws Workspace, src *Profile, scope Scope, newID string) (WriteResult, error) {
	if src.Fault || src.Raw == nil {
		return WriteResult{}, newError(ErrInvalid, "Cannot fork unreadable agent profile: "+src.Path)
	}
	parsed, _ := profile.Parse(src.Raw, src.FileName(), src.Scope)
	copied := *parsed
	copied.ID = newID
	return CreateFile(ws, KindProfile, scope, newID, profile.Serialize(&copied))
}

// checkProfileContent: the bytes must carry the target id, and the
// promptStack reference must be allowed in the target scope.
func checkProfileContent(scope Scope, base, id string, data []byte) error {
	p, _ := profile.Parse(data, base, scope)
	if p.ID != id {
		return newError(ErrInvalid, "Invalid ID or rename mismatch: "+base)
	}
	if diags := profile.ValidateScope(p, scope); diags.HasErrors() {
		return newError(ErrInvalid, diags.FirstError())
	}
	return nil
}

// FreshSessionPreset is what a fresh session activates (§11.3, §14.2):
// nothing in an untrusted project; when any profile requests
// auto-activation, the chosen profile and its Preset (nil for promptStack
// null), or nothing at all when no profile can be chosen or its Preset does
// not resolve cleanly; otherwise the standalone Preset rule
// (AutoActivatePreset) with no profile. The profile's model and
// authentication preflight needs the model catalog and is the caller's: when
// it fails, pi-forge applies nothing either.
func (lib *Library) FreshSessionPreset() (*Preset, *Profile) {
	if !lib.Workspace.Trust.Trusted {
		return nil, nil
	}
	requested := false
	for _, p := range lib.Profiles {
		requested = requested || p.Profile.AutoActivates()
	}
	if !requested {
		return lib.AutoActivatePreset(), nil
	}
	prof := lib.AutoActivateProfile()
	if prof == nil {
		return nil, nil
	}
	ps, diags := lib.ResolveProfilePreset(prof)
	for _, d := range diags {
		if d.Level == preset.LevelError {
			return nil, nil
		}
	}
	if ps != nil && !ps.Usable() {
		return nil, nil
	}
	return ps, prof
}

// checkSingleAutoActivate refuses to write a profile that requests
// auto-activation while another profile of the same directory (the scope)
// requests it too, as pi-forge's editor refuses a second auto-activation
// profile in one scope: both would then fail validation, which switches
// auto-activation off. The message is the editor's refusal word for word
// (src/web-host.ts, autoActivateConflictError), naming the id of the
// first other profile, in file order, that requests it. Unreadable
// neighbours and the file being written do not count.
func checkSingleAutoActivate(scope Scope, path string, data []byte) error {
	p, _ := profile.Parse(data, filepath.Base(path), scope)
	if !p.AutoActivates() {
		return nil
	}
	dir := filepath.Dir(path)
	entries, err := listJSON(dir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		name := e.Name()
		if name == filepath.Base(path) {
			continue
		}
		raw, err := readRegularFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		if other, _ := profile.Parse(raw, name, scope); other.AutoActivates() && other.ID != p.ID {
			return newError(ErrInvalid, "Multiple "+string(scope)+" profiles request auto-activation; exactly one is allowed (already requested by "+other.ID+").")
		}
	}
	return nil
}
