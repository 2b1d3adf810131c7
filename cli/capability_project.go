package cli

import (
	"os"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
)

// bindSessionProject makes the session's own project the project of this
// run, before anything is loaded: every command that appends to a session
// takes trust, Presets and capabilities from the project the session
// belongs to — its header's cwd, as Pi resolves it when the session is
// resumed — never from the directory forgebench happens to run in. A
// project named with --cwd (or --demo's) must be that same directory
// (exit 4 naming both otherwise); a project that no longer exists is
// refused too (Pi will not continue such a session). It returns the
// workspace of the session's project.
func (g *Globals) bindSessionProject(s *session.Session, path string) (resources.Workspace, error) {
	if _, err := g.workspace(); err != nil { // unpacks --demo, which names a project
		return resources.Workspace{}, err
	}
	named := g.Cwd
	fallback := named
	if fallback == "" {
		fallback, _ = os.Getwd()
	}
	project := s.Project(fallback)
	if fi, err := os.Stat(project); err != nil || !fi.IsDir() {
		return resources.Workspace{}, failErr(exitRefused, i18n.Errorf("%s belongs to project %s, which does not exist: Pi would not continue it there, and forgebench writes nothing", path, project))
	}
	if named != "" && !session.SameProject(named, project) {
		return resources.Workspace{}, failErr(exitRefused, i18n.Errorf("%s belongs to project %s, but --cwd names %s: an append takes trust, Presets and capabilities from the session's own project; run without --cwd, or with --cwd %s",
			path, project, named, project))
	}
	g.Cwd = project
	return g.workspace()
}

// untrustedProject is the refusal of an append to a session whose project
// is not trusted.
func untrustedProject(ws resources.Workspace) error {
	return failErr(exitRefused, i18n.Errorf("the session's project %s is not trusted (%s): forgebench does not append to its sessions (--trust trusts it for one run)", ws.Cwd, ws.Trust.Source))
}
