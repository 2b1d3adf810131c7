package forgev1

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Template is a parsed forge-v1 template. It is immutable and may be
// rendered any number of times, concurrently.
//
// A template is one allocation when it is small (newTemplate): its nodes
// and details are allocated with it, and neither holds a pointer (strings
// are ranges of src), so parsing the typical template allocates once and
// the garbage collector scans only the header.
type Template struct {
	src       string
	nodes     []node   // every node; each node list is a range of it
	details   []detail // payloads of output and if nodes
	extra     []string // strings that are not ranges of src (see strRef)
	root      nodeList // the top-level node list
	textBytes int      // size of the literal text, a lower bound for the output
	badFilter badFilter
}

// badFilter is the first unknown filter in source order (the first
// analysis error), found while parsing; end is 0 when there is none.
type badFilter struct {
	start, end int32  // the output tag
	name       strRef // the filter name
}

// A template is allocated together with room for its nodes and details
// (newTemplate picks the smallest that fits); a bigger one gets separate
// arrays.
type (
	templateS struct {
		t       Template
		nodes   [3]node
		details [1]detail
	}
	templateM struct {
		t       Template
		nodes   [12]node
		details [6]detail
	}
)

// newTemplate allocates a Template for src with node and detail storage
// for the given counts.
func newTemplate(src string, nodes, payloads int) (t *Template, ns []node, ds []detail) {
	switch {
	case nodes <= 3 && payloads <= 1:
		w := &templateS{t: Template{src: src}}
		return &w.t, w.nodes[:0], w.details[:0]
	case nodes <= 12 && payloads <= 6:
		w := &templateM{t: Template{src: src}}
		return &w.t, w.nodes[:0], w.details[:0]
	}
	return &Template{src: src}, make([]node, 0, nodes), make([]detail, 0, payloads)
}

// strRef is a string of a template without a pointer: src[off:off+n], or
// Template.extra[off] when n is negative (a path with spaces dropped, an
// unescaped literal).
type strRef struct{ off, n int32 }

// str returns the string r names.
func (t *Template) str(r strRef) string {
	if r.n < 0 {
		return t.extra[r.off]
	}
	return t.src[r.off : r.off+r.n]
}

// pathRef is a path stored in a detail (path with its text as a strRef).
type pathRef struct {
	expr    strRef
	headLen int32 // length of the first segment
	class   pathClass
}

// path returns the path a detail holds.
func (t *Template) path(r pathRef) path {
	return path{expr: t.str(r.expr), headLen: int(r.headLen), class: r.class}
}

// nodeList is a range of Template.nodes.
type nodeList struct{ start, count int32 }

// list returns the nodes of l.
func (t *Template) list(l nodeList) []node { return t.nodes[l.start : l.start+l.count] }

// detail returns the payload of an output or if node.
func (t *Template) detail(n *node) *detail { return &t.details[n.d] }

// text returns the literal text of a text node.
func (t *Template) text(n *node) string { return t.src[n.start:n.end] }

// filters returns the filter part of an output node's detail.
func (t *Template) filters(d *detail) string { return t.str(d.filters) }

type nodeKind uint8

const (
	nodeText nodeKind = iota
	nodeOutput
	nodeIf
)

type predicateKind uint8

const (
	predTruthy predicateKind = iota
	predEq
	predNe
)

// node is one AST node; start/end are byte offsets into the source. It is
// small and pointer-free (cheap to copy, nothing for the GC to scan); tags
// carry their data in Template.details[d], and if-branches are ranges.
// Offsets are 32-bit: Parse refuses a source of 2 GiB or more.
type node struct {
	kind  nodeKind
	d     int32 // nodeOutput, nodeIf: index into Template.details
	units int32 // nodeText: UTF-16 length of src[start:end]
	start int32
	end   int32
}

// detail is the payload of an output or if node (pointer-free too).
type detail struct {
	path    pathRef // output path or predicate path
	filters strRef  // nodeOutput: the "|"-separated filter part, see nextFilter

	expected strRef        // nodeIf with == / !=
	thenBody nodeList      // nodeIf
	elseBody nodeList      // nodeIf, when hasElse
	pred     predicateKind // nodeIf
	hasElse  bool
}

// pathClass is how a path resolves (§8.4), decided once at parse time.
type pathClass uint8

const (
	pathExtension pathClass = iota // extensions.<name>
	pathRoot                       // runtime… / parameters… / extensions (any other length)
	pathBare                       // one non-root segment: legacy fallback
	pathOther                      // multi-segment path with a non-root head
)

// path is a validated path: its segments trimmed and joined by ".", so
// "runtime.tool.read" (the form upstream's undefined message prints).
type path struct {
	expr    string
	headLen int // length of the first segment, found once at parse time
	class   pathClass
}

// newPath returns the path expr of the given class.
func newPath(expr string, class pathClass) path {
	headLen := strings.IndexByte(expr, '.')
	if headLen < 0 {
		headLen = len(expr)
	}
	return path{expr: expr, headLen: headLen, class: class}
}

// head returns the first segment and the rest of the path.
func (p path) head() (string, string) {
	if p.headLen >= len(p.expr) {
		return p.expr, ""
	}
	return p.expr[:p.headLen], p.expr[p.headLen+1:]
}

// nextFilter returns the next non-empty trimmed filter name of a filter
// part ("a | | b" yields "a", then "b") and what remains after it.
func nextFilter(filters string) (name, rest string, ok bool) {
	for filters != "" {
		part, remaining, _ := strings.Cut(filters, "|")
		filters = remaining
		if part = jsonv.TrimJS(part); part != "" {
			return part, filters, true
		}
	}
	return "", "", false
}
