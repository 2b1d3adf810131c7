package forgev1

import (
	"math"
	"slices"
	"sync"
)

// workspace is the reusable memory of parsing: node, detail and string
// arrays that keep their capacity from one parse to the next, and the
// stack of the node lists still being parsed. Parse copies the result out
// (detach); Render and the request API render from the workspace's arrays
// and hand them back, so a one-shot render allocates no template at all.
// Only memory is reused: every call parses its source from scratch.
//
// The Template header itself lives on the caller's stack: writing slice
// headers into a pooled heap object would cost a write barrier each while
// the garbage collector runs, so the workspace is written only when an
// array had to grow.
type workspace struct {
	nodes   []node
	details []detail
	extra   []string
	stack   []node
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// maxKeptNodes bounds the arrays a pooled workspace keeps, so one huge
// template does not pin its memory for the life of the process.
const maxKeptNodes = 4096

// parse parses src into *t (a zero Template) using w's arrays, or returns
// a parse-stage error. Call w.release(t) when t is no longer used.
func (w *workspace) parse(t *Template, src string) *Error {
	if len(src) > math.MaxInt32 {
		return &Error{Stage: StageParse, Kind: KindParse, Message: "forge-v1 template is too large to parse (2 GiB or more)."}
	}
	// Field by field, here and below: a composite literal is built in a
	// temporary and copied in 16-byte moves that read across the 8-byte
	// stores just made, which stalls store forwarding (a fifth of the
	// time of a plain-text render).
	var p parser
	p.src = src
	p.nodes.a = w.nodes[:cap(w.nodes)]
	p.details.a = w.details[:cap(w.details)]
	p.stack.a = w.stack[:cap(w.stack)]
	p.extra = w.extra[:0]
	root, _, err := p.parseUntil(0)
	// The arrays are kept for release, even after an error.
	t.src, t.nodes, t.details, t.extra = src, p.nodes.items(), p.details.items(), p.extra
	if cap(p.stack.a) != cap(w.stack) {
		w.stack = keep(p.stack.a)
	}
	if err != nil {
		return err
	}
	t.root, t.textBytes, t.badFilter = root, p.textBytes, p.badFilter
	return nil
}

// keep returns s emptied, or nil when it is too big to keep pooled.
func keep[S ~[]E, E any](s S) S {
	if cap(s) > maxKeptNodes {
		return nil
	}
	return s[:0]
}

// release takes back the arrays t was parsed into (they may have grown)
// and returns w to the pool.
func (w *workspace) release(t *Template) {
	if cap(t.nodes) != cap(w.nodes) {
		w.nodes = keep(t.nodes)
	}
	if cap(t.details) != cap(w.details) {
		w.details = keep(t.details)
	}
	if len(t.extra) > 0 {
		clear(t.extra) // drop the strings built for t
		w.extra = keep(t.extra)
	}
	workspaces.Put(w)
}

// detach returns a copy of t that owns its memory: one allocation when it
// is small (newTemplate), sized exactly from the counts.
func detach(t *Template) *Template {
	c, ns, ds := newTemplate(t.src, len(t.nodes), len(t.details))
	c.nodes = append(ns, t.nodes...)
	c.details = append(ds, t.details...)
	if len(t.extra) > 0 {
		c.extra = slices.Clone(t.extra)
	}
	c.root, c.textBytes, c.badFilter = t.root, t.textBytes, t.badFilter
	return c
}

// renderOnce parses, checks and renders src in a pooled workspace,
// returning the first error. Nothing it returns refers to the workspace:
// output pieces are substrings of src or of environment values, or built.
func renderOnce(src string, env Env, macros *MacroResolver, limit float64) (string, *Error) {
	w := workspaces.Get().(*workspace)
	var t Template
	err := w.parse(&t, src)
	if err == nil {
		err = t.FirstError()
	}
	var out string
	if err == nil {
		out, err = t.render(env, macros, limit)
	}
	w.release(&t)
	return out, err
}

// nodeStack and detailStack are append buffers that write their slice
// header only when they grow: pushing a pointer-free value then costs no
// write barrier, where append would store the header back on every call.
// (Concrete types rather than one generic one: the generic push does not
// inline.)
type (
	nodeStack struct {
		a []node // full length; the items are a[:n]
		n int
	}
	detailStack struct {
		a []detail
		n int
	}
)

func (s *nodeStack) push(v node) {
	if s.n == len(s.a) {
		s.grow()
	}
	s.a[s.n] = v
	s.n++
}

//go:noinline
func (s *nodeStack) grow() { s.a = grown(s.a, s.n, 1) }

func (s *nodeStack) pushAll(vs []node) {
	if s.n+len(vs) > len(s.a) {
		s.a = grown(s.a, s.n, len(vs))
	}
	s.n += copy(s.a[s.n:], vs)
}

// items returns the pushed values.
func (s *nodeStack) items() []node { return s.a[:s.n] }

//go:noinline
func (s *detailStack) grow() { s.a = grown(s.a, s.n, 1) }

// items returns the pushed values.
func (s *detailStack) items() []detail { return s.a[:s.n] }

// pushZero appends a zero detail and returns it, to be filled in place.
// The pointer is good until the next push.
func (s *detailStack) pushZero() *detail {
	if s.n == len(s.a) {
		s.grow()
	}
	d := &s.a[s.n]
	*d = detail{}
	s.n++
	return d
}

// grown returns a at full capacity with room for n more after its first
// used items. The pushes call it out of line (grow), so that they inline.
func grown[E any](a []E, used, n int) []E {
	a = slices.Grow(a[:used], max(n, 8))
	return a[:cap(a)]
}
