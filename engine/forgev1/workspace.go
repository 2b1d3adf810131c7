package forgev1

import (
	"math"
	"slices"
	"sync"
)

// workspace is the reusable memory of parsing: a template whose node and
// detail arrays keep their capacity from one parse to the next, and the
// stack of the node lists still being parsed. Parse copies the result out
// (detach); Render and the request API render straight from the workspace
// and hand it back, so a one-shot render allocates no template at all.
// Only memory is reused: every call parses its source from scratch.
type workspace struct {
	t     Template
	stack []node
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// maxKeptNodes bounds the arrays a pooled workspace keeps, so one huge
// template does not pin its memory for the life of the process.
const maxKeptNodes = 4096

func getWorkspace() *workspace { return workspaces.Get().(*workspace) }

// release forgets the parsed template (the source and the strings built
// for it) and returns w to the pool.
func (w *workspace) release() {
	t := &w.t
	if cap(t.nodes) > maxKeptNodes || cap(t.details) > maxKeptNodes || cap(w.stack) > maxKeptNodes || cap(t.extra) > maxKeptNodes {
		*w = workspace{}
	} else {
		clear(t.extra)
		*t = Template{nodes: t.nodes[:0], details: t.details[:0], extra: t.extra[:0]}
		w.stack = w.stack[:0]
	}
	workspaces.Put(w)
}

// parse parses src into w.t, or returns a parse-stage error.
func (w *workspace) parse(src string) *Error {
	if len(src) > math.MaxInt32 {
		return &Error{Stage: StageParse, Kind: KindParse, Message: "forge-v1 template is too large to parse (2 GiB or more)."}
	}
	t := &w.t
	t.src = src
	p := parser{t: t, src: src, nodes: t.nodes[:0], details: t.details[:0]}
	root, _, err := p.parseUntil(0, &w.stack)
	t.nodes, t.details, w.stack = p.nodes, p.details, w.stack[:0] // keep the capacity, even after an error
	if err != nil {
		return err
	}
	t.root, t.textBytes = root, p.textBytes
	return nil
}

// detach returns a copy of the parsed template that owns its memory: one
// allocation when it is small (newTemplate), sized exactly from the counts.
func (w *workspace) detach() *Template {
	t, ns, ds := newTemplate(w.t.src, len(w.t.nodes), len(w.t.details))
	t.nodes = append(ns, w.t.nodes...)
	t.details = append(ds, w.t.details...)
	if len(w.t.extra) > 0 {
		t.extra = slices.Clone(w.t.extra)
	}
	t.root, t.textBytes = w.t.root, w.t.textBytes
	return t
}

// renderOnce parses, checks and renders src in a pooled workspace,
// returning the first error. Nothing it returns refers to the workspace:
// output pieces are substrings of src or of environment values, or built.
func renderOnce(src string, env Env, macros *MacroResolver, limit float64) (string, *Error) {
	w := getWorkspace()
	defer w.release()
	if err := w.parse(src); err != nil {
		return "", err
	}
	if err := w.t.FirstError(); err != nil {
		return "", err
	}
	return w.t.render(env, macros, limit)
}
