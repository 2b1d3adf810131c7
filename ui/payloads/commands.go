package payloads

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/diffview"
	"github.com/forgebench/forgebench/ui/components/requestdiff"
	"github.com/forgebench/forgebench/ui/components/sentrequest"
)

// pinnedSessions is how many sessions the panel keeps alive between its
// commands (the two sides of a comparison may come from two files).
const pinnedSessions = 2

// sessionCache opens sessions through session.Shared, so the panel uses
// the very session the Session panel has loaded instead of a copy, and
// pins the most recent ones so that comparing two entries of a big
// session, then picking another, reads it once. Commands share it.
type sessionCache struct {
	mu     sync.Mutex
	pinned []*session.Session
}

func newSessionCache() *sessionCache { return &sessionCache{} }

// open returns the session at path (read again only when the file
// changed since anyone parsed it).
func (c *sessionCache) open(path string) (*session.Session, error) {
	s, err := session.Shared(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := []*session.Session{s}
	for _, p := range c.pinned {
		if p != s && p.Path != s.Path && len(kept) < pinnedSessions {
			kept = append(kept, p)
		}
	}
	c.pinned = kept
	return s, nil
}

// env is what the panel's commands read from: the workspace's services
// and the shared session cache. Commands copy it; it holds nothing
// mutable but the cache and the services, which lock themselves.
type env struct {
	svc   *services.Services
	cache *sessionCache
}

// payloadDir is the project's saved-payload directory.
func (e env) payloadDir() string {
	return filepath.Join(e.svc.Workspace().Cwd, ".pi", "forge", "payloads")
}

// resolver is the services' reference resolver, the CLI's too (presets
// from the library or a file, Pi's defaults when a session records no
// system prompt, pi-forge's rewrite of session requests), opening
// sessions through the panel's cache.
func (e env) resolver() *replay.Resolver {
	return e.svc.Resolver(services.ResolverOptions{Open: e.cache.open})
}

// requestOptions rebuild session requests as pi-forge sent them, against
// the workspace's library (asked for when a request first needs it): the
// same options the Session panel's Context view and copy keys use.
func (e env) requestOptions() replay.RequestOptions { return sentrequest.Options(e.svc) }

// comparison is one computed diff of two references.
type comparison struct {
	refs [2]string
	// sides are the resolved references (sides[0] nil when A is empty:
	// every block of B is then added).
	sides  [2]*replay.Resolved
	labels [2]string
	diff   turndiff.Diff
	view   diffview.Diff
	cause  *turndiff.Cause
	// usage is B's recorded cache use (nil unless B is the request of an
	// assistant message with usage); branch totals B's branch.
	usage  *turndiff.CacheUse
	branch *turndiff.CacheSummary
	// lang is the language its labels and block names were made in.
	lang i18n.Lang
}

// compareMsg delivers a comparison (err set when a side failed).
type compareMsg struct {
	gen int
	cmp *comparison
	err error
}

// compareCmd resolves both references and diffs them.
func compareCmd(e env, gen int, refs [2]string) tea.Cmd {
	return func() tea.Msg {
		cmp, err := compare(e, refs)
		return compareMsg{gen: gen, cmp: cmp, err: err}
	}
}

func compare(e env, refs [2]string) (*comparison, error) {
	rv := e.resolver()
	c := &comparison{refs: refs, lang: i18n.Current()}
	for i, r := range refs {
		if r == "" {
			c.labels[i] = i18n.T("(none: every block of B counts as added)")
			continue
		}
		ref, err := replay.ParseRef(r)
		if err != nil {
			return nil, err
		}
		res, err := rv.Resolve(ref)
		if err != nil {
			return nil, &sideError{side: "AB"[i : i+1], ref: r, err: err}
		}
		c.sides[i] = res
		c.labels[i] = refLabel(res)
	}
	if c.sides[1] == nil {
		return nil, errors.New(i18n.T("pick the request B to compare"))
	}
	var prev *turndiff.Turn
	if c.sides[0] != nil {
		prev = &c.sides[0].Turn.Turn
	}
	c.diff = turndiff.DiffTurns(prev, &c.sides[1].Turn.Turn)
	if c.sides[0] != nil {
		c.cause = replay.ExplainDiff(c.sides[0], c.sides[1], &c.diff)
	}
	c.view = requestdiff.FromTurnDiff(&c.diff)
	var beforeAnn *turndiff.Annotated
	if c.sides[0] != nil {
		beforeAnn = &c.sides[0].Turn
	}
	requestdiff.Annotate(&c.view, &c.diff, beforeAnn, &c.sides[1].Turn)
	if b := c.sides[1]; b.Request != nil && b.Request.Usage != nil {
		rep := replay.CacheReportAt(b.Session, b.Index)
		for i := range rep.Uses {
			if rep.Uses[i].Index == b.Index {
				c.usage = &rep.Uses[i]
			}
		}
		c.branch = &rep.Branch
	}
	return c, nil
}

// defaultsMsg delivers the default pair for a selection.
type defaultsMsg struct {
	gen  int
	refs [2]string
	note string
	err  error
}

// defaultsCmd picks the default pair: the selected entry's request against
// the previous request on its branch; without a session, the two newest
// saved payloads of the project.
func defaultsCmd(e env, gen int, sel common.Selection) tea.Cmd {
	return func() tea.Msg {
		refs, note, err := defaults(e, sel)
		return defaultsMsg{gen: gen, refs: refs, note: note, err: err}
	}
}

func defaults(e env, sel common.Selection) ([2]string, string, error) {
	var refs [2]string
	if sel.SessionFile != "" {
		s, err := e.cache.open(sel.SessionFile)
		if err != nil {
			return refs, "", err
		}
		idx := s.LeafIndex()
		if sel.EntryID != "" {
			if i, ok := s.IndexOf(sel.EntryID); ok {
				idx = i
			}
		}
		if idx < 0 {
			return refs, i18n.T("the selected session has no entries"), nil
		}
		refs[1] = replay.Ref{Kind: replay.RefSession, Path: sel.SessionFile, Entry: s.Entries[idx].ID}.String()
		if prev := replay.PreviousRequest(s, idx); prev >= 0 {
			refs[0] = replay.Ref{Kind: replay.RefSession, Path: sel.SessionFile, Entry: s.Entries[prev].ID}.String()
		}
		return refs, "", nil
	}
	saved, err := session.ListPayloads(e.payloadDir())
	if err != nil {
		return refs, "", err
	}
	switch {
	case len(saved) >= 2:
		refs[0], refs[1] = saved[1].Path, saved[0].Path
	case len(saved) == 1:
		refs[1] = saved[0].Path
	default:
		return refs, i18n.T("no session selected and no saved payloads in .pi/forge/payloads: pick references with a and b"), nil
	}
	return refs, "", nil
}

// sideError is a reference of side A or B that did not resolve. Its
// message leaves out the reference when the cause repeats it: the header
// already shows the reference on the line above, and a long one would push
// the reason off the screen.
type sideError struct {
	side, ref string
	err       error
}

// Error is "A: <reason>" or "B: <reason>".
func (e *sideError) Error() string {
	return e.side + ": " + strings.TrimPrefix(e.err.Error(), e.ref+": ")
}

// Unwrap is the resolver's error.
func (e *sideError) Unwrap() error { return e.err }
