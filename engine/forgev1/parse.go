package forgev1

import (
	"math"
	"strings"
	"sync"
	"unsafe"

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
}

// A template is allocated together with room for its nodes and details
// (newTemplate picks the smallest that fits the estimate); a bigger one
// gets separate arrays.
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
// for the estimated counts.
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
	expr  strRef
	class pathClass
}

// path returns the path a detail holds.
func (t *Template) path(r pathRef) path { return path{expr: t.str(r.expr), class: r.class} }

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
	expr  string
	class pathClass
}

// head returns the first segment and the rest of the path.
func (p path) head() (string, string) {
	head, rest, _ := strings.Cut(p.expr, ".")
	return head, rest
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

// Parse parses src into a Template, or returns a parse-stage error.
func Parse(src string) (*Template, *Error) {
	if len(src) > math.MaxInt32 {
		return nil, &Error{Stage: StageParse, Kind: KindParse, Message: "forge-v1 template is too large to parse (2 GiB or more)."}
	}
	payloads, nodes := estimateSizes(src)
	t, ns, ds := newTemplate(src, nodes, payloads)
	p := parser{t: t, src: src, nodes: ns, details: ds}
	scratch := scratchPool.Get().(*[]node)
	st := (*scratch)[:0]
	root, _, err := p.parseUntil(0, &st)
	*scratch = st[:0]
	scratchPool.Put(scratch)
	if err != nil {
		return nil, err
	}
	t.nodes, t.details, t.root, t.textBytes = p.nodes, p.details, root, p.textBytes
	return t, nil
}

// ref stores s as a strRef: a range of the source when s is one (the
// parser's strings are substrings of src unless it had to build them).
func (p *parser) ref(s string) strRef {
	if s == "" {
		return strRef{}
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(p.src)))
	at := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if at >= base && at-base+uintptr(len(s)) <= uintptr(len(p.src)) {
		return strRef{off: int32(at - base), n: int32(len(s))}
	}
	p.t.extra = append(p.t.extra, s)
	return strRef{off: int32(len(p.t.extra) - 1), n: -1}
}

// estimateSizes guesses how many payload-carrying tags (outputs and ifs)
// and nodes src parses into, from the tag openers: else/endif tags carry
// no payload, and a text node precedes an opener unless a closer ends
// right before it. Short guesses only cost a regrowth.
func estimateSizes(src string) (payloads, nodes int) {
	nodes = 1
	for i := 0; i < len(src)-1; i++ {
		j := indexOpenBrace(src[:len(src)-1], i)
		if j < 0 {
			break
		}
		i = j
		switch src[i+1] {
		case '{':
			payloads++
		case '%':
			k := i + 2
			for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
				k++
			}
			if !strings.HasPrefix(src[k:], "if") {
				continue
			}
			payloads++
		default:
			continue
		}
		nodes++
		if i > 0 && src[i-1] != '}' {
			nodes++
		}
	}
	return payloads, nodes
}

// MaxParseDepth bounds if-nesting in Parse (a Go-side guard, not an
// upstream rule). Such templates could never render anyway (MaxDepth).
const MaxParseDepth = 10000

type stopSet uint8

const (
	stopElse stopSet = 1 << iota
	stopEndif
)

type parser struct {
	t       *Template
	src     string
	pos     int
	depth   int      // open if tags
	nodes   []node   // finished node lists, back to back
	details []detail // node payloads

	textBytes int // total size of the literal text
}

// scratchPool recycles the stack of the lists being parsed (nodes of
// the lists not finished yet) between parses.
var scratchPool = sync.Pool{New: func() any { s := make([]node, 0, 32); return &s }}

// finish moves the nodes parsed since base from the list stack to the
// node store and returns their range.
func (p *parser) finish(st *[]node, base int) nodeList {
	l := nodeList{start: int32(len(p.nodes)), count: int32(len(*st) - base)}
	p.nodes = append(p.nodes, (*st)[base:]...)
	*st = (*st)[:base]
	return l
}

// addDetail stores d and returns its index in Template.details.
func (p *parser) addDetail(d detail) int32 {
	p.details = append(p.details, d)
	return int32(len(p.details) - 1)
}

func (p *parser) fail(message string, start, end int) *Error {
	return spanError(p.src, StageParse, KindParse, message, start, end)
}

// spanError is an Error with the span of src[start:end] in UTF-16 code
// units, allocated together with its Span.
func spanError(src, stage, kind, message string, start, end int) *Error {
	e := &struct {
		err  Error
		span Span
	}{err: Error{Stage: stage, Kind: kind, Message: message}}
	e.span.Start = jsonv.UTF16Len(src[:start])
	e.span.End = e.span.Start + jsonv.UTF16Len(src[start:end])
	e.err.Span = &e.span
	return &e.err
}

// spanOf converts byte offsets into UTF-16 offsets.
func spanOf(src string, start, end int) Span {
	s := jsonv.UTF16Len(src[:start])
	return Span{Start: s, End: s + jsonv.UTF16Len(src[start:end])}
}

// parseUntil parses nodes until end of input or one of the stop tags,
// returning which stop tag ended the list (0 at end of input).
func (p *parser) parseUntil(stop stopSet, st *[]node) (nodeList, stopSet, *Error) {
	base := len(*st)
	src := p.src
	for p.pos < len(src) {
		open, isTag := nextOpening(src, p.pos)
		if open < 0 {
			*st = append(*st, p.textNode(src, p.pos, len(src)))
			p.pos = len(src)
			break
		}
		if open > p.pos {
			*st = append(*st, p.textNode(src, p.pos, open))
		}
		if !isTag {
			n, err := p.parseOutput(open)
			if err != nil {
				return nodeList{}, 0, err
			}
			*st = append(*st, n)
			continue
		}
		closeAt := indexCloser(src, open+1, '%') // "{%}" closes at its own '%'
		if closeAt < 0 {
			return nodeList{}, 0, p.fail("Unclosed forge-v1 tag", open, len(src))
		}
		raw := ""
		if closeAt > open+2 {
			raw = jsonv.TrimJS(src[open+2 : closeAt])
		}
		p.pos = closeAt + 2
		if raw == "else" || raw == "endif" {
			kind := stopElse
			if raw == "endif" {
				kind = stopEndif
			}
			if stop&kind == 0 {
				return nodeList{}, 0, p.fail("Unexpected {% "+raw+" %}", open, closeAt+2)
			}
			return p.finish(st, base), kind, nil
		}
		if strings.HasPrefix(raw, "if ") {
			n, err := p.parseIf(jsonv.TrimJS(raw[3:]), open, closeAt, st)
			if err != nil {
				return nodeList{}, 0, err
			}
			*st = append(*st, n)
			continue
		}
		return nodeList{}, 0, p.fail("Unsupported forge-v1 tag: {% "+raw+" %}", open, closeAt+2)
	}
	if stop != 0 {
		expected := "else"
		if stop&stopElse == 0 {
			expected = "endif"
		}
		return nodeList{}, 0, p.fail("Missing {% "+expected+" %}", p.pos, len(src))
	}
	return p.finish(st, base), 0, nil
}

func (p *parser) parseIf(raw string, open, closeAt int, st *[]node) (node, *Error) {
	n := node{kind: nodeIf, start: int32(open), end: int32(closeAt + 2)}
	var d detail
	if err := p.parsePredicate(&d, raw, open, closeAt+2); err != nil {
		return node{}, err
	}
	// The guard keeps hostile input from growing the Go stack without bound.
	if p.depth++; p.depth > MaxParseDepth {
		return node{}, p.fail("forge-v1 template nesting is too deep to parse.", open, closeAt+2)
	}
	thenBody, stopped, err := p.parseUntil(stopElse|stopEndif, st)
	if err == nil {
		d.thenBody = thenBody
		if stopped == stopElse {
			d.elseBody, _, err = p.parseUntil(stopEndif, st)
			d.hasElse = true
		}
	}
	p.depth--
	if err != nil {
		return node{}, err
	}
	n.d = p.addDetail(d)
	return n, nil
}

// parsePredicate fills the predicate of d; start/end span the whole if tag.
func (p *parser) parsePredicate(d *detail, raw string, start, end int) *Error {
	if strings.IndexByte(raw, '=') < 0 { // no == or !=: a truthy path
		return p.truthyPredicate(d, raw, start, end)
	}
	kind, left, expected, ok := matchComparison(raw, "==")
	if ok {
		kind = predEq
	} else if kind, left, expected, ok = matchComparison(raw, "!="); ok {
		kind = predNe
	}
	if ok {
		pth, valid := p.parsePath(left)
		if !valid {
			return p.fail("Invalid predicate path: "+left, start, end)
		}
		d.pred, d.path, d.expected = kind, p.pathRef(pth), p.ref(expected)
		return nil
	}
	return p.truthyPredicate(d, raw, start, end)
}

func (p *parser) truthyPredicate(d *detail, raw string, start, end int) *Error {
	if raw == "" {
		return p.fail("Missing predicate in {% if %}", start, end)
	}
	pth, valid := p.parsePath(raw)
	if !valid {
		return p.fail("Invalid predicate path: "+raw, start, end)
	}
	d.pred, d.path = predTruthy, p.pathRef(pth)
	return nil
}

func (p *parser) parseOutput(open int) (node, *Error) {
	src := p.src
	closeAt := indexCloser(src, open+2, '}')
	if closeAt < 0 {
		return node{}, p.fail("Unclosed output tag {{", open, len(src))
	}
	expr := jsonv.TrimJS(src[open+2 : closeAt])
	p.pos = closeAt + 2
	if expr == "" {
		return node{}, p.fail("Empty output tag {{}}", open, closeAt+2)
	}
	n := node{kind: nodeOutput, start: int32(open), end: int32(closeAt + 2)}
	var d detail
	head, rest, hasFilters := strings.Cut(expr, "|")
	head = jsonv.TrimJS(head)
	pth, valid := p.parsePath(head)
	if !valid {
		return node{}, p.fail("Invalid path: "+head, open, closeAt+2)
	}
	d.path = p.pathRef(pth)
	if hasFilters {
		d.filters = p.ref(rest)
	}
	n.d = p.addDetail(d)
	return n, nil
}

// indexCloser returns the index of the first "<first>}" at or after from,
// or -1. Tag bodies are short, so a plain loop beats a search call.
func indexCloser(src string, from int, first byte) int {
	for i := from; i+1 < len(src); i++ {
		if src[i] == first && src[i+1] == '}' {
			return i
		}
	}
	return -1
}

// nextOpening finds the nearest "{{" or "{%" at or after from; isTag
// reports "{%". It returns -1 when neither occurs.
func nextOpening(src string, from int) (int, bool) {
	for i := from; i < len(src)-1; i++ {
		j := indexOpenBrace(src[:len(src)-1], i)
		if j < 0 {
			return -1, false
		}
		i = j
		switch src[i+1] {
		case '{':
			return i, false
		case '%':
			return i, true
		}
	}
	return -1, false
}

// indexOpenBrace returns the index of the first '{' in s at or after
// from, or -1. Text between tags is often short, so the first bytes are
// checked in a plain loop before the vectorised search, whose set-up
// would dominate.
func indexOpenBrace(s string, from int) int {
	end := min(len(s), from+16)
	for i := from; i < end; i++ {
		if s[i] == '{' {
			return i
		}
	}
	if end == len(s) {
		return -1
	}
	if j := strings.IndexByte(s[end:], '{'); j >= 0 {
		return end + j
	}
	return -1
}

func (p *parser) textNode(src string, start, end int) node {
	p.textBytes += end - start
	return node{kind: nodeText, units: int32(jsonv.UTF16Len(src[start:end])), start: int32(start), end: int32(end)}
}

// pathRef stores a parsed path in a detail.
func (p *parser) pathRef(pth path) pathRef { return pathRef{expr: p.ref(pth.expr), class: pth.class} }

// matchComparison splits "left OP 'literal'" at the first OP (index > 0).
func matchComparison(raw, op string) (predicateKind, string, string, bool) {
	i := strings.Index(raw, op)
	if i <= 0 {
		return 0, "", "", false
	}
	left := jsonv.TrimJS(raw[:i])
	right := jsonv.TrimJS(raw[i+len(op):])
	expected, ok := parseQuoted(right)
	if !ok {
		return 0, "", "", false
	}
	return 0, left, expected, true
}

// parseQuoted unquotes a '…' or "…" literal; only \" \' \\ are unescaped,
// in that order, as upstream does.
func parseQuoted(v string) (string, bool) {
	if len(v) < 2 || (v[0] != '"' && v[0] != '\'') || v[len(v)-1] != v[0] {
		return "", false
	}
	inner := v[1 : len(v)-1]
	if strings.IndexByte(inner, '\\') >= 0 {
		inner = strings.ReplaceAll(inner, `\"`, `"`)
		inner = strings.ReplaceAll(inner, `\'`, `'`)
		inner = strings.ReplaceAll(inner, `\\`, `\`)
	}
	return inner, true
}

// parsePath splits raw at "." and validates each trimmed segment against
// ^[A-Za-z_][A-Za-z0-9_-]*$. The joined form is a substring of the
// template unless whitespace had to be dropped.
func (p *parser) parsePath(raw string) (path, bool) {
	segments, trimmed := 0, false
	var head string
	for rest, more := raw, true; more; segments++ {
		var seg string
		seg, rest, more = strings.Cut(rest, ".")
		if t := jsonv.TrimJS(seg); len(t) != len(seg) {
			seg, trimmed = t, true
		}
		if !validSegment(seg) {
			return path{}, false
		}
		if segments == 0 {
			head = seg
		}
	}
	expr := raw
	if trimmed {
		parts := strings.Split(raw, ".")
		for i := range parts {
			parts[i] = jsonv.TrimJS(parts[i])
		}
		expr = strings.Join(parts, ".")
	}
	return path{expr: expr, class: classify(head, segments)}, true
}

func validSegment(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if !(c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')) {
			return false
		}
	}
	return true
}

func classify(head string, segments int) pathClass {
	switch {
	case head == "extensions" && segments == 2:
		return pathExtension
	case head == "runtime" || head == "parameters" || head == "extensions":
		return pathRoot
	case segments == 1:
		return pathBare
	default:
		return pathOther
	}
}
