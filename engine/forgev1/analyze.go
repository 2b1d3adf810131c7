package forgev1

import "strings"

// Dependency is one environment read or filter use found by Analyze.
type Dependency struct {
	// Kind is "runtime", "parameters", "extensions", "legacy" (any other
	// path head) or "filter".
	Kind string
	// Path holds the path segments; empty for filters.
	Path []string
	// Filter names the filter for Kind "filter".
	Filter string
	// Span is the output or if tag the dependency comes from.
	Span Span
}

// Analysis is the result of Analyze: every dependency in source order and
// every error (unknown filters, even in branches that never render).
type Analysis struct {
	Dependencies []Dependency
	Errors       []*Error
}

// knownFilter reports whether name is one of the five forge-v1 filters.
func knownFilter(name string) bool {
	switch name {
	case "trim", "upper", "lower", "json", "xml":
		return true
	}
	return false
}

// Analyze lists the template's dependencies and analysis errors.
func (t *Template) Analyze() *Analysis {
	a := &Analysis{}
	var walk func(nodes []node)
	walk = func(nodes []node) {
		for i := range nodes {
			n := &nodes[i]
			switch n.kind {
			case nodeOutput:
				span := spanOf(t.src, int(n.start), int(n.end))
				a.Dependencies = append(a.Dependencies, pathDependency(t.path(t.detail(n).path), span))
				for f, rest, ok := nextFilter(t.filters(t.detail(n))); ok; f, rest, ok = nextFilter(rest) {
					if knownFilter(f) {
						a.Dependencies = append(a.Dependencies, Dependency{Kind: "filter", Filter: f, Span: span})
						continue
					}
					s := span
					a.Errors = append(a.Errors, &Error{Stage: StageAnalyze, Kind: KindFilter, Message: "Unknown forge-v1 filter: " + f, Span: &s})
				}
			case nodeIf:
				a.Dependencies = append(a.Dependencies, pathDependency(t.path(t.detail(n).path), spanOf(t.src, int(n.start), int(n.end))))
				walk(t.list(t.detail(n).thenBody))
				walk(t.list(t.detail(n).elseBody))
			}
		}
	}
	walk(t.list(t.root))
	return a
}

// FirstError returns the first analysis error of t, or nil: the first
// unknown filter in source order, which Parse has already found. It is the
// allocation-free check Render uses (allocation-free when there is none).
func (t *Template) FirstError() *Error {
	b := &t.badFilter
	if b.end == 0 {
		return nil
	}
	return spanError(t.src, StageAnalyze, KindFilter, "Unknown forge-v1 filter: "+t.str(b.name), int(b.start), int(b.end))
}

func pathDependency(p path, span Span) Dependency {
	kind := "legacy"
	segments := strings.Split(p.expr, ".")
	switch segments[0] {
	case "runtime", "parameters", "extensions":
		kind = segments[0]
	}
	return Dependency{Kind: kind, Path: segments, Span: span}
}
