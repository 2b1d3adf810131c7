package forgev1

import (
	"regexp"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Macro is one registered extension macro (§8.7).
type Macro struct {
	// Dependencies are resolved first, depth-first; only entries of the form
	// "extensions.<name>" count, others are ignored as upstream does.
	Dependencies []string
	// Render produces the macro value. Its Env carries the extensions
	// resolved so far. An error becomes "forge-v1 extension <name> failed: <msg>".
	Render func(env Env) (string, error)
}

// StaticMacro returns a macro that always yields value.
func StaticMacro(value string) Macro {
	return Macro{Render: func(Env) (string, error) { return value, nil }}
}

// maxMacrosInFlight is how many macros may be resolving at once (§8.7).
const maxMacrosInFlight = 32

var macroNamePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

var dependencyNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// ValidMacroName reports whether name may be registered as a macro.
func ValidMacroName(name string) bool { return macroNamePattern.MatchString(name) }

// MacroResolver lazily resolves and caches extension macros for one
// compilation context. It is not safe for concurrent use.
type MacroResolver struct {
	macros    map[string]Macro
	cache     map[string]string
	working   *jsonv.Object // resolved values in resolution order
	resolving []string
}

// NewMacroResolver returns a resolver over the given registry.
func NewMacroResolver(macros map[string]Macro) *MacroResolver {
	return &MacroResolver{macros: macros, cache: map[string]string{}, working: jsonv.NewObject()}
}

// Resolved returns a copy of the values resolved so far, in resolution
// order: what pi-forge passes as env.extensions to later renders.
func (r *MacroResolver) Resolved() *jsonv.Object { return r.working.Clone() }

// Reset forgets every cached value (pi-forge does this when the latest
// user message changes between phases of one compilation).
func (r *MacroResolver) Reset() {
	r.cache = map[string]string{}
	r.working = jsonv.NewObject()
	r.resolving = r.resolving[:0]
}

// resolve returns the macro value for name, found=false when no macro of
// that name is registered, or an error kind evaluate / extension-limit.
func (r *MacroResolver) resolve(name string, base Env) (string, bool, *Error) {
	if r == nil {
		return "", false, nil
	}
	if v, ok := r.cache[name]; ok {
		return v, true, nil
	}
	for _, inFlight := range r.resolving {
		if inFlight == name {
			return "", false, renderError(KindEvaluate, "forge-v1 extension cycle detected at: "+name)
		}
	}
	if len(r.resolving) >= maxMacrosInFlight {
		return "", false, renderError(KindEvaluate, "forge-v1 extension dependency graph is too deep.")
	}
	def, ok := r.macros[name]
	if !ok || def.Render == nil {
		return "", false, nil
	}
	r.resolving = append(r.resolving, name)
	defer func() { r.resolving = r.resolving[:len(r.resolving)-1] }()
	for _, dep := range def.Dependencies {
		if depName, ok := dependencyName(dep); ok {
			if _, _, err := r.resolve(depName, base); err != nil {
				return "", false, err
			}
		}
	}
	value, err := def.Render(Env{Runtime: base.Runtime, Parameters: base.Parameters, Extensions: r.working.Clone()})
	if err != nil {
		return "", false, renderError(KindEvaluate, "forge-v1 extension "+name+" failed: "+err.Error())
	}
	if jsonv.UTF16Len(value) > MaxExtensionOutput {
		return "", false, renderError(KindExtensionLimit, "forge-v1 extension "+name+" exceeds 16384 characters.")
	}
	r.cache[name] = value
	r.working.Set(name, value)
	return value, true, nil
}

// dependencyName extracts x from a declared dependency "extensions.x".
func dependencyName(dep string) (string, bool) {
	dep = jsonv.TrimJS(dep)
	rest, ok := strings.CutPrefix(dep, "extensions.")
	if !ok {
		return "", false
	}
	rest = jsonv.TrimJS(rest)
	return rest, dependencyNamePattern.MatchString(rest)
}

func renderError(kind, message string) *Error {
	return &Error{Stage: StageRender, Kind: kind, Message: message}
}
