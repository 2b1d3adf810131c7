package cli

import (
	"errors"
	"fmt"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
)

// sessionUse says what a command does with the session it is given, which
// decides what happens when none is named.
type sessionUse int

const (
	// readsSession: no session named means the project's newest session,
	// and the command says on stderr which one it read.
	readsSession sessionUse = iota
	// writesSession: a session must be named; none is a usage error.
	writesSession
	// requiredSession: the argument's grammar names a session (a payload
	// reference's session:FILE); none is a usage error.
	requiredSession
	// optionalSession: no session named means no session (the session
	// only adds to what the command does, like preset list's ▶ mark).
	optionalSession
)

// namedSession is the one way every command turns a session argument into
// a file: a file path, a session id or a unique prefix of one (through
// session.ResolveSession, which the TUI's payload references share). An
// empty argument is resolved by use; what names the argument in messages
// ("--session", "FILE"). Unknown and ambiguous arguments are usage errors
// (exit 2); the ambiguity lists the candidates with their titles and
// times, one per line.
func (g *Globals) namedSession(arg, what string, use sessionUse) (string, error) {
	if arg != "" {
		if err := g.resolveSessionArg(&arg); err != nil {
			return "", err
		}
		return arg, nil
	}
	switch use {
	case writesSession:
		return "", failErr(exitUsage, i18n.Errorf("name the session to change with %s (a file, a session id or a unique prefix of one; `forgebench session list` shows them): a command that writes never picks one itself", what))
	case requiredSession:
		return "", failErr(exitUsage, i18n.Errorf("%s names no session (a file, a session id or a unique prefix of one)", what))
	case optionalSession:
		return "", nil
	}
	it, err := g.newestSession()
	if err != nil {
		return "", err
	}
	g.sayWhichSession(it, what)
	return it.Path, nil
}

// newestSession is the project's newest readable session (newest activity
// first, as `session list` orders them); none is a usage error.
func (g *Globals) newestSession() (session.ListItem, error) {
	ws, err := g.workspace()
	if err != nil {
		return session.ListItem{}, err
	}
	loc, home, err := g.sessionLocations("")
	if err != nil {
		return session.ListItem{}, i18n.Errorf("session locations: %w", err)
	}
	items, err := session.ListCwd(loc, ws.Cwd, session.ListOptions{Home: home})
	if err != nil {
		return session.ListItem{}, i18n.Errorf("list sessions: %w", err)
	}
	for _, it := range items { // newest activity first
		if it.Problem == "" {
			return it, nil
		}
	}
	return session.ListItem{}, failErr(exitUsage, i18n.Errorf("%v: the project %s has no Pi session under %s; name one (a file, an id or a prefix)",
		session.ErrNoSuchSession, sanitize.Line(ws.Cwd), sanitize.Line(loc.SessionsRoot())))
}

// sayWhichSession tells the user, on stderr, which session a command read
// when none was named.
func (g *Globals) sayWhichSession(it session.ListItem, what string) {
	fmt.Fprint(g.stderr, i18n.T("forgebench: reading the project's newest session, %s %q (%s); name another with %s\n",
		shortID(it.ID), it.Title(), it.LastActivity.Local().Format("2006-01-02 15:04"), what))
}

// shortID is the first 8 characters of a session id, the prefix `session
// list` shows and every session argument accepts.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// resolveSessionArg replaces a session argument (a file, a session id or a
// prefix of one) with the file it names, using session.ResolveSession. An
// unknown or ambiguous argument is a usage error. Commands call it through
// namedSession.
func (g *Globals) resolveSessionArg(arg *string) error {
	svc, err := g.services()
	if err != nil {
		return err
	}
	loc, err := svc.Locations()
	if err != nil {
		return i18n.Errorf("session locations: %w", err)
	}
	file, err := session.ResolveSession(loc, svc.Workspace().Cwd, svc.Home(), *arg)
	if errors.Is(err, session.ErrNoSuchSession) || errors.Is(err, session.ErrAmbiguousSession) {
		return fail(exitUsage, "%s", sanitize.Text(err.Error()))
	}
	if err != nil {
		return i18n.Errorf("resolve session %s: %w", sanitize.Line(*arg), err)
	}
	*arg = file
	return nil
}
