package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
)

// loadLibrary is the run's library snapshot (read once, by the services),
// printing pi-forge's notices (the untrusted-project notice) on stderr the
// first time.
func (g *Globals) loadLibrary() (*resources.Library, error) {
	svc, err := g.services()
	if err != nil {
		return nil, err
	}
	lib, err := svc.Library()
	if err != nil {
		return nil, i18n.Errorf("load library: %w", err)
	}
	if g.libraryReported { // a command that loads twice says it once
		return lib, nil
	}
	g.libraryReported = true
	for _, n := range lib.Notices {
		fmt.Fprintln(g.stderr, n)
	}
	for _, f := range lib.DirFaults {
		fmt.Fprintf(g.stderr, "%s: %v\n", f.Dir, f.Err)
	}
	return lib, nil
}

// libraryError maps the library's refusals to the documented exit codes:
// conflicts 3, untrusted or refused writes 4, bad selectors and unknown or
// ambiguous ids 2.
func libraryError(err error) error {
	var re *resources.Error
	msg := err.Error()
	if errors.As(err, &re) {
		msg = re.Message
	}
	switch {
	case errors.Is(err, resources.ErrConflict):
		return fail(exitConflict, "%s", msg)
	case errors.Is(err, resources.ErrUntrusted), errors.Is(err, resources.ErrRefused):
		return fail(exitRefused, "%s", msg)
	case errors.Is(err, resources.ErrNotFound) && re != nil && re.Subject != "":
		// No such thing, in the product's words; pi-forge's text quoted.
		return failErr(exitUsage, i18n.Errorf("unknown %s (pi-forge: %s)", re.Subject, msg))
	case errors.Is(err, resources.ErrInvalidSelector), errors.Is(err, resources.ErrNotFound), errors.Is(err, resources.ErrAmbiguous):
		return fail(exitUsage, "%s", msg)
	case errors.Is(err, resources.ErrInvalid), errors.Is(err, resources.ErrUnusable):
		return fail(exitFailed, "%s", msg)
	}
	return err
}

// resolved keeps a resource the library resolved even when it is unusable
// (its diagnostics are shown, as pi-forge lists invalid files) and maps
// every other failure to its exit code.
func resolved[T any](r *T, err error) (*T, error) {
	if err != nil && (r == nil || !errors.Is(err, resources.ErrUnusable)) {
		return nil, libraryError(err)
	}
	return r, nil
}

// parseScope reads --scope.
func parseScope(s string) resources.Scope {
	if s == "global" {
		return resources.ScopeGlobal
	}
	return resources.ScopeProject
}

// resourceJSON is the part of every --json resource row that all kinds share.
func resourceJSON(r *resources.Resource) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("scope", string(r.Scope))
	o.Set("id", r.ID)
	o.Set("key", r.Key())
	o.Set("path", r.Path)
	o.Set("sourceRevision", r.SourceRevision)
	errs, warns := r.Counts()
	o.Set("errors", float64(errs))
	o.Set("warnings", float64(warns))
	o.Set("usable", r.Usable())
	return o
}

func diagnosticsJSON(diags []resources.Diagnostic) []any {
	out := make([]any, len(diags))
	for i, d := range diags {
		o := jsonv.NewObject()
		o.Set("level", string(d.Level))
		o.Set("message", d.Message)
		if d.ItemID != "" {
			o.Set("itemId", d.ItemID)
		}
		if d.Field != "" {
			o.Set("field", d.Field)
		}
		out[i] = o
	}
	return out
}

// writeDiagnostics prints one line per diagnostic, indented under a
// resource; messages may quote the file, so they are sanitised.
func writeDiagnostics(w io.Writer, diags []resources.Diagnostic) {
	for _, d := range diags {
		where := ""
		switch {
		case d.ItemID != "":
			where = " [" + d.ItemID + "]"
		case d.Field != "":
			where = " [" + d.Field + "]"
		}
		fmt.Fprintf(w, "    %s%s: %s\n", d.Level, sanitize.Line(where), sanitize.Line(d.Message))
	}
}

func scopeBadge(r *resources.Resource) string {
	badge := "P"
	if r.Scope == resources.ScopeGlobal {
		badge = "G"
	}
	if r.Legacy {
		badge += "·legacy" //i18n:raw a badge in a column, as the JSON names it
	}
	return badge
}

func countsText(r *resources.Resource) string {
	errs, warns := r.Counts()
	switch {
	case r.Fault:
		return i18n.T("unreadable")
	case errs > 0:
		return i18n.T("%d error(s), %d warning(s)", errs, warns)
	case warns > 0:
		return i18n.T("%d warning(s)", warns)
	}
	return "ok"
}

// printJSON prints v as indented JSON (JSON.stringify with two spaces)
// and a newline. w is a command's g.stdout, which for a JSON command is
// the one JSON writer (output.go): control and format characters reach
// the terminal as \uXXXX escapes.
func printJSON(w io.Writer, v any) error {
	_, err := io.WriteString(w, jsonv.StringifyIndent(v, "  ")+"\n")
	return err
}

// presetArg resolves a preset argument: an existing file path is read as a
// file; anything else is a selector (`project:id`, `global:id` or bare id)
// resolved through the library, failing closed as pi-forge does.
func (g *Globals) presetArg(arg string) (raw []byte, basename, where string, err error) {
	if fi, statErr := os.Stat(arg); statErr == nil && !fi.IsDir() {
		raw, err = readInput(arg)
		return raw, baseName(arg), arg, err
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return nil, "", "", err
	}
	p, err := resolved(lib.ResolvePreset(arg))
	if err != nil {
		return nil, "", "", err
	}
	return p.Raw, baseName(p.Path), p.Key() + " (" + p.Path + ")", nil
}

// deleteResult reports a completed delete.
func deleteResult(g *Globals, asJSON bool, r *resources.Resource, path string) error {
	if asJSON {
		o := jsonv.NewObject()
		o.Set("scope", string(r.Scope))
		o.Set("id", r.ID)
		o.Set("key", r.Key())
		o.Set("path", path)
		o.Set("deleted", true)
		return printJSON(g.stdout, o)
	}
	fmt.Fprintln(g.stdout, i18n.T("deleted %s", path))
	return nil
}

// checkNewID refuses an id for a new file that is not a resource id (§1.1)
// as a usage error, in the selector parser's words.
func checkNewID(id string) error {
	if !preset.IsValidResourceID(id) {
		return fail(exitUsage, "Invalid resource id: %s. Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens.", id) //i18n:raw pi-forge's words (contract)
	}
	return nil
}

// deleteResolveError reports a failed resolution for a delete. In an
// untrusted project the project files are not loaded, so an id that is not
// found outside the global scope is a refused project mutation (exit 4),
// not an unknown id.
func deleteResolveError(lib *resources.Library, kind resources.Kind, selector string, err error) error {
	if errors.Is(err, resources.ErrNotFound) && !lib.Workspace.Trust.Trusted {
		if sel, msg := preset.ParseSelector(selector); msg == "" && sel.Scope != resources.ScopeGlobal {
			ws := lib.Workspace
			if refused := resources.CheckTarget(ws, kind, resources.ScopeProject, resources.TargetPath(ws, kind, resources.ScopeProject, sel.ID), sel.ID); refused != nil {
				return libraryError(refused)
			}
		}
	}
	return libraryError(err)
}

// checkRevisionArg refuses a --revision that is not a lowercase sha256 hex
// digest (a sourceRevision, §10.3) as a usage error, in the words of
// pi-forge's web API.
func checkRevisionArg(rev string) error {
	ok := len(rev) == 64
	for i := 0; ok && i < len(rev); i++ {
		c := rev[i]
		ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
	}
	if !ok {
		return fail(exitUsage, "A valid expectedSourceRevision is required.") //i18n:raw pi-forge's words (contract)
	}
	return nil
}
