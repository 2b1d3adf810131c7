package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
)

// sessionFlags name the session a reading command reads.
type sessionFlags struct {
	Session string `help:"Pi session: a file, a session id or a unique prefix of one (default: the newest session of the project, named on stderr)." placeholder:"SESSION" predictor:"session"`
}

// sessionPath resolves --session (a file, an id or an id prefix, as every
// command names a session), else the project's newest session.
func (f *sessionFlags) sessionPath(g *Globals) (string, error) {
	return g.namedSession(f.Session, "--session", readsSession)
}

// writeSessionFlags name the session a command appends to: never a
// default, so a write lands only where the user said.
type writeSessionFlags struct {
	Session string `help:"Pi session to change (required): a file, a session id or a unique prefix of one." placeholder:"SESSION" predictor:"session"`
}

// sessionPath resolves --session; none is a usage error.
func (f *writeSessionFlags) sessionPath(g *Globals) (string, error) {
	return g.namedSession(f.Session, "--session", writesSession)
}

// capabilityInputs loads the library and the model catalog.
func (g *Globals) capabilityInputs() (capstate.Inputs, error) {
	lib, err := g.loadLibrary()
	if err != nil {
		return capstate.Inputs{}, err
	}
	cat, err := g.modelCatalog()
	if err != nil {
		return capstate.Inputs{}, err
	}
	return capstate.Inputs{Workspace: lib.CapabilityWorkspace(), Catalog: cat}, nil
}

// historyError reports an unreadable capability history (exit 1).
func historyError(st *capstate.State) error {
	where := ""
	if st.ErrEntryID != "" {
		where = i18n.T(" (entry %s)", st.ErrEntryID)
	}
	return fail(exitFailed, "%s%s", st.Err.Message, where)
}

// CapabilityStatusCmd prints the capability state at an entry.
type CapabilityStatusCmd struct {
	sessionFlags
	Leaf string `help:"Entry to read the state at (default: the last entry, as Pi does)." placeholder:"ID" predictor:"entry"`
	JSON bool   `name:"json" help:"Print {leafId, activePreset, active:[{activationId, actor, source, bindingId?, name?, content, tools, fingerprint, eventId, createdAt}], lastEventId, pendingEventIds, delivery, presentation, effectiveTools, abandonedWrites:[{entryIds, parentId, timestamp}], modelCallable:[{bindingId, capability, name}] (what the agent may enable through forge_capability there), problem (pi-forge's problem with the state, or null)}."`
}

// Run prints pi-forge's /capability status text, or the JSON contract.
func (c *CapabilityStatusCmd) Run(g *Globals) error {
	path, err := c.sessionPath(g)
	if err != nil {
		return err
	}
	s, index, err := openAt(path, c.Leaf)
	if err != nil {
		return err
	}
	in, err := g.capabilityInputs()
	if err != nil {
		return err
	}
	st, err := capstate.At(s, index, in, capstate.DefaultOptions(nil))
	if err != nil {
		return err
	}
	if st.Err != nil {
		return historyError(st)
	}
	st.Abandoned = capstate.AbandonedWrites(s)
	if c.JSON {
		v := capstate.StatusValue(st)
		v.Set("modelCallable", modelCallableJSON(st))
		v.Set("problem", orNull(st.Problem))
		_, err := io.WriteString(g.stdout, jsonv.Stringify(v)+"\n")
		return err
	}
	// pi-forge's status text is contract ("Capability capabilities: <n>";
	// spec §9.12): quoted, indented, under a line in the product's words.
	active := i18n.T("no capability active")
	switch n := len(st.Active()); n {
	case 0:
	case 1:
		active = i18n.T("1 capability active")
	default:
		active = i18n.T("%d capabilities active", n)
	}
	at := i18n.T("before its first entry")
	if index >= 0 && index < len(s.Entries) {
		at = i18n.T("at entry %s", s.Entries[index].ID)
	}
	fmt.Fprint(g.stdout, i18n.T("%s in session %s %q %s\n\npi-forge's /capability status:\n", active, shortID(s.Header.ID), s.Title(), at))
	quoted := "  " + strings.ReplaceAll(sanitize.Text(st.StatusText(true)), "\n", "\n  ")
	text := strings.ReplaceAll(quoted, "\n  \n", "\n\n")
	if st.Problem != "" {
		// pi-forge's problem with the state (untrusted with active
		// capabilities), as the Capabilities panel shows it.
		text += "\n\nproblem: " + sanitize.Line(st.Problem)
	}
	if callable := modelCallableJSON(st); len(callable) > 0 {
		text += "\n\n" + i18n.T("the agent may enable (forge_capability):")
		for _, v := range callable {
			o := v.(*jsonv.Object)
			id, _ := o.Get("bindingId")
			ref, _ := o.Get("capability")
			text += "\n  " + sanitize.Line(id.(string)) + " → " + sanitize.Line(ref.(string))
			if name, _ := o.Get("name"); name != nil {
				text += " (" + sanitize.Line(name.(string)) + ")"
			}
		}
	}
	if note := capstate.AbandonedNote(st.Abandoned); note != "" {
		text += "\n\n" + sanitize.Text(note)
	}
	_, err = io.WriteString(g.stdout, text+"\n")
	return err
}

// modelCallableJSON lists what the agent may enable through
// forge_capability at the state's entry: [{bindingId, capability, name}]
// (name null when the capability has none).
func modelCallableJSON(st *capstate.State) []any {
	out := []any{}
	if st.Runtime == nil {
		return out
	}
	for _, b := range st.Runtime.ModelCallable() {
		o := jsonv.NewObject()
		o.Set("bindingId", b.BindingID)
		o.Set("capability", b.Capability)
		o.Set("name", orNull(b.Name))
		out = append(out, o)
	}
	return out
}

// mutationFlags are the flags of every offline change.
type mutationFlags struct {
	writeSessionFlags
	Leaf   string `help:"The leaf you expect the session to end at; refused with exit 3 when the file ends elsewhere." placeholder:"ID" predictor:"entry"`
	DryRun bool   `name:"dry-run" help:"Print the entries that would be appended and the resulting state; write nothing."`
	Force  bool   `help:"Append even when the session looks live: a Pi process runs in its project (found through /proc on Linux; elsewhere only the next check applies, a heuristic) or the file was modified in the last few seconds."`
	JSON   bool   `name:"json" help:"Print {message, warning?, cacheWarning? (preset use: pi-forge's prompt-cache notice), written, entries:[{customType, data}], state} where state is the capability status contract after the change."`
}

// mutate plans op on the session and, unless --dry-run, appends the
// planned entries through the guarded append.
func (f *mutationFlags) mutate(g *Globals, op capstate.Operation) error {
	return f.mutateNoting(g, op, nil)
}

// mutateNoting is mutate with a notice about the change, computed from the
// session and the plan before anything is written (preset use: pi-forge's
// prompt-cache notice) and reported after pi-forge's message.
func (f *mutationFlags) mutateNoting(g *Globals, op capstate.Operation, notice func(*session.Session, *capstate.Plan, capstate.Inputs) string) error {
	path, s, ws, err := f.openTarget(g)
	if err != nil {
		return err
	}
	in, err := g.capabilityInputs()
	if err != nil {
		return err
	}
	now := time.Now
	p, err := capstate.PlanAt(s, in, op, capstate.DefaultOptions(now))
	if errors.Is(err, capstate.ErrHistory) {
		return fail(exitFailed, "%v", err)
	}
	if err != nil {
		return err
	}
	if p.Refusal != nil {
		return g.refusalError(p.Refusal, ws)
	}
	// Reset is the way out pi-forge names for active capabilities in an
	// untrusted project; every other change is refused there.
	if !ws.Trust.Trusted && op.Kind != capstate.OpReset {
		return untrustedProject(ws)
	}
	p.Before.Abandoned = capstate.AbandonedWrites(s)
	note := ""
	if notice != nil && p.Changes() {
		note = notice(s, p, in)
	}
	written := false
	if p.Changes() && !f.DryRun {
		if err := appendGuarded(path, p.Guard, p.Entries(), session.AppendOptions{Force: f.Force, Now: now, Project: ws.Cwd}); err != nil {
			return err
		}
		written = true
	}
	return f.report(g, path, p, written, note)
}

// openTarget opens the session a change appends to, binds the run to the
// session's own project (trust, Presets and capabilities come from there)
// and checks --leaf: the file must still end where the user read it.
func (f *mutationFlags) openTarget(g *Globals) (string, *session.Session, resources.Workspace, error) {
	path, err := f.sessionPath(g)
	if err != nil {
		return "", nil, resources.Workspace{}, err
	}
	s, err := openSession(path)
	if err != nil {
		return "", nil, resources.Workspace{}, err
	}
	ws, err := g.bindSessionProject(s, path)
	if err != nil {
		return "", nil, resources.Workspace{}, err
	}
	if err := session.CheckLeaf(s); err != nil {
		return "", nil, resources.Workspace{}, failErr(exitConflict, i18n.Errorf("%s: %v; nothing was written", path, err))
	}
	if f.Leaf != "" {
		if leaf, ok := s.Leaf(); !ok || leaf.ID != f.Leaf {
			have := i18n.T("(none)")
			if ok {
				have = leaf.ID
			}
			return "", nil, resources.Workspace{}, failErr(exitConflict, i18n.Errorf("%s ends at entry %s, not %s: it changed since you read it", path, have, f.Leaf))
		}
	}
	return path, s, ws, nil
}

// appendGuarded is the one guarded append of every offline change: the
// file as read (guard), its own project, no running Pi, the lock; each
// refusal mapped to its exit code.
func appendGuarded(path string, guard session.Guard, entries []session.NewEntry, opts session.AppendOptions) error {
	_, err := session.Append(path, guard, entries, opts)
	switch {
	case errors.Is(err, session.ErrConflict), errors.Is(err, session.ErrNoLeafID):
		return fail(exitConflict, "%v", err)
	case errors.Is(err, session.ErrForeignProject):
		return fail(exitRefused, "%v", err)
	case errors.Is(err, session.ErrPiRunning):
		return failErr(exitRefused, i18n.Errorf("%v; nothing was written: close Pi first (or pass --force to append anyway)", err))
	case errors.Is(err, session.ErrLive):
		return failErr(exitRefused, i18n.Errorf("%v; pass --force if Pi is not running", err))
	case err != nil:
		return i18n.Errorf("append: %w", err)
	}
	return nil
}

// report prints the outcome: pi-forge's message and warnings (note, the
// change's notice, is one: JSON key cacheWarning), then for a dry run the
// planned entries and the resulting status.
func (f *mutationFlags) report(g *Globals, path string, p *capstate.Plan, written bool, note string) error {
	state := p.After
	if state == nil {
		state = p.Before
	}
	state.Abandoned = p.Before.Abandoned
	if f.JSON {
		entries := make([]any, len(p.Planned))
		for i, e := range p.Planned {
			o := jsonv.NewObject()
			o.Set("customType", e.CustomType)
			o.Set("data", e.Data)
			entries[i] = o
		}
		out := jsonv.NewObject()
		out.Set("message", p.Result.Message)
		if p.Result.Warning != "" {
			out.Set("warning", p.Result.Warning)
		}
		if note != "" {
			out.Set("cacheWarning", note)
		}
		out.Set("written", written)
		out.Set("entries", entries)
		out.Set("state", capstate.StatusValue(state))
		_, err := io.WriteString(g.stdout, jsonv.Stringify(out)+"\n")
		return err
	}
	w := g.stdout
	fmt.Fprintln(w, sanitize.Text(p.Result.Message))
	if p.Result.Warning != "" {
		fmt.Fprintln(g.stderr, "pi-forge: "+sanitize.Line(p.Result.Warning))
	}
	if note != "" {
		fmt.Fprintln(g.stderr, "pi-forge: "+sanitize.Line(note))
	}
	if !f.DryRun {
		return nil
	}
	if !p.Changes() {
		fmt.Fprintln(w, "\n"+i18n.T("(dry run: nothing would be appended)"))
		return nil
	}
	fmt.Fprintln(w, "\n"+i18n.T("(dry run) %d entries would be appended to %s:", len(p.Planned), path))
	for _, e := range p.Planned {
		fmt.Fprintln(w, sanitize.Line(`{"type":"custom","customType":`+jsonv.Quote(e.CustomType)+`,"data":`+jsonv.Stringify(e.Data)+`}`)) //i18n:raw pi-forge's words (contract)
	}
	fmt.Fprintln(w, "\n"+i18n.T("resulting state:"))
	fmt.Fprintln(w, sanitize.Text(state.StatusText(true)))
	return nil
}

// CapabilityEnableCmd activates a library capability in a session.
type CapabilityEnableCmd struct {
	Selector string `arg:"" help:"Capability selector: id, project:id or global:id." predictor:"capability"`
	mutationFlags
}

// Run plans and appends the activation.
func (c *CapabilityEnableCmd) Run(g *Globals) error {
	return c.mutate(g, capstate.Operation{Kind: capstate.OpEnable, Arg: c.Selector})
}

// CapabilityEnableBoundCmd activates a binding of the session's active Preset.
type CapabilityEnableBoundCmd struct {
	Binding string `arg:"" name:"binding-id" help:"Binding id of the active Preset."`
	mutationFlags
}

// Run plans and appends the bound activation (as the user).
func (c *CapabilityEnableBoundCmd) Run(g *Globals) error {
	return c.mutate(g, capstate.Operation{Kind: capstate.OpEnableBound, Arg: c.Binding})
}

// CapabilityDisableCmd stops one activation.
type CapabilityDisableCmd struct {
	Target string `arg:"" help:"Activation id, source (manual or scope:id), capability id or binding id." predictor:"capability"`
	mutationFlags
}

// Run plans and appends the deactivation.
func (c *CapabilityDisableCmd) Run(g *Globals) error {
	return c.mutate(g, capstate.Operation{Kind: capstate.OpDisable, Arg: c.Target})
}

// CapabilityResetCmd stops every active capability.
type CapabilityResetCmd struct {
	mutationFlags
}

// Run plans and appends the reset.
func (c *CapabilityResetCmd) Run(g *Globals) error {
	return c.mutate(g, capstate.Operation{Kind: capstate.OpReset})
}

// CapabilityAddCmd appends a manual directive.
type CapabilityAddCmd struct {
	Text string `arg:"" help:"The directive, kept verbatim (use - to read it from stdin; more than 100000 characters is refused after reading 100001)."`
	mutationFlags
}

// Run plans and appends the manual activation.
func (c *CapabilityAddCmd) Run(g *Globals) error {
	text := c.Text
	if text == "-" {
		var err error
		if text, err = readDirective(); err != nil {
			return err
		}
	}
	return c.mutate(g, capstate.Operation{Kind: capstate.OpAdd, Arg: text})
}

// refusalError maps a planned change pi-forge refuses to its exit code and
// words: an untrusted project is refused for safety (4); a usage error (2);
// an unknown capability, Preset or binding is no such thing (2), named in
// the product's words with pi-forge's own text quoted; a Preset with errors
// failed its check (1), its errors listed; any other rule of pi-forge's
// (a tool policy, a binding not callable …) failed its check (1).
func (g *Globals) refusalError(r *capability.Refusal, ws resources.Workspace) error {
	switch r.Kind {
	case capability.RefusedUntrusted:
		return failErr(exitRefused, i18n.Errorf("%s (the session's project %s: %s)", r.Notice(), ws.Cwd, ws.Trust.Source))
	case capability.RefusedUsage:
		return fail(exitUsage, "%s", r.Notice())
	case capability.RefusedUnknown:
		return failErr(exitUsage, i18n.Errorf("unknown %s (%s)", r.Subject, r.Notice()))
	case capability.RefusedInvalid:
		var b strings.Builder
		// pi-forge only says "Unknown prompt stack" here, which misleads:
		// the Preset exists, its errors keep it from being activated.
		b.WriteString(i18n.T("%s has errors and cannot be activated", r.Subject))
		if lib, err := g.loadLibrary(); err == nil {
			if p, _ := lib.ResolvePreset(strings.TrimPrefix(r.Subject, "Preset ")); p != nil {
				b.WriteString(":\n")
				writeDiagnostics(&b, errorsOnly(p.Diagnostics))
			}
		}
		return fail(exitFailed, "%s", strings.TrimRight(b.String(), "\n"))
	}
	return fail(exitFailed, "%s", r.Notice())
}

// errorsOnly keeps the error-level diagnostics.
func errorsOnly(diags []resources.Diagnostic) []resources.Diagnostic {
	var out []resources.Diagnostic
	for _, d := range diags {
		if d.Level == preset.LevelError {
			out = append(out, d)
		}
	}
	return out
}
