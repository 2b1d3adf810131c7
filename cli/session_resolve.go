package cli

import (
	"errors"
	"fmt"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
)

// resolveSessionArg replaces a session argument (a file, a session id or a
// prefix of one) with the file it names, using the services' ResolveSession: the
// one resolver the session and agents commands share. An unknown or
// ambiguous argument is a usage error.
func (g *Globals) resolveSessionArg(arg *string) error {
	svc, err := g.services()
	if err != nil {
		return err
	}
	file, err := svc.ResolveSession(*arg)
	if errors.Is(err, session.ErrNoSuchSession) || errors.Is(err, session.ErrAmbiguousSession) {
		return fail(exitUsage, "%s", sanitize.Line(err.Error()))
	}
	if err != nil {
		return fmt.Errorf("resolve session %s: %w", sanitize.Line(*arg), err)
	}
	*arg = file
	return nil
}
