package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
)

// newErrors are the error diagnostics a Preset copy has in its new scope
// that the source did not have (nil: the copy is no worse than its source).
// A global copy of a Preset binding a project capability is the typical
// case: pi-forge would never activate it.
func newErrors(copyDiags preset.Diagnostics, sourceDiags []resources.Diagnostic) []string {
	had := map[string]bool{}
	for _, d := range sourceDiags {
		had[d.Message] = true
	}
	var out []string
	for _, d := range copyDiags {
		if d.Level == preset.LevelError && !had[d.Message] {
			out = append(out, d.Message)
		}
	}
	return out
}

// refuseInvalidCopy is the answer to a copy that would not validate where
// it goes: nothing is written, exit 1, the errors on stderr.
func refuseInvalidCopy(g *Globals, what string, scope preset.Scope, id string, errs []string) error {
	for _, e := range errs {
		fmt.Fprintln(g.stderr, "   ", i18n.T("error: %s", sanitize.Line(e)))
	}
	return failErr(exitFailed, i18n.Errorf("%s %s:%s would not validate there (%d error(s) above), so it was not written; pi-forge would never activate it",
		i18n.T(what), scope, id, len(errs)))
}

// importTree reads FILE as a native pi-forge Preset for `preset new --from
// FILE`: a JSON object (anything else is refused, nothing written), with
// its id set to id and every other key kept as written.
func importTree(file, id string) (*jsonv.Object, error) {
	raw, err := readInput(file)
	if err != nil {
		return nil, inputFailed(err)
	}
	v, err := jsonv.Parse(raw)
	if err != nil {
		return nil, fail(exitFailed, "%s: Failed to parse JSON: %v", file, err) //i18n:raw pi-forge's words (contract)
	}
	obj, ok := v.(*jsonv.Object)
	if !ok {
		return nil, fail(exitFailed, "%s: Preset root must be a JSON object.", file) //i18n:raw pi-forge's words (contract)
	}
	return withID(obj, id), nil
}

// withID is a shallow copy of tree with "id" set to id, in its place (at
// the end when the file has none).
func withID(tree *jsonv.Object, id string) *jsonv.Object {
	out := jsonv.NewObject()
	for _, k := range tree.Keys() {
		v, _ := tree.Get(k)
		if k == "id" {
			v = id
		}
		out.Set(k, v)
	}
	out.Set("id", id) // keeps its place when present
	return out
}

// isFileArg tells a --from FILE from a --from SELECTOR: an existing regular
// file, or anything that looks like a path (a separator or .json), which a
// resource id never is.
func isFileArg(arg string) bool {
	if fi, err := os.Stat(arg); err == nil && !fi.IsDir() {
		return true
	}
	return strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".json") || arg == "-"
}

// unmatchedAllow is the warnings `preset validate` adds to p's own: each
// allow pattern that matches no registered tool (pi-forge's preflight
// message, §11.3; the catalogue is a session's with pi-forge and no other
// extension), and each exact deny name of the MCP form Pi 0.99.2 renamed
// (forgebench's warning for the hazard pi-forge 0.5.8 documents).
func unmatchedAllow(p *resources.Preset) []resources.Diagnostic {
	var out []resources.Diagnostic
	for _, pattern := range compile.UnmatchedAllowPatterns(p.Stack.Tools, compile.RegisteredTools()) {
		out = append(out, resources.Diagnostic{Level: preset.LevelWarning, Field: "tools.allow",
			Message: "Prompt stack " + p.ID + ` allows tool pattern "` + pattern + `", but it matches no registered tools.`}) //i18n:raw pi-forge's words (contract)
	}
	// Exact deny names in the MCP form Pi 0.99.2 renamed (pi-forge 0.5.8
	// documents the hazard; the wording is ours, it has no message).
	for _, d := range preset.MCPRenameWarnings(p.Stack) {
		out = append(out, resources.Diagnostic{Level: d.Level, Field: "tools.deny", Message: d.Message})
	}
	return out
}
