package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
)

// ProfileUseCmd applies an agent profile to a session offline, as
// /profile use does.
type ProfileUseCmd struct {
	Selector string `arg:"" help:"Profile to apply: id, project:id or global:id." predictor:"profile"`
	mutationFlags
}

// Run runs pi-forge's transactional preflight (model in the catalog,
// authentication, thinking support, the Preset's diagnostics, allow
// patterns matching no tool) and, when nothing fails, appends what
// /profile use leaves: Pi's model and thinking-level changes, the Preset
// selection (with the capability sync of a switch) and the provenance
// entry, through the guarded append. Any preflight error writes nothing.
// When the profile switches the Preset, pi-forge's prompt-cache notice
// follows its message on standard error (cacheWarning in --json), as
// preset use does.
func (c *ProfileUseCmd) Run(g *Globals) error {
	path, s, ws, err := c.openTarget(g)
	if err != nil {
		return err
	}
	if !ws.Trust.Trusted {
		return fail(exitRefused, "pi-forge: project is not trusted; refusing to apply an agent profile. (the session's project %s: %s)", ws.Cwd, ws.Trust.Source) //i18n:raw pi-forge's words (contract)
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	p, _ := lib.ResolveProfile(c.Selector)
	if p == nil {
		return fail(exitUsage, "Unknown agent profile: %s", c.Selector) //i18n:raw pi-forge's words (contract)
	}
	cat, err := g.modelCatalog()
	if err != nil {
		return err
	}
	capIn, err := g.capabilityInputs()
	if err != nil {
		return err
	}
	now := time.Now()
	clock := func() time.Time { return now }
	u, err := services.PlanProfileUse(lib, cat, capIn, ws, s, p, c.Selector, now)
	if err != nil {
		return err
	}
	if u.Failure != "" {
		return fail(exitFailed, "%s", u.Failure)
	}
	res, entries, msg := u.Resolved, u.Entries, u.Message
	written := false
	if !c.DryRun {
		opts := session.AppendOptions{Force: c.Force, Now: clock, Project: ws.Cwd, AllowContextTypes: true}
		if err := appendGuarded(path, u.Guard, entries, opts); err != nil {
			return err
		}
		written = true
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(g.stderr, "%s: %s\n", d.Level, sanitize.Line(d.Message))
	}
	if u.Warning != "" {
		fmt.Fprintln(g.stderr, "pi-forge: "+sanitize.Line(u.Warning))
	}
	return c.reportEntries(g, path, msg, u.CacheWarning, entries, written)
}

// reportEntries prints the outcome of an append that is not a capability
// change: pi-forge's message, its notice about the change when there is
// one (on standard error, as pi-forge shows it after the message) and,
// for a dry run, the entries; --json prints {message, cacheWarning (only
// with a notice), written, entries:[{type, …fields}]}.
func (f *mutationFlags) reportEntries(g *Globals, path, msg, note string, entries []session.NewEntry, written bool) error {
	if f.JSON {
		list := make([]any, len(entries))
		for i, e := range entries {
			list[i] = newEntryJSON(e)
		}
		out := jsonv.NewObject()
		out.Set("message", msg)
		if note != "" {
			out.Set("cacheWarning", note)
		}
		out.Set("written", written)
		out.Set("entries", list)
		_, err := io.WriteString(g.stdout, jsonv.Stringify(out)+"\n")
		return err
	}
	fmt.Fprintln(g.stdout, sanitize.Text(msg))
	if note != "" {
		fmt.Fprintln(g.stderr, "pi-forge: "+sanitize.Line(note))
	}
	if !f.DryRun {
		return nil
	}
	if len(entries) == 0 {
		fmt.Fprintln(g.stdout, "\n"+i18n.T("(dry run: nothing would be appended)"))
		return nil
	}
	fmt.Fprintln(g.stdout, "\n"+i18n.T("(dry run) %d entries would be appended to %s:", len(entries), path))
	for _, e := range entries {
		fmt.Fprintln(g.stdout, sanitize.Line(jsonv.Stringify(newEntryJSON(e))))
	}
	return nil
}

// newEntryJSON is an entry to append as {type, …fields} (without the id,
// parentId and timestamp the append adds).
func newEntryJSON(e session.NewEntry) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("type", e.Type)
	if e.Fields != nil {
		e.Fields.Range(func(k string, v any) bool {
			o.Set(k, v)
			return true
		})
	}
	return o
}

// ProfileForgetCmd appends {provenance: null}, as /profile forget does.
type ProfileForgetCmd struct {
	mutationFlags
}

// Run appends the forgetting entry when the branch has a last-applied
// profile; the model, thinking level and Preset stay as they are.
func (c *ProfileForgetCmd) Run(g *Globals) error {
	path, s, ws, err := c.openTarget(g)
	if err != nil {
		return err
	}
	if !ws.Trust.Trusted {
		return untrustedProject(ws)
	}
	entries := services.PlanProfileForget(s)
	if entries == nil {
		return c.reportEntries(g, path, services.ForgetNothing, "", nil, false)
	}
	written := false
	if !c.DryRun {
		if err := appendGuarded(path, session.GuardOf(s), entries, session.AppendOptions{Force: c.Force, Project: ws.Cwd}); err != nil {
			return err
		}
		written = true
	}
	return c.reportEntries(g, path, services.ForgetDone, "", entries, written)
}
