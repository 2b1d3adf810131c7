package forgev1

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Template is a parsed forge-v1 template. It is immutable and may be
// rendered any number of times, concurrently.
type Template struct {
	src   string
	nodes []node
}

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

// node is one AST node; start/end are byte offsets into the source.
type node struct {
	kind  nodeKind
	text  string // nodeText: the literal text
	units int    // nodeText: its UTF-16 length
	start int
	end   int

	path    path     // nodeOutput, nodeIf (predicate path)
	filters []string // nodeOutput: non-empty filter names in order

	pred     predicateKind // nodeIf
	expected string        // nodeIf with == / !=
	thenBody []node
	elseBody []node
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

type path struct {
	segments []string
	class    pathClass
}

// Parse parses src into a Template, or returns a parse-stage error.
func Parse(src string) (*Template, *Error) {
	p := parser{src: src}
	nodes, _, err := p.parseUntil(0)
	if err != nil {
		return nil, err
	}
	return &Template{src: src, nodes: nodes}, nil
}

type stopSet uint8

const (
	stopElse stopSet = 1 << iota
	stopEndif
)

type parser struct {
	src string
	pos int
}

func (p *parser) fail(message string, start, end int) *Error {
	return &Error{Stage: StageParse, Kind: KindParse, Message: message, Span: p.span(start, end)}
}

// span converts byte offsets into UTF-16 offsets.
func (p *parser) span(start, end int) *Span {
	s := jsonv.UTF16Len(p.src[:start])
	return &Span{Start: s, End: s + jsonv.UTF16Len(p.src[start:end])}
}

// parseUntil parses nodes until end of input or one of the stop tags,
// returning which stop tag ended the list (0 at end of input).
func (p *parser) parseUntil(stop stopSet) ([]node, stopSet, *Error) {
	var nodes []node
	src := p.src
	for p.pos < len(src) {
		open, isTag := nextOpening(src, p.pos)
		if open < 0 {
			nodes = append(nodes, textNode(src, p.pos, len(src)))
			p.pos = len(src)
			break
		}
		if open > p.pos {
			nodes = append(nodes, textNode(src, p.pos, open))
		}
		if !isTag {
			n, err := p.parseOutput(open)
			if err != nil {
				return nil, 0, err
			}
			nodes = append(nodes, n)
			continue
		}
		closeAt := strings.Index(src[open:], "%}")
		if closeAt < 0 {
			return nil, 0, p.fail("Unclosed forge-v1 tag", open, len(src))
		}
		closeAt += open
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
				return nil, 0, p.fail("Unexpected {% "+raw+" %}", open, closeAt+2)
			}
			return nodes, kind, nil
		}
		if strings.HasPrefix(raw, "if ") {
			n, err := p.parseIf(jsonv.TrimJS(raw[3:]), open, closeAt)
			if err != nil {
				return nil, 0, err
			}
			nodes = append(nodes, n)
			continue
		}
		return nil, 0, p.fail("Unsupported forge-v1 tag: {% "+raw+" %}", open, closeAt+2)
	}
	if stop != 0 {
		expected := "else"
		if stop&stopElse == 0 {
			expected = "endif"
		}
		return nil, 0, p.fail("Missing {% "+expected+" %}", p.pos, len(src))
	}
	return nodes, 0, nil
}

func (p *parser) parseIf(raw string, open, closeAt int) (node, *Error) {
	n := node{kind: nodeIf, start: open, end: closeAt + 2}
	if err := p.parsePredicate(&n, raw); err != nil {
		return node{}, err
	}
	thenBody, stopped, err := p.parseUntil(stopElse | stopEndif)
	if err != nil {
		return node{}, err
	}
	n.thenBody = thenBody
	if stopped == stopElse {
		elseBody, _, err := p.parseUntil(stopEndif)
		if err != nil {
			return node{}, err
		}
		n.elseBody, n.hasElse = elseBody, true
	}
	return n, nil
}

// parsePredicate fills the predicate of n; its span is the whole if tag.
func (p *parser) parsePredicate(n *node, raw string) *Error {
	kind, left, expected, ok := matchComparison(raw, "==")
	if ok {
		kind = predEq
	} else if kind, left, expected, ok = matchComparison(raw, "!="); ok {
		kind = predNe
	}
	if ok {
		pth, valid := parsePath(left)
		if !valid {
			return p.fail("Invalid predicate path: "+left, n.start, n.end)
		}
		n.pred, n.path, n.expected = kind, pth, expected
		return nil
	}
	if raw == "" {
		return p.fail("Missing predicate in {% if %}", n.start, n.end)
	}
	pth, valid := parsePath(raw)
	if !valid {
		return p.fail("Invalid predicate path: "+raw, n.start, n.end)
	}
	n.pred, n.path = predTruthy, pth
	return nil
}

func (p *parser) parseOutput(open int) (node, *Error) {
	src := p.src
	closeAt := strings.Index(src[open:], "}}")
	if closeAt < 0 {
		return node{}, p.fail("Unclosed output tag {{", open, len(src))
	}
	closeAt += open
	expr := jsonv.TrimJS(src[open+2 : closeAt])
	p.pos = closeAt + 2
	if expr == "" {
		return node{}, p.fail("Empty output tag {{}}", open, closeAt+2)
	}
	n := node{kind: nodeOutput, start: open, end: closeAt + 2}
	head, rest, hasFilters := strings.Cut(expr, "|")
	head = jsonv.TrimJS(head)
	pth, valid := parsePath(head)
	if !valid {
		return node{}, p.fail("Invalid path: "+head, open, closeAt+2)
	}
	n.path = pth
	for hasFilters {
		var part string
		part, rest, hasFilters = strings.Cut(rest, "|")
		if part = jsonv.TrimJS(part); part != "" {
			n.filters = append(n.filters, part)
		}
	}
	return n, nil
}

// nextOpening finds the nearest "{{" or "{%" at or after from; isTag
// reports "{%". It returns -1 when neither occurs.
func nextOpening(src string, from int) (int, bool) {
	for i := from; i < len(src)-1; i++ {
		j := strings.IndexByte(src[i:len(src)-1], '{')
		if j < 0 {
			return -1, false
		}
		i += j
		switch src[i+1] {
		case '{':
			return i, false
		case '%':
			return i, true
		}
	}
	return -1, false
}

func textNode(src string, start, end int) node {
	text := src[start:end]
	return node{kind: nodeText, text: text, units: jsonv.UTF16Len(text), start: start, end: end}
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
// ^[A-Za-z_][A-Za-z0-9_-]*$.
func parsePath(raw string) (path, bool) {
	n := strings.Count(raw, ".") + 1
	segments := make([]string, 0, n)
	for {
		seg, rest, more := strings.Cut(raw, ".")
		seg = jsonv.TrimJS(seg)
		if !validSegment(seg) {
			return path{}, false
		}
		segments = append(segments, seg)
		if !more {
			break
		}
		raw = rest
	}
	return path{segments: segments, class: classify(segments)}, true
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

func classify(segments []string) pathClass {
	head := segments[0]
	switch {
	case head == "extensions" && len(segments) == 2:
		return pathExtension
	case head == "runtime" || head == "parameters" || head == "extensions":
		return pathRoot
	case len(segments) == 1:
		return pathBare
	default:
		return pathOther
	}
}
