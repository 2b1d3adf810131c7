package replay

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// Kinds of a request reference.
const (
	RefFile    = "file"    // FILE: a saved payload or turn snapshot
	RefSession = "session" // session:FILE#ENTRY: the request rebuilt from a session
	RefPreset  = "preset"  // preset:SELECTOR@FILE#ENTRY: a preset compiled at an entry
)

// Prefixes of the reference grammar.
const (
	sessionRefPrefix = "session:"
	presetRefPrefix  = "preset:"
)

// ErrBadRef is wrapped by ParseRef's errors.
var ErrBadRef = errors.New("bad request reference")

// Ref is a parsed request reference:
//
//	FILE                          a saved payload or turn-snapshot file
//	session:FILE#ENTRY            the request for ENTRY rebuilt from session FILE
//	preset:SELECTOR@FILE#ENTRY    preset SELECTOR compiled at ENTRY of session FILE
//
// ENTRY is an entry id; "#ENTRY" may be left out for the session's default
// leaf. The entry is what follows the last "#", the selector what precedes
// the first "@". A file whose name starts with "session:" or "preset:" is
// written with a directory, e.g. ./session:notes.json.
type Ref struct {
	Kind string
	// Raw is the reference as written.
	Raw string
	// Path is the payload or session file.
	Path string
	// Entry is the entry id ("" = the default leaf).
	Entry string
	// Selector is the preset (id, project:id, global:id or a file path).
	Selector string
}

// ParseRef parses a request reference.
func ParseRef(s string) (Ref, error) {
	r := Ref{Kind: RefFile, Raw: s}
	if strings.TrimSpace(s) == "" {
		return r, fmt.Errorf("%w: empty", ErrBadRef)
	}
	rest := ""
	switch {
	case strings.HasPrefix(s, sessionRefPrefix):
		r.Kind, rest = RefSession, s[len(sessionRefPrefix):]
	case strings.HasPrefix(s, presetRefPrefix):
		r.Kind = RefPreset
		sel, after, ok := strings.Cut(s[len(presetRefPrefix):], "@")
		if !ok || sel == "" {
			return r, fmt.Errorf("%w: %q: want preset:SELECTOR@FILE#ENTRY", ErrBadRef, s)
		}
		r.Selector, rest = sel, after
	default:
		r.Path = s
		return r, nil
	}
	if k := strings.LastIndexByte(rest, '#'); k >= 0 {
		r.Path, r.Entry = rest[:k], rest[k+1:]
		if r.Entry == "" {
			return r, fmt.Errorf("%w: %q: empty entry after #", ErrBadRef, s)
		}
	} else {
		r.Path = rest
	}
	if r.Path == "" {
		return r, fmt.Errorf("%w: %q: no session file", ErrBadRef, s)
	}
	return r, nil
}

// String writes the reference back in its canonical form.
func (r Ref) String() string {
	entry := ""
	if r.Entry != "" {
		entry = "#" + r.Entry
	}
	switch r.Kind {
	case RefSession:
		return sessionRefPrefix + r.Path + entry
	case RefPreset:
		return presetRefPrefix + r.Selector + "@" + r.Path + entry
	}
	return r.Path
}

// Resolver turns references into turns. It keeps every session it opened,
// so references into one file read it once. Not safe for concurrent use.
type Resolver struct {
	Catalog *catalog.Catalog
	// Location is the local time zone for preset date slots (nil: Local).
	Location *time.Location
	// LoadPreset resolves a preset SELECTOR (nil: preset references fail).
	// id names the preset in causes.
	LoadPreset func(selector string) (stack *preset.Stack, id string, err error)
	// Fallback gives the runtime and base prompt for a session that records
	// no system prompt (see PresetInput.Fallback).
	Fallback Defaults
	// Macros are custom macro values for presets.
	Macros map[string]string
	// Open opens a session (nil: Open).
	Open func(path string) (*session.Session, error)
	// Forge reproduces pi-forge's rewrite of session and preset requests
	// (capstate.Forge); nil rebuilds them as Pi alone would send them.
	Forge Forge

	sessions map[string]*session.Session
}

// Resolved is one side of a comparison.
type Resolved struct {
	Ref Ref
	// Turn is the snapshot compared, with what produced its blocks.
	Turn turndiff.Annotated
	// File is the payload file (file references).
	File *session.PayloadFile
	// Session, Request and Index are set for session and preset references:
	// the session, the rebuilt request and the entry index.
	Session *session.Session
	Request *Request
	Index   int
	// Stack is the preset compiled (preset references).
	Stack *preset.Stack
	// PresetID names it.
	PresetID string
}

// Resolve reads or rebuilds what a reference names.
func (rv *Resolver) Resolve(ref Ref) (*Resolved, error) {
	out := &Resolved{Ref: ref, Index: -1}
	if ref.Kind == RefFile {
		f, err := session.ReadPayloadFile(ref.Path)
		if err != nil {
			return nil, err
		}
		out.File = f
		out.Turn = turndiff.Annotated{Turn: f.Turn}
		return out, nil
	}
	ref = refPathWithHash(ref)
	out.Ref = ref
	s, err := rv.session(ref.Path)
	if err != nil {
		return nil, err
	}
	index := s.LeafIndex()
	if ref.Entry != "" {
		i, ok := s.IndexOf(ref.Entry)
		if !ok {
			return nil, fmt.Errorf("%s: no entry %q in %s: %w", ref.Raw, ref.Entry, ref.Path, session.ErrUnknownEntry)
		}
		index = i
	}
	if index < 0 {
		return nil, fmt.Errorf("%s: %s has no entries: %w", ref.Raw, ref.Path, session.ErrUnknownEntry)
	}
	out.Session, out.Index = s, index
	if ref.Kind == RefSession {
		req, err := RequestWith(s, index, RequestOptions{Catalog: rv.Catalog, Forge: rv.Forge})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref.Raw, err)
		}
		out.Request = req
		out.Turn = req.Turn
		out.Turn.Turn.TurnID = ref.String()
		return out, nil
	}
	if rv.LoadPreset == nil {
		return nil, fmt.Errorf("%s: presets cannot be resolved here", ref.Raw)
	}
	stack, id, err := rv.LoadPreset(ref.Selector)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref.Raw, err)
	}
	req, err := RequestWith(s, index, RequestOptions{Catalog: rv.Catalog, Forge: rv.Forge, Preset: &PresetInput{
		Stack: stack, PresetID: id, Macros: rv.Macros, Catalog: rv.Catalog, Location: rv.Location, Fallback: rv.Fallback,
	}})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref.Raw, err)
	}
	out.Request, out.Stack, out.PresetID = req, stack, id
	out.Turn = req.Turn
	out.Turn.Turn.TurnID = ref.String()
	return out, nil
}

// refPathWithHash reads a session path that itself holds a "#" and has no
// #ENTRY after it ("session:we#ird/s.jsonl"): ParseRef split it at the
// last "#", so when that path does not exist but the whole one does, the
// whole one is the file and the entry is the default leaf.
func refPathWithHash(ref Ref) Ref {
	if ref.Entry == "" {
		return ref
	}
	if _, err := os.Stat(ref.Path); err == nil {
		return ref
	}
	whole := ref.Path + "#" + ref.Entry
	if info, err := os.Stat(whole); err == nil && !info.IsDir() {
		ref.Path, ref.Entry = whole, ""
	}
	return ref
}

func (rv *Resolver) session(path string) (*session.Session, error) {
	if s, ok := rv.sessions[path]; ok {
		return s, nil
	}
	open := rv.Open
	if open == nil {
		open = session.Open
	}
	s, err := open(path)
	if err != nil {
		return nil, err
	}
	if rv.sessions == nil {
		rv.sessions = map[string]*session.Session{}
	}
	rv.sessions[path] = s
	return s, nil
}

// PreviousRequest is the request before the one RequestAt(s, index)
// rebuilds, on the same branch: the last assistant message on the path
// before index (before the assistant message itself when index is one).
// -1 when there is none.
func PreviousRequest(s *session.Session, index int) int {
	if index < 0 || index >= len(s.Entries) {
		return -1
	}
	path := s.PathTo(index)
	for k := len(path) - 2; k >= 0; k-- {
		if e := &s.Entries[path[k]]; e.Type == session.TypeMessage && e.Role == session.RoleAssistant {
			return path[k]
		}
	}
	return -1
}

// RequestEntries lists the assistant messages on the path to leaf, oldest
// first: the requests of that branch.
func RequestEntries(s *session.Session, leaf int) []int {
	var out []int
	for _, i := range s.PathTo(leaf) {
		if e := &s.Entries[i]; e.Type == session.TypeMessage && e.Role == session.RoleAssistant {
			out = append(out, i)
		}
	}
	return out
}
