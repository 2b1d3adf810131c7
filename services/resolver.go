package services

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/replay"
)

// ResolverOptions are what a front end adds to the shared resolver: how it
// opens a session file, reads a preset file and hears about a preset's
// errors. The zero value is the TUI's.
type ResolverOptions struct {
	// ResolveSession names the file of a reference's session: a file, a
	// session id or a unique prefix of one (nil: ResolveSession).
	ResolveSession func(arg string) (string, error)
	// Open opens a session file (nil: session.Open).
	Open func(path string) (*session.Session, error)
	// ReadPresetFile reads a preset given as a file (nil: a regular file
	// read up to session.MaxPayloadFileBytes; a FIFO would block and
	// /dev/zero never end). Its error is returned as it is.
	ReadPresetFile func(path string) ([]byte, error)
	// Library is the library presets are resolved in (nil: Library); the
	// CLI's reports the library's notices.
	Library func() (*resources.Library, error)
	// PresetErrors is told the name of every preset a reference compiles
	// and how many error diagnostics it has (nil: nothing).
	PresetErrors func(name string, errs int)
}

// PresetPathError is a preset reference written as a path that cannot be
// read (no such file, no permission …).
type PresetPathError struct{ Err error }

func (e *PresetPathError) Error() string { return "preset " + e.Err.Error() }

// Unwrap is the stat error.
func (e *PresetPathError) Unwrap() error { return e.Err }

// Resolver resolves request references (a payload file, the request at a
// session entry, a preset compiled at an entry) against the workspace:
// sessions by file, id or unique id prefix among the workspace's, presets
// by file or library selector, Pi's defaults where a session records no
// system prompt, pi-forge's rewrite of session requests. `payload show`,
// `payload diff`, `session context --as-sent` and the Payloads panel all
// resolve through it.
func (s *Services) Resolver(o ResolverOptions) *replay.Resolver {
	opts := s.RequestOptionsWith(o.Library)
	return &replay.Resolver{
		Catalog:    opts.Catalog,
		Location:   time.Local,
		Open:       func(path string) (*session.Session, error) { return s.openRef(o, path) },
		LoadPreset: func(sel string) (*preset.Stack, string, error) { return s.loadPreset(o, sel) },
		Fallback:   s.PiDefaults,
		Forge:      opts.Forge,
	}
}

// openRef opens the session of a reference: a file, else a session id or
// a unique prefix of one among the workspace's sessions.
func (s *Services) openRef(o ResolverOptions, path string) (*session.Session, error) {
	resolve := o.ResolveSession
	if resolve == nil {
		resolve = s.ResolveSession
	}
	path, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if o.Open != nil {
		return o.Open(path)
	}
	return session.Open(path)
}

// ResolveSession names the file of a session argument: a file, a session
// id or a unique prefix of one (session.ResolveSession over Locations).
func (s *Services) ResolveSession(arg string) (string, error) {
	loc, err := s.Locations()
	if err != nil {
		return "", fmt.Errorf("session locations: %w", err)
	}
	return session.ResolveSession(loc, s.ws.Cwd, s.home, arg)
}

// loadPreset reads a preset reference: an existing file (a missing one
// written as a path is a PresetPathError), else a selector resolved in the
// library (an unusable preset still compiles, as pi-forge's preview does).
func (s *Services) loadPreset(o ResolverOptions, sel string) (*preset.Stack, string, error) {
	info, statErr := os.Stat(sel)
	if statErr != nil && strings.ContainsAny(sel, `/\`) {
		// Library selectors never hold a path separator: this names a file.
		return nil, "", &PresetPathError{Err: statErr}
	}
	if statErr == nil && !info.IsDir() {
		read := o.ReadPresetFile
		if read == nil {
			read = readPresetFile
		}
		raw, err := read(sel)
		if err != nil {
			return nil, "", err
		}
		st, diags := preset.Parse(raw, filepath.Base(sel))
		if o.PresetErrors != nil {
			errs := 0
			for _, d := range diags {
				if d.Level == preset.LevelError {
					errs++
				}
			}
			o.PresetErrors(sel, errs)
		}
		return st, sel, nil
	}
	library := o.Library
	if library == nil {
		library = s.Library
	}
	lib, err := library()
	if err != nil {
		if o.Library == nil {
			err = fmt.Errorf("load library: %w", err)
		}
		return nil, "", err
	}
	p, err := lib.ResolvePreset(sel)
	if err != nil && (p == nil || !errors.Is(err, resources.ErrUnusable)) {
		return nil, "", err
	}
	if o.PresetErrors != nil {
		errs, _ := p.Counts()
		o.PresetErrors(p.Key(), errs)
	}
	return p.Stack, p.Key(), nil
}

// readPresetFile reads a preset file given by path, regular files only.
func readPresetFile(path string) ([]byte, error) {
	raw, err := regfile.Read(path, session.MaxPayloadFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read preset: %w", err)
	}
	return raw, nil
}

// Conflict is one Preset a save would make break the capabilities active
// in a session (capstate.SavePreflight's words in Problem).
type Conflict struct {
	Key     capability.Key
	Problem string
}

// SavePreflight is pi-forge's check (0.5.6) before a Preset in force is
// overwritten: the frozen capability snapshots at the leaf of s must
// satisfy each draft's tool policy. It returns the drafts that would
// break them, in order; the error is an unreadable capability history or
// library.
func (s *Services) SavePreflight(sess *session.Session, drafts ...*capability.PresetRef) ([]Conflict, error) {
	in, err := s.CapabilityInputs()
	if err != nil {
		return nil, err
	}
	st, err := capstate.At(sess, sess.LeafIndex(), in, capstate.DefaultOptions(nil))
	if err != nil {
		return nil, err
	}
	var out []Conflict
	for _, d := range drafts {
		if problem := capstate.SavePreflight(st, d); problem != "" {
			out = append(out, Conflict{Key: d.Key, Problem: problem})
		}
	}
	return out, nil
}

// PreflightFile is SavePreflight for one draft against the session file
// at path: the conflict's words, "" when nothing conflicts or nothing can
// be checked (an unreadable session or history saves as pi-forge would
// without a session).
func (s *Services) PreflightFile(path string, draft *capability.PresetRef) string {
	sess, err := session.Open(path)
	if err != nil {
		return ""
	}
	conflicts, err := s.SavePreflight(sess, draft)
	if err != nil || len(conflicts) == 0 {
		return ""
	}
	return conflicts[0].Problem
}
