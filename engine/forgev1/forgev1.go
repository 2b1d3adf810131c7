// Package forgev1 implements pi-forge's forge-v1 template engine
// (spec pi-forge-formats §8): a closed grammar of literal text,
// `{{ path | filter }}` outputs and `{% if P %}…{% else %}…{% endif %}`
// conditionals, evaluated against a JSON environment with JavaScript
// semantics. Templates never execute anything; extension macros are
// supplied by the caller as Go functions or plain strings.
//
// Pipeline: Parse → (*Template).Analyze → (*Template).Render, or Render
// for all three, stopping at the first error. Error kinds, messages and
// spans (UTF-16 code units into the template) match pi-forge byte for byte.
package forgev1

import "fmt"

// DefaultLimit is the default output limit in UTF-16 code units.
const DefaultLimit = 100000

// MaxDepth is the deepest nesting of if-branches that renders; one more fails.
const MaxDepth = 64

// MaxExtensionOutput is the largest extension macro value in UTF-16 code units.
const MaxExtensionOutput = 16384

// Pipeline stages reported in Error.Stage.
const (
	StageParse   = "parse"
	StageAnalyze = "analyze"
	StageRender  = "render"
)

// Error kinds reported in Error.Kind.
const (
	KindParse          = "parse"
	KindEvaluate       = "evaluate"
	KindUndefined      = "undefined"
	KindFilter         = "filter"
	KindOutputLimit    = "output-limit"
	KindExtensionLimit = "extension-limit"
	KindRecursion      = "recursion"
)

// Span is a half-open range of UTF-16 code units in the template source.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Error is a forge-v1 failure: the stage that produced it, the upstream
// error kind and message, and the source span when the engine gives one.
type Error struct {
	Stage   string
	Kind    string
	Message string
	Span    *Span
}

// Error returns the stage and message.
func (e *Error) Error() string { return fmt.Sprintf("forge-v1 %s error: %s", e.Stage, e.Message) }

// Diagnostic returns the block diagnostic text pi-forge records for this
// error (§8.6): "forge-v1 parse error: …", the bare message for analysis
// errors, "forge-v1 render error: …" for render failures.
func (e *Error) Diagnostic() string {
	switch e.Stage {
	case StageParse:
		return "forge-v1 parse error: " + e.Message
	case StageAnalyze:
		return e.Message
	default:
		return "forge-v1 render error: " + e.Message
	}
}

// Env is the prompt environment: three jsonv values, normally *jsonv.Object
// (see engine/jsonv).
// A nil field behaves as an empty object. Render never modifies it.
type Env struct {
	Runtime    any
	Parameters any
	Extensions any
}

// Options tunes one render.
type Options struct {
	// Limit is the output limit in UTF-16 code units: 0 means DefaultLimit,
	// a negative value means a limit of zero characters.
	Limit int
	// Macros resolves extension names that Env.Extensions lacks (§8.7). It
	// caches values, so share one across the renders of one compilation.
	// Nil means no macros are registered.
	Macros *MacroResolver
}

func (o Options) limit() float64 {
	switch {
	case o.Limit == 0:
		return DefaultLimit
	case o.Limit < 0:
		return 0
	default:
		return float64(o.Limit)
	}
}

// Render parses, analyzes and renders src, returning the first error.
func Render(src string, env Env, opts Options) (string, *Error) {
	return renderOnce(src, env, opts.Macros, opts.limit())
}
