package cli

import (
	"fmt"
	"os"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
)

// ProfileSaveCmd captures a session entry's runtime as a profile, as
// /profile save does.
type ProfileSaveCmd struct {
	Selector  string `arg:"" help:"Profile to write: id or global:id (project:id is the default scope)." predictor:"profile"`
	Session   string `help:"Pi session to capture from (required): a file, a session id or a unique prefix of one." placeholder:"SESSION" predictor:"session"`
	Leaf      string `help:"Entry to capture at (default: the last entry)." placeholder:"ID" predictor:"entry"`
	Scope     string `help:"Scope to write to: project or global (default: the selector's, else project)." enum:",project,global" default:""`
	Overwrite bool   `help:"Replace an existing profile of that id (its name, description and autoActivate are kept)."`
	JSON      bool   `name:"json" help:"Print {message, path, sourceRevision, profile}."`
}

// Run captures the model, thinking level and active Preset at the entry
// and writes the profile file (exclusive create, or a revision-checked
// replace with --overwrite) in the session's project or the global
// directory.
func (c *ProfileSaveCmd) Run(g *Globals) error {
	sel, msg := preset.ParseSelector(c.Selector)
	if msg != "" {
		return fail(exitUsage, "%s", msg)
	}
	scope := sel.Scope
	if c.Scope != "" {
		if scope != "" && string(scope) != c.Scope {
			return failErr(exitUsage, i18n.Errorf("%s names scope %s but --scope says %s", c.Selector, scope, c.Scope))
		}
		scope = preset.Scope(c.Scope)
	}
	if scope == "" {
		scope = preset.ScopeProject
	}
	id := sel.ID
	path, err := g.namedSession(c.Session, "--session", writesSession)
	if err != nil {
		return err
	}
	s, index, err := openAt(path, c.Leaf)
	if err != nil {
		return err
	}
	ws, err := g.bindSessionProject(s, path)
	if err != nil {
		return err
	}
	if !ws.Trust.Trusted {
		return fail(exitRefused, "pi-forge: project is not trusted; refusing to write an agent profile. (the session's project %s: %s)", ws.Cwd, ws.Trust.Source) //i18n:raw pi-forge's words (contract)
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	var existing *resources.Profile
	n := 0
	for _, p := range lib.Profiles {
		if p.Scope == scope && p.ID == id {
			existing = p
			n++
		}
	}
	if n > 1 {
		return fail(exitFailed, "pi-forge: cannot save profile %s while duplicate %s profile ids exist.", id, scope) //i18n:raw pi-forge's words (contract)
	}
	target := resources.TargetPath(ws, resources.KindProfile, scope, id)
	if existing != nil {
		target = existing.Path
	}
	if _, statErr := os.Lstat(target); statErr == nil && !c.Overwrite {
		return fail(exitConflict, "pi-forge: profile %s already exists; re-run with --overwrite.", id) //i18n:raw pi-forge's words (contract)
	}
	// The active Preset is what pi-forge's runtime holds at the entry: the
	// recorded selection, else the one auto-activation chose.
	in, err := g.capabilityInputs()
	if err != nil {
		return err
	}
	var prior *profile.Profile
	if existing != nil && !existing.Fault {
		prior = existing.Profile
	}
	p, _, failure, err := services.CaptureProfile(s, index, in, id, scope, prior)
	if err != nil {
		return err
	}
	if failure != "" {
		return fail(exitFailed, "%s", failure)
	}
	var res resources.WriteResult
	if existing != nil && c.Overwrite {
		res, err = resources.SaveProfile(ws, scope, id, p, existing.SourceRevision)
	} else {
		res, err = resources.CreateProfile(ws, scope, p)
	}
	if err != nil {
		return libraryError(err)
	}
	done := "pi-forge: saved current runtime as profile " + id + "; the profile was not applied or marked active." //i18n:raw pi-forge's words (contract)
	if c.JSON {
		o := jsonv.NewObject()
		o.Set("message", done)
		o.Set("path", res.Path)
		o.Set("sourceRevision", res.SourceRevision)
		o.Set("profile", profile.ToJSON(p))
		return printJSON(g.stdout, o)
	}
	fmt.Fprintf(g.stdout, "%s\n%s\n", done, sanitize.Line(res.Path))
	return nil
}
