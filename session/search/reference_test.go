package search

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// The decode-everything reference: every line parsed whole with jsonv (the
// JSON.parse model), the readable texts picked from the decoded values,
// and a naive rune-by-rune search. The fast path must find exactly what
// this finds.

// refMatch is one match the reference found: the line, the role, the
// decoded text that matched and where.
type refMatch struct {
	line       int // 0-based physical line
	role       string
	text       string
	start, end int
}

func (r refMatch) String() string {
	return fmt.Sprintf("line %d %s [%d:%d] in %q", r.line, r.role, r.start, r.end, r.text)
}

// referenceSearch searches data line by line (the header rule is not
// applied: every object line that is not a "session" line counts).
func referenceSearch(t testing.TB, data []byte, q Query, maxLine int) []refMatch {
	var re *regexp.Regexp
	if q.Regex {
		expr := q.Text
		if !q.CaseSensitive {
			expr = "(?i)" + expr
		}
		re = regexp.MustCompile(expr)
	}
	roles := map[string]bool{}
	for _, r := range q.Roles {
		roles[r] = true
	}
	var out []refMatch
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for no, line := range lines {
		if len(line) > maxLine {
			continue
		}
		v, err := jsonv.Parse(line)
		if err != nil {
			continue
		}
		obj, ok := v.(*jsonv.Object)
		if !ok || refStr(obj, "type") == "session" {
			continue
		}
		for _, f := range refFields(obj) {
			if len(roles) > 0 && !roles[f.role] {
				continue
			}
			for _, s := range refFind(f.text, q, re) {
				out = append(out, refMatch{line: no, role: f.role, text: f.text, start: s[0], end: s[1]})
			}
		}
	}
	return out
}

type refField struct{ role, text string }

func refStr(o *jsonv.Object, key string) string {
	v, _ := o.Get(key)
	s, _ := v.(string)
	return s
}

func refObj(o *jsonv.Object, key string) *jsonv.Object {
	v, _ := o.Get(key)
	x, _ := v.(*jsonv.Object)
	return x
}

// refText turns a decoded string into the text the search sees: lone
// surrogates (WTF-8 in jsonv) become U+FFFD.
func refText(s string) string {
	b := []byte(s)
	var out []byte
	for i := 0; i < len(b); {
		if b[i] == 0xED && i+2 < len(b) && b[i+1] >= 0xA0 && b[i+1] <= 0xBF && b[i+2] >= 0x80 && b[i+2] <= 0xBF {
			out = append(out, "\uFFFD"...)
			i += 3
			continue
		}
		out = append(out, b[i])
		i++
	}
	return string(out)
}

func refFields(o *jsonv.Object) []refField {
	var out []refField
	addStr := func(role string, v any) {
		if s, ok := v.(string); ok {
			out = append(out, refField{role, refText(s)})
		}
	}
	content := func(role string, v any) {
		switch c := v.(type) {
		case string:
			addStr(role, c)
		case []any:
			for _, b := range c {
				if bo, ok := b.(*jsonv.Object); ok && refStr(bo, "type") == "text" {
					t, _ := bo.Get("text")
					addStr(role, t)
				}
			}
		}
	}
	var values func(v any, depth int)
	values = func(v any, depth int) {
		if depth > maxArgDepth {
			return
		}
		switch x := v.(type) {
		case string:
			addStr(RoleTool, x)
		case []any:
			for _, e := range x {
				values(e, depth+1)
			}
		case *jsonv.Object:
			x.Range(func(_ string, e any) bool {
				values(e, depth+1)
				return true
			})
		}
	}
	switch refStr(o, "type") {
	case "message":
		msg := refObj(o, "message")
		if msg == nil {
			return nil
		}
		get := func(k string) any { v, _ := msg.Get(k); return v }
		switch refStr(msg, "role") {
		case "user":
			content(RoleUser, get("content"))
		case "assistant":
			switch c := get("content").(type) {
			case string:
				addStr(RoleAssistant, c)
			case []any:
				for _, b := range c {
					bo, ok := b.(*jsonv.Object)
					if !ok {
						continue
					}
					bget := func(k string) any { v, _ := bo.Get(k); return v }
					switch refStr(bo, "type") {
					case "text":
						addStr(RoleAssistant, bget("text"))
					case "thinking":
						addStr(RoleThinking, bget("thinking"))
					case "toolCall":
						addStr(RoleTool, bget("name"))
						values(bget("arguments"), 0)
					}
				}
			}
			addStr(RoleAssistant, get("errorMessage"))
		case "toolResult":
			content(RoleTool, get("content"))
		case "bashExecution":
			addStr(RoleTool, get("command"))
			addStr(RoleTool, get("output"))
		case "custom", "hookMessage":
			content(RoleCustom, get("content"))
		case "branchSummary", "compactionSummary":
			addStr(RoleSummary, get("summary"))
		}
	case "compaction", "branch_summary":
		v, _ := o.Get("summary")
		addStr(RoleSummary, v)
	case "custom_message":
		v, _ := o.Get("content")
		content(RoleCustom, v)
	}
	return out
}

// refFind lists the non-overlapping matches of q in text, leftmost first.
func refFind(text string, q Query, re *regexp.Regexp) [][2]int {
	if re != nil {
		var out [][2]int
		for _, loc := range re.FindAllStringIndex(text, -1) {
			out = append(out, [2]int{loc[0], loc[1]})
		}
		return out
	}
	want := []rune(string(queryRunes(q.Text)))
	var out [][2]int
	for i := 0; i < len(text); {
		if end, ok := refMatchAt(text, i, want, !q.CaseSensitive); ok {
			out = append(out, [2]int{i, end})
			i = end
			continue
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		i += n
	}
	return out
}

func refMatchAt(text string, i int, want []rune, fold bool) (int, bool) {
	for _, w := range want {
		if i >= len(text) {
			return 0, false
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if r != w && !(fold && sameOrbit(r, w)) {
			return 0, false
		}
		i += n
	}
	return i, true
}

func sameOrbit(a, b rune) bool {
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// fastSearch runs the scanner over data in parts, as Search does, and
// lists every match of every hit line (decoded again, all matches).
func fastSearch(t testing.TB, m *Matcher, data []byte, bufBytes, maxLine int, partBytes int64) []refMatch {
	t.Helper()
	var big bigLines
	sc := newScanner(bufBytes, maxLine, &big)
	var hits []rangeHit
	size := int64(len(data))
	everything := headEscapesEverything(bytes.NewReader(data), size)
	for start := int64(0); start < size || start == 0; start += partBytes {
		res, err := sc.scanRange(t.Context(), m, bytes.NewReader(data), size, start, min(size, start+partBytes), everything && start > 0)
		if err != nil {
			t.Fatalf("scanRange: %v", err)
		}
		hits = append(hits, res.hits...)
		if size == 0 {
			break
		}
	}
	lineStarts := []int64{0}
	for i, c := range data {
		if c == '\n' {
			lineStarts = append(lineStarts, int64(i+1))
		}
	}
	var out []refMatch
	for _, h := range hits {
		no := sort.Search(len(lineStarts), func(k int) bool { return lineStarts[k] >= h.lineOff })
		end := bytes.IndexByte(data[h.lineOff:], '\n')
		line := data[h.lineOff:]
		if end >= 0 {
			line = line[:end]
		}
		line = append([]byte(nil), line...)
		e, err := parseForTest(line)
		if err != nil {
			t.Fatalf("hit on a line that is not an entry: %q", line)
		}
		var sc scratch
		n := 0
		m.eachMatch(line, e, &sc, func(mt Match, text []byte) bool {
			out = append(out, refMatch{line: no, role: mt.Role, text: string(text), start: mt.Start, end: mt.End})
			n++
			// The raw offset must point at the encoded form of the match.
			if mt.Offset < 0 || mt.Offset > len(line) {
				t.Fatalf("offset %d outside line of %d bytes", mt.Offset, len(line))
			}
			return true
		})
		if n == 0 {
			t.Fatalf("hit line has no match: %q", line)
		}
		if n != h.hit.count && h.hit.count < maxCount {
			t.Fatalf("hit counts %d matches, eachMatch %d", h.hit.count, n)
		}
	}
	return out
}

func sortMatches(ms []refMatch) {
	sort.Slice(ms, func(a, b int) bool {
		x, y := ms[a], ms[b]
		if x.line != y.line {
			return x.line < y.line
		}
		if x.text != y.text {
			return x.text < y.text
		}
		if x.start != y.start {
			return x.start < y.start
		}
		return x.role < y.role
	})
}

// compareWithReference fails when the fast path and the reference differ.
func compareWithReference(t testing.TB, data []byte, q Query, bufBytes, maxLine int, partBytes int64) {
	t.Helper()
	m, err := Compile(q)
	if err != nil {
		return
	}
	want := undetermined(data, referenceSearch(t, data, q, maxLine))
	got := undetermined(data, fastSearch(t, m, data, bufBytes, maxLine, partBytes))
	sortMatches(want)
	sortMatches(got)
	if len(want) != len(got) {
		t.Fatalf("query %+v, buffer %d: reference found %d matches, search %d\nreference: %v\nsearch:    %v\ndata: %q",
			q, bufBytes, len(want), len(got), want, got, data)
	}
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("query %+v: match %d differs\nreference: %v\nsearch:    %v\ndata: %q", q, i, want[i], got[i], data)
		}
	}
}

// undetermined drops the matches on lines that escape a printable ASCII
// character no usual encoder escapes, in a file whose first line does not
// (the prefilter does not look for such forms; see prefilter).
func undetermined(data []byte, ms []refMatch) []refMatch {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && escapesEverything(lines[0]) {
		return ms
	}
	out := ms[:0]
	for _, m := range ms {
		if !escapesEverything(lines[m.line]) {
			out = append(out, m)
		}
	}
	return out
}

func parseForTest(line []byte) (*session.Entry, error) { return session.ParseEntryLine(line, 0) }
