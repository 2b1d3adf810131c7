package forgev1

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Render renders an already parsed template. It does not re-run the
// analyzer; an unknown filter that reaches evaluation fails as upstream.
func (t *Template) Render(env Env, opts Options) (string, *Error) {
	return t.render(env, opts.Macros, opts.limit())
}

func (t *Template) render(env Env, macros *MacroResolver, limit float64) (string, *Error) {
	var r renderer // field by field: see workspace.parse
	r.t, r.env, r.macros, r.limit = *t, env, macros, limit
	if err := r.renderList(t.list(t.root), 0); err != nil {
		return "", err
	}
	return r.out.result(), nil
}

// renderer holds a copy of the Template header, not a pointer: the
// escape analysis is not field-sensitive, and the environment values that
// flow out of evaluate would take a *Template to the heap with them.
type renderer struct {
	t      Template
	env    Env
	macros *MacroResolver
	limit  float64
	out    output
	units  int // UTF-16 length of out
}

// output collects rendered pieces. A render that produces a single
// non-empty piece returns it as is, without copying.
type output struct {
	single string
	pieces int
	b      strings.Builder
}

// write appends s; sizeHint is the expected total size.
func (o *output) write(s string, sizeHint int) {
	switch {
	case s == "":
		return
	case o.pieces == 0:
		o.single = s
	case o.pieces == 1:
		o.b.Grow(max(sizeHint, len(o.single)+len(s)) + 32)
		o.b.WriteString(o.single)
		o.b.WriteString(s)
	default:
		o.b.WriteString(s)
	}
	o.pieces++
}

func (o *output) result() string {
	if o.pieces <= 1 {
		return o.single
	}
	return o.b.String()
}

func (r *renderer) limitError() *Error {
	return renderError(KindOutputLimit, "forge-v1 template output exceeds "+jsonv.FormatNumber(r.limit)+" characters.")
}

func (r *renderer) renderList(nodes []node, depth int) *Error {
	if depth > MaxDepth {
		return renderError(KindRecursion, "forge-v1 template nesting exceeds 64 levels.")
	}
	levelStart := r.units
	for i := range nodes {
		n := &nodes[i]
		switch n.kind {
		case nodeText:
			r.out.write(r.t.text(n), r.t.textBytes)
			r.units += int(n.units)
		case nodeOutput:
			if err := r.renderOutput(n, levelStart); err != nil {
				return err
			}
		case nodeIf:
			taken, err := r.predicate(n)
			if err != nil {
				return err
			}
			if taken {
				err = r.renderList(r.t.list(r.t.detail(n).thenBody), depth+1)
			} else if r.t.detail(n).hasElse {
				err = r.renderList(r.t.list(r.t.detail(n).elseBody), depth+1)
			}
			if err != nil {
				return err
			}
		}
		if float64(r.units-levelStart) > r.limit {
			return r.limitError()
		}
	}
	return nil
}

// renderOutput appends one output node. A value that would push this
// level past the limit fails before it is copied: the error is the one
// the check after appending would raise.
func (r *renderer) renderOutput(n *node, levelStart int) *Error {
	v, err := r.evaluate(r.t.path(r.t.detail(n).path), n, false)
	if err != nil {
		return err
	}
	// Once a value is a string, filters take and give strings: no value is
	// boxed into an interface per filter.
	text, isText := v.(string)
	for f, rest, ok := nextFilter(r.t.filters(r.t.detail(n))); ok; f, rest, ok = nextFilter(rest) {
		if isText {
			if text, ok = stringFilter(f, text); ok {
				continue
			}
			v = text
		}
		if v, err = r.applyFilter(f, v, n); err != nil {
			return err
		}
		text, isText = v.(string)
	}
	switch t := v.(type) {
	case string: // text holds it, filtered
	case jsUndefined:
	case jsFunction:
		text = "undefined" // "" + JSON.stringify(fn)
	case jsObjectPrototype:
		text = "{}"
	default:
		text = jsonv.Stringify(t)
	}
	units := jsonv.UTF16Len(text)
	if float64(r.units-levelStart+units) > r.limit {
		return r.limitError()
	}
	r.out.write(text, r.t.textBytes)
	r.units += units
	return nil
}

func (r *renderer) predicate(n *node) (bool, *Error) {
	d := r.t.detail(n)
	if d.pred == predTruthy {
		v, err := r.evaluate(r.t.path(d.path), n, true)
		if err != nil {
			return false, err
		}
		return conditionTruthy(v), nil
	}
	v, err := r.evaluate(r.t.path(d.path), n, false)
	if err != nil {
		return false, err
	}
	actual, defined := valueToString(v)
	equal := defined && actual == r.t.str(d.expected)
	if d.pred == predEq {
		return equal, nil
	}
	return !equal, nil
}

func (r *renderer) undefinedError(missing path, n *node) *Error {
	return spanError(r.t.src, StageRender, KindUndefined, "Undefined forge-v1 path: {{"+missing.expr+"}}", int(n.start), int(n.end))
}

// legacyAlias maps the v1 bare names to their runtime paths (§8.4).
func legacyAlias(name string) (path, bool) {
	var expr string
	switch name {
	case "cwd":
		expr = "runtime.cwd"
	case "date":
		expr = "runtime.date"
	case "time":
		expr = "runtime.time"
	case "lastUserMessage":
		expr = "runtime.lastUserMessage"
	case "selectedTools", "tools":
		expr = "runtime.selectedToolsText"
	case "activeModel":
		expr = "runtime.activeModel"
	default:
		return path{}, false
	}
	return path{expr: expr, headLen: len("runtime"), class: pathRoot}, true
}

// evaluate resolves a path (§8.4). With soft set an unresolvable path
// yields jsUndefined instead of the undefined error.
func (r *renderer) evaluate(p path, n *node, soft bool) (any, *Error) {
	head, rest := p.head()
	switch p.class {
	case pathExtension:
		if v, ok := ownProperty(r.env.Extensions, rest); ok {
			return v, nil
		}
		if v, found, err := r.macros.resolve(rest, r.env); err != nil || found {
			return v, err
		}
	case pathRoot:
		var cursor any
		switch head {
		case "runtime":
			cursor = rootObject(r.env.Runtime)
		case "parameters":
			cursor = rootObject(r.env.Parameters)
		default:
			cursor = rootObject(r.env.Extensions)
		}
		for rest != "" {
			seg := rest
			if i := strings.IndexByte(rest, '.'); i >= 0 {
				seg, rest = rest[:i], rest[i+1:]
			} else {
				rest = ""
			}
			next, ok := member(cursor, seg)
			if !ok {
				if soft {
					return jsUndefined{}, nil
				}
				return nil, r.undefinedError(p, n)
			}
			cursor = next
		}
		return cursor, nil
	case pathBare:
		if v, ok := ownProperty(r.env.Parameters, head); ok {
			return v, nil
		}
		if alias, ok := legacyAlias(head); ok {
			return r.evaluate(alias, n, soft)
		}
		if v, ok := ownProperty(r.env.Extensions, head); ok {
			return v, nil
		}
		if v, found, err := r.macros.resolve(head, r.env); err != nil || found {
			return v, err
		}
	}
	if soft {
		return jsUndefined{}, nil
	}
	return nil, r.undefinedError(p, n)
}

var emptyObject = jsonv.NewObject()

// rootObject treats a missing environment root as an empty object.
func rootObject(v any) any {
	if v == nil {
		return emptyObject
	}
	return v
}

func ownProperty(container any, key string) (any, bool) {
	if o, ok := container.(*jsonv.Object); ok {
		return o.Get(key)
	}
	return nil, false
}
