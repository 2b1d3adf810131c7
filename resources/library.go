package resources

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/internal/regfile"
)

// Scope is a resource scope ("project" or "global"), shared with the engine.
type Scope = preset.Scope

// Resource scopes.
const (
	ScopeProject = preset.ScopeProject
	ScopeGlobal  = preset.ScopeGlobal
)

// UntrustedNotice is pi-forge's notification for an untrusted project
// (spec §14.3). The Library carries it in Notices when the project is not
// trusted.
const UntrustedNotice = "pi-forge: project is not trusted; project prompt stacks are disabled (global stacks remain browsable)."

// Diagnostic is one per-file diagnostic of any resource kind. Presets fill
// ItemID, capabilities and profiles fill Field; the other stays "".
type Diagnostic struct {
	Level   preset.Level
	Message string
	ItemID  string
	Field   string
}

// Resource is what every loaded file carries, whatever its kind.
type Resource struct {
	// Scope is the storage scope the file was found in.
	Scope Scope
	// ID is the resource id as the codec resolved it (for a fault, the file
	// basename without ".json").
	ID string
	// Path is the absolute file path.
	Path string
	// Legacy is true for a Preset read from the read-only legacy
	// .pi/prompt-stacks directory.
	Legacy bool
	// Raw holds the exact bytes that were parsed (nil for a read fault).
	Raw []byte
	// SourceRevision is the lowercase hex sha256 of Raw ("" for a read
	// fault); writes take it back as the expected revision (§10.3).
	SourceRevision string
	// Fault is true when the file could not be read at all.
	Fault bool
	// Diagnostics are the file's diagnostics, codec first, then the
	// library-level ones (duplicates, auto-activation conflicts).
	Diagnostics []Diagnostic
}

// Key is the scoped key "<scope>:<id>" used in session state.
func (r *Resource) Key() string { return string(r.Scope) + ":" + r.ID }

// FileName is the base name of Path.
func (r *Resource) FileName() string { return filepath.Base(r.Path) }

// Usable reports whether the resource has no error diagnostic (§1.2).
func (r *Resource) Usable() bool { return r.firstError() == "" }

// Counts returns the number of error and warning diagnostics.
func (r *Resource) Counts() (errs, warnings int) {
	for _, d := range r.Diagnostics {
		switch d.Level {
		case preset.LevelError:
			errs++
		case preset.LevelWarning:
			warnings++
		}
	}
	return errs, warnings
}

func (r *Resource) firstError() string {
	for _, d := range r.Diagnostics {
		if d.Level == preset.LevelError {
			return d.Message
		}
	}
	return ""
}

func (r *Resource) addError(msg, field string) {
	r.Diagnostics = append(r.Diagnostics, Diagnostic{Level: preset.LevelError, Message: msg, Field: field})
}

// DirFault records a directory that exists but could not be listed.
type DirFault struct {
	Kind  Kind
	Scope Scope
	Dir   string
	Err   error
}

// Library is one immutable snapshot of the on-disk pi-forge library: every
// Preset, capability and agent profile of both scopes with its raw bytes,
// revision, parsed value and diagnostics, plus config.json. Reload by
// calling LoadLibrary again; never mutate a Library that others hold.
type Library struct {
	// Workspace is the workspace the snapshot was read from.
	Workspace Workspace
	// Presets: project files (.pi/forge/prompt-stacks, then unshadowed
	// legacy .pi/prompt-stacks), each directory sorted by file name, then
	// global files. Project entries are absent when the project is untrusted.
	Presets []*Preset
	// Capabilities: project then global, each sorted by file name.
	Capabilities []*Capability
	// Profiles: project then global, each sorted by file name.
	Profiles []*Profile
	// Config is the merged config.json view with its warnings.
	Config Config
	// Notices are user-facing notifications (the untrusted-project notice).
	Notices []string
	// DirFaults are directories that could not be listed. A capability
	// directory fault makes capability resolution fail closed (§9.2).
	DirFaults []DirFault

	capCatalog  *capability.Catalog
	profCatalog *profile.Catalog
}

// LoadOptions tune LoadLibraryWith.
type LoadOptions struct {
	// GlobalConfigPath overrides <forgeDir>/config.json
	// ("" = $PI_FORGE_GLOBAL_CONFIG_PATH, else the default).
	GlobalConfigPath string
	// Workers bounds the parallel file loaders (0 = GOMAXPROCS).
	Workers int
}

// LoadLibrary reads the whole library of ws as one snapshot. Per-file
// problems become diagnostics; the error is reserved for an unusable
// workspace (no cwd or forge dir).
func LoadLibrary(ws Workspace) (*Library, error) {
	return LoadLibraryWith(ws, LoadOptions{GlobalConfigPath: os.Getenv("PI_FORGE_GLOBAL_CONFIG_PATH")})
}

// LoadLibraryWith is LoadLibrary with explicit options.
func LoadLibraryWith(ws Workspace, opts LoadOptions) (*Library, error) {
	if ws.Cwd == "" || ws.ForgeDir == "" {
		return nil, errors.New("load library: workspace has no cwd or forge dir")
	}
	lib := &Library{Workspace: ws}
	trusted := ws.Trust.Trusted
	if !trusted {
		lib.Notices = append(lib.Notices, UntrustedNotice)
	}

	var jobs []loadJob
	if trusted {
		jobs = append(jobs, lib.presetJobs(ScopeProject, ws.Cwd)...)
		jobs = append(jobs, lib.capabilityJobs(ScopeProject, StorageDir(ws, KindCapability, ScopeProject))...)
		jobs = append(jobs, lib.profileJobs(ScopeProject, StorageDir(ws, KindProfile, ScopeProject))...)
	}
	jobs = append(jobs, lib.presetJobs(ScopeGlobal, ws.Cwd)...)
	jobs = append(jobs, lib.capabilityJobs(ScopeGlobal, StorageDir(ws, KindCapability, ScopeGlobal))...)
	jobs = append(jobs, lib.profileJobs(ScopeGlobal, StorageDir(ws, KindProfile, ScopeGlobal))...)

	runJobs(jobs, opts.Workers)
	for _, j := range jobs {
		switch j.kind {
		case KindPreset:
			lib.Presets = append(lib.Presets, j.preset)
		case KindCapability:
			lib.Capabilities = append(lib.Capabilities, j.capability)
		case KindProfile:
			lib.Profiles = append(lib.Profiles, j.profile)
		}
	}
	annotatePresetDuplicates(lib.Presets)
	lib.capCatalog = annotateCapabilityDuplicates(lib.Capabilities)
	lib.profCatalog = annotateProfiles(lib.Profiles)

	lib.Config = loadConfig(ws, opts.GlobalConfigPath)
	return lib, nil
}

// loadJob is one file to read and parse; exactly one result field is set
// by run.
type loadJob struct {
	kind       Kind
	scope      Scope
	path       string
	legacy     bool
	preset     *Preset
	capability *Capability
	profile    *Profile
}

func (j *loadJob) run() {
	switch j.kind {
	case KindPreset:
		j.preset = loadPresetFile(j.path, j.scope, j.legacy)
	case KindCapability:
		j.capability = loadCapabilityFile(j.path, j.scope)
	case KindProfile:
		j.profile = loadProfileFile(j.path, j.scope)
	}
}

// runJobs loads the files on all available cores; each job writes only its
// own slot, so the result order is the job order.
func runJobs(jobs []loadJob, workers int) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > len(jobs) {
		workers = len(jobs)
	}
	if workers <= 1 {
		for i := range jobs {
			jobs[i].run()
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int, len(jobs))
	for i := range jobs {
		next <- i
	}
	close(next)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				jobs[i].run()
			}
		}()
	}
	wg.Wait()
}

// sourceRevision is the §10.3 revision of raw file bytes: lowercase hex
// sha256, no prefix.
func sourceRevision(raw []byte) string { return fingerprint.SourceRevision(raw) }

func lessUTF16(a, b string) bool { return fingerprint.CompareUTF16(a, b) < 0 }

// listJSON lists the names ending in ".json" in dir, JS-sorted. A missing
// directory yields nil and no error.
func listJSON(dir string) ([]os.DirEntry, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	out := entries[:0]
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return lessUTF16(out[i].Name(), out[j].Name()) })
	return out, nil
}

// readRegularFile reads a resource file through regfile.Read, so a FIFO,
// socket or device a hostile checkout holds where a resource is expected
// is never opened for reading and the read stops at the size at open. The
// refusals keep the shape nodeReadError renders, as Node's read would fail:
// a directory with EISDIR, another special file with a *fs.PathError
// wrapping regfile.ErrNotRegular; and a path that cannot be stat'ed fails
// as its open would (Op "open": the same errno, as the open it replaces).
func readRegularFile(path string) ([]byte, error) {
	raw, err := regfile.Read(path, 0)
	var special *regfile.NotRegularError
	var pe *fs.PathError
	switch {
	case errors.As(err, &special) && special.Kind == regfile.Kind(fs.ModeDir):
		return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	case errors.As(err, &special):
		return nil, &fs.PathError{Op: "read", Path: path, Err: regfile.ErrNotRegular}
	case errors.As(err, &pe) && pe.Op == "stat":
		return nil, &fs.PathError{Op: "open", Path: pe.Path, Err: pe.Err}
	}
	return raw, err
}

// nodeReadError renders a read failure the way Node's fs error messages
// look ("ENOENT: no such file or directory, open '<path>'"), which is what
// pi-forge puts after "Failed to read …: ". Unknown errors keep Go's text.
func nodeReadError(err error, op, path string) string {
	var code, text string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		code, text = "ENOENT", "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		code, text = "EACCES", "permission denied"
	case errors.Is(err, syscall.EISDIR):
		return "EISDIR: illegal operation on a directory, read"
	case errors.Is(err, syscall.ELOOP):
		code, text = "ELOOP", "too many symbolic links encountered"
	default:
		return err.Error()
	}
	return code + ": " + text + ", " + op + " '" + path + "'"
}

// IDTaken reports whether a loaded file of the given kind and scope already
// carries id, whatever its file name: an exclusive create of that id would
// then add a duplicate (both files unusable), so it is a conflict
// (ErrConflict, naming the file that holds the id). Files of an untrusted
// project are not loaded, so the project scope then reports nil.
func (lib *Library) IDTaken(kind Kind, scope Scope, id string) error {
	var paths []string
	switch kind {
	case KindPreset:
		for _, p := range lib.PresetsIn(scope, id) {
			paths = append(paths, p.Path)
		}
	case KindCapability:
		for _, c := range lib.Capabilities {
			if c.Scope == scope && c.ID == id {
				paths = append(paths, c.Path)
			}
		}
	case KindProfile:
		for _, p := range lib.Profiles {
			if p.Scope == scope && p.ID == id {
				paths = append(paths, p.Path)
			}
		}
	}
	if len(paths) == 0 {
		return nil
	}
	return alreadyExists(kind, paths[0])
}
