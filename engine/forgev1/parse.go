package forgev1

import (
	"strings"
	"unsafe"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Parse parses src into a Template, or returns a parse-stage error. It
// parses into a pooled workspace and copies the result into memory of
// exactly the size needed (see detach).
func Parse(src string) (*Template, *Error) {
	w := workspaces.Get().(*workspace)
	var t Template
	err := w.parse(&t, src)
	var out *Template
	if err == nil {
		out = detach(&t)
	}
	w.release(&t)
	return out, err
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
	p.extra = append(p.extra, s)
	return strRef{off: int32(len(p.extra) - 1), n: -1}
}

// MaxParseDepth bounds if-nesting in Parse (a Go-side guard, not an
// upstream rule). Such templates could never render anyway (MaxDepth).
const MaxParseDepth = 10000

type stopSet uint8

const (
	stopElse stopSet = 1 << iota
	stopEndif
)

// parser holds what it builds itself rather than a *Template: the
// escape analysis is not field-sensitive, and a Template pointer here
// would move the caller's Template to the heap.
type parser struct {
	src     string
	pos     int
	depth   int         // open if tags
	nodes   nodeStack   // finished node lists, back to back
	details detailStack // node payloads
	stack   nodeStack   // nodes of the lists not finished yet
	extra   []string    // see Template.extra

	textBytes int       // total size of the literal text
	badFilter badFilter // see Template.badFilter
}

// finish moves the nodes parsed since base from the list stack to the
// node store and returns their range.
func (p *parser) finish(base int) nodeList {
	l := nodeList{start: int32(p.nodes.n), count: int32(p.stack.n - base)}
	p.nodes.pushAll(p.stack.items()[base:])
	p.stack.n = base
	return l
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
func (p *parser) parseUntil(stop stopSet) (nodeList, stopSet, *Error) {
	base := p.stack.n
	src := p.src
	for p.pos < len(src) {
		open, isTag := nextOpening(src, p.pos)
		if open < 0 {
			p.stack.push(p.textNode(src, p.pos, len(src)))
			p.pos = len(src)
			break
		}
		if open > p.pos {
			p.stack.push(p.textNode(src, p.pos, open))
		}
		if !isTag {
			n, err := p.parseOutput(open)
			if err != nil {
				return nodeList{}, 0, err
			}
			p.stack.push(n)
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
			return p.finish(base), kind, nil
		}
		if strings.HasPrefix(raw, "if ") {
			n, err := p.parseIf(jsonv.TrimJS(raw[3:]), open, closeAt)
			if err != nil {
				return nodeList{}, 0, err
			}
			p.stack.push(n)
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
	return p.finish(base), 0, nil
}

func (p *parser) parseIf(raw string, open, closeAt int) (node, *Error) {
	// The detail is filled in place (its slot reserved before the branches
	// are parsed) rather than built on the stack and copied in.
	n := node{kind: nodeIf, d: int32(p.details.n), start: int32(open), end: int32(closeAt + 2)}
	p.details.pushZero()
	if err := p.parsePredicate(&p.details.a[n.d], raw, open, closeAt+2); err != nil {
		return node{}, err
	}
	// The guard keeps hostile input from growing the Go stack without bound.
	if p.depth++; p.depth > MaxParseDepth {
		return node{}, p.fail("forge-v1 template nesting is too deep to parse.", open, closeAt+2)
	}
	thenBody, stopped, err := p.parseUntil(stopElse | stopEndif)
	if err == nil {
		p.details.a[n.d].thenBody = thenBody // the array may have grown: index again
		if stopped == stopElse {
			var elseBody nodeList
			elseBody, _, err = p.parseUntil(stopEndif)
			d := &p.details.a[n.d]
			d.elseBody, d.hasElse = elseBody, true
		}
	}
	p.depth--
	if err != nil {
		return node{}, err
	}
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
	head, rest, hasFilters := strings.Cut(expr, "|")
	head = jsonv.TrimJS(head)
	pth, valid := p.parsePath(head)
	if !valid {
		return node{}, p.fail("Invalid path: "+head, open, closeAt+2)
	}
	n.d = int32(p.details.n)
	d := p.details.pushZero() // filled in place, not copied in
	d.path = p.pathRef(pth)
	if hasFilters {
		d.filters = p.ref(rest)
		if p.badFilter.end == 0 {
			for f, more, ok := nextFilter(rest); ok; f, more, ok = nextFilter(more) {
				if !knownFilter(f) {
					p.badFilter = badFilter{start: n.start, end: n.end, name: p.ref(f)}
					break
				}
			}
		}
	}
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
func (p *parser) pathRef(pth path) pathRef {
	return pathRef{expr: p.ref(pth.expr), headLen: int32(pth.headLen), class: pth.class}
}

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
	// Fast path, one pass: every segment valid as it stands (so nothing
	// to trim, and the path is raw itself). Anything else, including
	// every invalid path, takes the general route below.
	segments, segStart, headEnd := 0, 0, 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '.' {
			if i == segStart {
				return p.parsePathTrimmed(raw)
			}
			if segments == 0 {
				headEnd = i
			}
			segments++
			segStart = i + 1
			continue
		}
		want := segmentRest
		if i == segStart {
			want = segmentFirst
		}
		if segmentChars[c]&want == 0 {
			return p.parsePathTrimmed(raw)
		}
	}
	if segStart == len(raw) { // empty, or a trailing "."
		return p.parsePathTrimmed(raw)
	}
	if segments == 0 {
		headEnd = len(raw)
	}
	return path{expr: raw, headLen: headEnd, class: classify(raw[:headEnd], segments+1)}, true
}

// Byte classes of path segments: ^[A-Za-z_][A-Za-z0-9_-]*$.
const (
	segmentFirst uint8 = 1 << iota
	segmentRest
)

var segmentChars = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			t[c] = segmentFirst | segmentRest
		case c == '-' || (c >= '0' && c <= '9'):
			t[c] = segmentRest
		}
	}
	return t
}()

// parsePathTrimmed is parsePath for paths whose segments need trimming,
// and for invalid ones.
func (p *parser) parsePathTrimmed(raw string) (path, bool) {
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
	return newPath(expr, classify(head, segments)), true
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
