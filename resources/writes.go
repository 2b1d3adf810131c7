package resources

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/forgebench/forgebench/engine/preset"
)

// Kind names a resource kind of the library.
type Kind string

// Resource kinds.
const (
	KindPreset     Kind = "preset"
	KindCapability Kind = "capability"
	KindProfile    Kind = "profile"
)

// dirName is the storage directory of the kind under a forge root.
func (k Kind) dirName() string {
	switch k {
	case KindCapability:
		return "capabilities"
	case KindProfile:
		return "agent-profiles"
	}
	return "prompt-stacks"
}

// noun is pi-forge's name of the kind in write messages.
func (k Kind) noun() string {
	switch k {
	case KindCapability:
		return "capability"
	case KindProfile:
		return "agent profile"
	}
	return "prompt stack"
}

// StorageDir is the write directory of a kind and scope:
// <cwd>/.pi/forge/<dir> (project) or <forgeDir>/<dir> (global) (§14.1).
func StorageDir(ws Workspace, kind Kind, scope Scope) string {
	if scope == ScopeGlobal {
		return filepath.Join(ws.ForgeDir, kind.dirName())
	}
	return filepath.Join(ws.Cwd, ".pi", "forge", kind.dirName())
}

// TargetPath is the only path a resource of the given id may be written to:
// <StorageDir>/<id>.json.
func TargetPath(ws Workspace, kind Kind, scope Scope, id string) string {
	return filepath.Join(StorageDir(ws, kind, scope), id+".json")
}

// symlinkAnchor is where the no-symlink rule starts: the cwd for the project
// scope, the global forge root for the global scope (§14.5).
func symlinkAnchor(ws Workspace, scope Scope) string {
	if scope == ScopeGlobal {
		return ws.ForgeDir
	}
	return ws.Cwd
}

// WriteResult describes a completed write.
type WriteResult struct {
	// Path is the file written.
	Path string
	// SourceRevision is the revision of the bytes now on disk; pass it as
	// the expected revision of the next save or delete.
	SourceRevision string
}

func untrustedError(kind Kind) *Error {
	if kind == KindCapability {
		return newError(ErrUntrusted, "Project is not trusted; capability writes are disabled.")
	}
	return newError(ErrUntrusted, "Project is not trusted; refusing to modify project "+kind.noun()+"s.")
}

// outsideError is the kind's refusal for a path outside its storage or one
// that traverses a symlink (§9.2, §14.5).
func outsideError(kind Kind, scope Scope, root, path string) *Error {
	switch kind {
	case KindCapability:
		return newError(ErrRefused, "Path is outside "+string(scope)+" root ("+root+"): "+path)
	case KindProfile:
		return newError(ErrRefused, "Profile path is outside "+string(scope)+" agent-profile storage or traverses a symbolic link: "+path)
	}
	return newError(ErrRefused, "Prompt stack path is outside "+string(scope)+" prompt-stack storage or traverses a symbolic link: "+path)
}

// CheckTarget applies every path guard of a mutation of path: trust (every
// capability write, and project writes of the other kinds), scope, the path
// being a non-hidden .json file directly in <root> whose name is <id>.json
// for expectedID (with expectedID "", as when deleting a loaded file, only
// capabilities insist on an id-shaped name), no symbolic link in any
// segment from the anchor, and not a directory. It returns nil or an *Error
// with pi-forge's exact message.
func CheckTarget(ws Workspace, kind Kind, scope Scope, path, expectedID string) error {
	if scope != ScopeProject && scope != ScopeGlobal {
		return newError(ErrRefused, "Invalid scope: "+string(scope))
	}
	// pi-forge disables every capability write in an untrusted project,
	// global ones included (§14.3); Presets and profiles only project ones.
	if !ws.Trust.Trusted && (scope == ScopeProject || kind == KindCapability) {
		return untrustedError(kind)
	}
	if path == "" {
		return newError(ErrRefused, "File path is required.")
	}
	root := filepath.Clean(StorageDir(ws, kind, scope))
	abs, err := filepath.Abs(path)
	if err != nil {
		return outsideError(kind, scope, root, path)
	}
	if filepath.Dir(abs) != root {
		return outsideError(kind, scope, root, path)
	}
	name := filepath.Base(abs)
	if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
		if kind == KindCapability {
			return newError(ErrRefused, "File must be a non-hidden .json file: "+name)
		}
		return outsideError(kind, scope, root, path)
	}
	id := strings.TrimSuffix(name, ".json")
	// Only the capability repository insists on an id-shaped file name when
	// no id is expected (deleting a loaded file); Preset and profile
	// mutations check the storage directory and symlinks only.
	checkName := kind == KindCapability || expectedID != ""
	if checkName && (!preset.IsValidResourceID(id) || (expectedID != "" && expectedID != id)) {
		return newError(ErrRefused, "Invalid ID or rename mismatch: "+name)
	}
	if limit := maxNameBytes(root); len(name) > limit {
		return nameTooLongError(kind, name, limit)
	}
	if traversesSymlink(symlinkAnchor(ws, scope), abs, kind == KindCapability) {
		if kind == KindCapability {
			return newError(ErrRefused, "Path traverses or targets a symlink: "+path)
		}
		return outsideError(kind, scope, root, path)
	}
	if fi, err := os.Lstat(abs); err == nil && fi.IsDir() {
		return newError(ErrRefused, "Path is a directory: "+path)
	}
	return nil
}

// traversesSymlink reports whether any existing segment of target below
// anchor (and the anchor itself when checkAnchor) is a symbolic link, or
// whether target is not below anchor at all. Missing segments are fine:
// they will be created as real directories. Any other lstat error counts as
// unsafe (fail closed).
func traversesSymlink(anchor, target string, checkAnchor bool) bool {
	anchor = filepath.Clean(anchor)
	rel, err := filepath.Rel(anchor, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return true
	}
	unsafe := func(p string) bool {
		fi, err := os.Lstat(p)
		if err != nil {
			return !errors.Is(err, fs.ErrNotExist)
		}
		return fi.Mode()&fs.ModeSymlink != 0
	}
	if checkAnchor && unsafe(anchor) {
		return true
	}
	cur := anchor
	for _, seg := range strings.Split(rel, string(filepath.Separator)) {
		if seg == "" || seg == "." {
			continue
		}
		cur = filepath.Join(cur, seg)
		if unsafe(cur) {
			return true
		}
	}
	return false
}

// checkRevision compares the current bytes of path with the revision the
// caller saw (§9.2): none given, a missing file and a different revision are
// conflicts. It returns the file's permission bits for the rewrite.
func checkRevision(kind Kind, path, expected string) (fs.FileMode, error) {
	if expected == "" {
		return 0, newError(ErrConflict, "expectedSourceRevision is required.")
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, newError(ErrConflict, "File does not exist: "+path)
	}
	if err != nil {
		return 0, fmt.Errorf("Failed to read revision: %s: %w", nodeReadError(err, "stat", path), err)
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("Failed to read revision: Expected a regular file at %s", path)
	}
	if kind == KindCapability && fi.Size() > maxCapabilitySize {
		return 0, fmt.Errorf("Failed to read revision: %s", capabilitySizeMessage(fi.Size()))
	}
	raw, err := readRegularFile(path) // never blocks should the path have become a FIFO since the stat
	if errors.Is(err, fs.ErrNotExist) {
		return 0, newError(ErrConflict, "File does not exist: "+path)
	}
	if err != nil {
		return 0, fmt.Errorf("Failed to read revision: %s: %w", nodeReadError(err, "open", path), err)
	}
	if got := sourceRevision(raw); got != expected {
		return 0, newError(ErrConflict, "Revision conflict: expected "+expected+", got "+got+".")
	}
	return fi.Mode().Perm(), nil
}

func writeFailed(kind Kind, path string, err error) error {
	if kind == KindCapability {
		return fmt.Errorf("Failed to write capability: %w", err)
	}
	return fmt.Errorf("Failed to write %s %s: %w", kind.noun(), path, err)
}

func alreadyExists(kind Kind, path string) error {
	switch kind {
	case KindCapability:
		return newError(ErrConflict, "Capability capability already exists: "+path)
	case KindProfile:
		return newError(ErrConflict, "Agent profile already exists: "+path)
	}
	return newError(ErrConflict, "Prompt stack already exists: "+path)
}

// CreateFile writes a new resource file <root>/<id>.json exclusively: it
// fails with ErrConflict when the file exists and never replaces anything.
// data must parse to the same id (and, for a capability, validate).
//
// Exclusive and atomic at once: the bytes go to a temporary file in the
// same directory that is fsynced first, and are then published with a hard
// link to the final name. link(2) refuses an existing name atomically
// (O_EXCL semantics), and the name never points at partial content. On a
// filesystem without hard links the name is claimed with O_CREATE|O_EXCL
// and then replaced through WriteFileAtomic.
func CreateFile(ws Workspace, kind Kind, scope Scope, id string, data []byte) (WriteResult, error) {
	path := TargetPath(ws, kind, scope, id)
	if err := CheckTarget(ws, kind, scope, path, id); err != nil {
		return WriteResult{}, err
	}
	if err := checkContent(kind, scope, id, data); err != nil {
		return WriteResult{}, err
	}
	if _, err := os.Lstat(path); err == nil {
		return WriteResult{}, alreadyExists(kind, path)
	}
	if kind == KindProfile {
		if err := checkSingleAutoActivate(scope, path, data); err != nil {
			return WriteResult{}, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return WriteResult{}, writeFailed(kind, path, err)
	}
	if err := createExclusive(path, data, 0o644); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return WriteResult{}, alreadyExists(kind, path)
		}
		return WriteResult{}, writeFailed(kind, path, err)
	}
	return WriteResult{Path: path, SourceRevision: sourceRevision(data)}, nil
}

// SaveFile replaces an existing resource file with data when its current
// bytes still have expectedRevision; otherwise ErrConflict and the file is
// untouched. The id is immutable: data must parse to the same id. The
// replacement is atomic (WriteFileAtomic in the same directory).
func SaveFile(ws Workspace, kind Kind, scope Scope, id string, data []byte, expectedRevision string) (WriteResult, error) {
	path := TargetPath(ws, kind, scope, id)
	if err := CheckTarget(ws, kind, scope, path, id); err != nil {
		return WriteResult{}, err
	}
	if err := checkContent(kind, scope, id, data); err != nil {
		return WriteResult{}, err
	}
	// The revision check and the rename are one step for every forgebench
	// writer: two saves of the same revision cannot both win.
	unlock, err := lockDir(filepath.Dir(path))
	if err != nil {
		return WriteResult{}, newError(ErrConflict, err.Error())
	}
	defer unlock()
	perm, err := checkRevision(kind, path, expectedRevision)
	if err != nil {
		return WriteResult{}, err
	}
	if kind == KindProfile {
		if err := checkSingleAutoActivate(scope, path, data); err != nil {
			return WriteResult{}, err
		}
	}
	if err := WriteFileAtomic(path, data, perm); err != nil {
		return WriteResult{}, writeFailed(kind, path, err)
	}
	return WriteResult{Path: path, SourceRevision: sourceRevision(data)}, nil
}

// DeleteFile removes a resource file when its current bytes still have
// expectedRevision; otherwise ErrConflict and the file is untouched.
func DeleteFile(ws Workspace, kind Kind, scope Scope, id, expectedRevision string) (string, error) {
	path := TargetPath(ws, kind, scope, id)
	if err := CheckTarget(ws, kind, scope, path, id); err != nil {
		return "", err
	}
	unlock, err := lockDir(filepath.Dir(path))
	if err != nil {
		return "", newError(ErrConflict, err.Error())
	}
	defer unlock()
	if _, err := checkRevision(kind, path, expectedRevision); err != nil {
		return "", err
	}
	if err := os.Remove(path); err != nil {
		if kind == KindCapability {
			return "", fmt.Errorf("Failed to delete capability: %w", err)
		}
		return "", fmt.Errorf("Failed to delete %s %s: %w", kind.noun(), path, err)
	}
	syncDir(filepath.Dir(path))
	return path, nil
}

// legacyReadOnlyMessage refuses a mutation of a legacy Preset (§14.1).
func legacyReadOnlyMessage(path string) string {
	return "Legacy prompt stacks are read-only: " + path + ". Run preset migrate-stacks to move them into .pi/forge/prompt-stacks."
}

// DeleteLoaded removes the file a loaded resource was read from (r.Path,
// whatever its name; pi-forge deletes the loaded file, so a file whose name
// differs from its id can be deleted) when its bytes still have
// expectedRevision. The same guards as DeleteFile apply: trust, the file
// directly inside the kind's storage directory of r.Scope, no symbolic link
// from the anchor, a regular file, and the revision (ErrConflict). Legacy
// Presets are read-only (ErrRefused).
func DeleteLoaded(ws Workspace, kind Kind, r *Resource, expectedRevision string) (string, error) {
	if r.Legacy {
		if !ws.Trust.Trusted {
			return "", untrustedError(kind)
		}
		return "", newError(ErrRefused, legacyReadOnlyMessage(r.Path))
	}
	if err := CheckTarget(ws, kind, r.Scope, r.Path, ""); err != nil {
		return "", err
	}
	unlock, err := lockDir(filepath.Dir(r.Path))
	if err != nil {
		return "", newError(ErrConflict, err.Error())
	}
	defer unlock()
	if _, err := checkRevision(kind, r.Path, expectedRevision); err != nil {
		return "", err
	}
	if err := os.Remove(r.Path); err != nil {
		if kind == KindCapability {
			return "", fmt.Errorf("Failed to delete capability: %w", err)
		}
		return "", fmt.Errorf("Failed to delete %s %s: %w", kind.noun(), r.Path, err)
	}
	syncDir(filepath.Dir(r.Path))
	return r.Path, nil
}

// createExclusive publishes data at path only if path does not exist; see
// CreateFile. The fsynced temporary file is renamed with RENAME_NOREPLACE
// where the platform and file system have it, else hard-linked (both fail
// atomically on an existing name), else the name is claimed with O_EXCL
// and replaced. The error matches fs.ErrExist when the name is taken.
func createExclusive(path string, data []byte, perm fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmpName, err := writeTemp(dir, data, perm)
	if err != nil {
		return fmt.Errorf("write a temporary file: %w", err)
	}
	defer os.Remove(tmpName) // the link (if any) keeps the content alive
	if err = noReplaceHook(tmpName, path); !errors.Is(err, errNoAtomicRename) {
		if err == nil {
			syncDir(dir)
		}
		return err // nil, EEXIST (fs.ErrExist) or a real failure
	}
	err = linkHook(tmpName, path)
	if err == nil {
		syncDir(dir)
		return nil
	}
	if errors.Is(err, fs.ErrExist) || !linkUnsupported(err) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	f.Close()
	return WriteFileAtomic(path, data, perm)
}

// linkHook is os.Link; tests replace it to simulate filesystems without
// hard links.
var linkHook = os.Link

// noReplaceHook is renameNoReplace; tests replace it to reach the link(2)
// fallback that platforms and file systems without renameat2 take.
var noReplaceHook = renameNoReplace

func linkUnsupported(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOTSUP) ||
		errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EMLINK)
}

// syncDir fsyncs a directory so a rename, link or unlink survives a crash;
// best effort, as not every filesystem supports it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
