// Package services is what both front ends read the workspace through:
// the workspace itself, its library (read when first asked, read again
// on Reload), Pi's model catalog, the session locations, the request
// reference resolver and pi-forge's save preflight. The CLI's Globals
// builds one per run, the TUI one per process (common.Common holds it);
// every panel and command asks it instead of loading its own copy, so a
// reload is one replacement every reader sees.
//
// A Services value is safe for concurrent use: panels ask it from their
// commands.
package services

import (
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// built counts the values New made in this process (Built).
var built atomic.Int64

// Built is how many Services values New has made in this process: the
// test hook that holds each front end to one.
func Built() int64 { return built.Load() }

// Services is the shared services of one workspace.
type Services struct {
	ws     resources.Workspace
	getenv func(string) string
	home   string

	// loadMu makes the first Library calls wait for one read.
	loadMu sync.Mutex
	libMu  sync.Mutex
	// lib is the library snapshot (nil: not read yet, or dropped by
	// Invalidate); libSeq numbers the reads started, libHave the read lib
	// came from, so an older read never replaces a newer one.
	lib     *resources.Library
	libSeq  uint64
	libHave uint64
	// libLoads counts the library reads (LibraryLoads).
	libLoads atomic.Int64

	locMu   sync.Mutex
	loc     session.Locations
	locErr  error
	locRead bool
}

// New makes the services of ws. Nothing is read until asked.
func New(ws resources.Workspace) *Services {
	built.Add(1)
	home, _ := os.UserHomeDir()
	return &Services{ws: ws, getenv: os.Getenv, home: home}
}

// Workspace is the workspace the services read.
func (s *Services) Workspace() resources.Workspace { return s.ws }

// Home is the user's home directory (finds Pi's default session
// directory and expands "~").
func (s *Services) Home() string { return s.home }

// Library is the library snapshot, read on first use and kept until
// Reload or Invalidate. A failed read is not kept: the next call reads
// again.
func (s *Services) Library() (*resources.Library, error) {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	s.libMu.Lock()
	lib := s.lib
	s.libMu.Unlock()
	if lib != nil {
		return lib, nil
	}
	return s.Reload()
}

// Reload reads the library again and makes the new snapshot the one every
// later Library call returns (a panel's reload: `r`, a change on disk, its
// own write). Two reloads racing keep the later one's snapshot.
func (s *Services) Reload() (*resources.Library, error) {
	s.libMu.Lock()
	s.libSeq++
	seq := s.libSeq
	s.libMu.Unlock()
	s.libLoads.Add(1)
	lib, err := resources.LoadLibrary(s.ws)
	if err != nil {
		return nil, err // it says "load library: …" itself
	}
	s.libMu.Lock()
	defer s.libMu.Unlock()
	if seq > s.libHave {
		s.lib, s.libHave = lib, seq
	}
	return lib, nil
}

// Invalidate drops the library snapshot; the next Library call reads the
// files again.
func (s *Services) Invalidate() {
	s.libMu.Lock()
	s.lib = nil
	s.libHave = s.libSeq // a read in flight is older than the drop
	s.libMu.Unlock()
}

// LibraryLoads is how many times the library was read (tests).
func (s *Services) LibraryLoads() int64 { return s.libLoads.Load() }

// Catalog is Pi's model catalog of the workspace's agent directory
// (catalog.Shared: one parse per file version) with models.json's
// problems, which the caller reports (the CLI on stderr, the TUI's root
// as a status).
func (s *Services) Catalog() (*catalog.Catalog, []catalog.Diagnostic) {
	return catalog.Shared(s.ws.AgentDir)
}

// Locations are where the workspace's sessions live (Pi's agent directory,
// the settings' sessionDir), resolved on first use and kept until
// ReloadLocations.
func (s *Services) Locations() (session.Locations, error) {
	s.locMu.Lock()
	defer s.locMu.Unlock()
	if !s.locRead {
		s.loc, s.locErr = session.ResolveLocationsFor(s.ws.Cwd, s.ws.AgentDir, "", s.getenv, s.home)
		s.locRead = true
	}
	return s.loc, s.locErr
}

// ReloadLocations resolves the session locations again (the settings
// files may name another directory now) and keeps the answer.
func (s *Services) ReloadLocations() (session.Locations, error) {
	s.locMu.Lock()
	s.locRead = false
	s.locMu.Unlock()
	return s.Locations()
}

// LocationsWith resolves the locations with a --session-dir of the
// caller's ("" = the workspace's, as Locations).
func (s *Services) LocationsWith(flagDir string) (session.Locations, error) {
	if flagDir == "" {
		return s.Locations()
	}
	return session.ResolveLocationsFor(s.ws.Cwd, s.ws.AgentDir, flagDir, s.getenv, s.home)
}

// CapabilityInputs are what pi-forge's capability state is computed from:
// the library as pi-forge sees it and the model catalog.
func (s *Services) CapabilityInputs() (capstate.Inputs, error) {
	lib, err := s.Library()
	if err != nil {
		return capstate.Inputs{}, err
	}
	cat, _ := s.Catalog()
	return capstate.Inputs{Workspace: lib.CapabilityWorkspace(), Catalog: cat}, nil
}

// PiDefaults is Pi's default runtime and base prompt for the workspace,
// for sessions that record no system prompt.
func (s *Services) PiDefaults() (compile.Runtime, string, error) {
	return resources.PiDefaultRuntime(s.ws, nil, time.Now())
}

// RequestOptions rebuild session requests as pi-forge sent them: the
// model catalog and pi-forge's rewrite over the library, which is asked
// for when a request first needs it (once per RequestOptions value).
func (s *Services) RequestOptions() replay.RequestOptions { return s.RequestOptionsWith(nil) }

// RequestOptionsWith is RequestOptions over the library library gives
// (nil: Library); the CLI's reports the library's notices.
func (s *Services) RequestOptionsWith(library func() (*resources.Library, error)) replay.RequestOptions {
	if library == nil {
		library = s.Library
	}
	cat, _ := s.Catalog()
	return replay.RequestOptions{Catalog: cat, Forge: capstate.LazyForge(func() (*capstate.Forge, error) {
		lib, err := library()
		if err != nil {
			return nil, err // it says "load library: …" itself
		}
		return &capstate.Forge{
			Inputs:   capstate.Inputs{Workspace: lib.CapabilityWorkspace(), Catalog: cat},
			Location: time.Local,
			Fallback: s.PiDefaults,
		}, nil
	})}
}
