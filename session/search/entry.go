package search

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
)

// Snippet sizes, in runes of decoded text.
const (
	snippetBefore = 32
	snippetAfter  = 64
	snippetMatch  = 80
	// maxCount bounds the matches counted in one entry.
	maxCount = 9999
)

// Match is one match inside an entry.
type Match struct {
	// Role is the kind of text that matched (RoleUser …).
	Role string
	// Field is the index of the matched text among the entry's searchable
	// texts (in file order), Start and End the match in that text decoded.
	Field      int
	Start, End int
	// Offset is the match's first byte in the line (raw, escapes included).
	Offset int
}

// scratch holds one worker's reusable buffers.
type scratch struct {
	fields []field
	text   []byte
}

// entryHit is what matching one line found.
type entryHit struct {
	id, parentID, timestamp string
	hasParent               bool
	first                   Match
	count                   int
	snippet                 Snippet
}

// Snippet is sanitised one-row text around a match; Text[Start:End] is the
// match (bytes).
type Snippet struct {
	Text       string
	Start, End int
}

// matchLine decodes one candidate line and matches it. ok is false when the
// line is not an entry, is filtered out or holds no match.
func (m *Matcher) matchLine(line []byte, sc *scratch) (entryHit, bool) {
	e, err := session.ParseEntryLine(line, 0)
	if err != nil || e.Type == session.TypeSession {
		return entryHit{}, false
	}
	if !math.IsNaN(m.sinceMs) {
		if ms := e.TimestampMs(); math.IsNaN(ms) || ms < m.sinceMs {
			return entryHit{}, false
		}
	}
	var hit entryHit
	found := false
	m.eachMatch(line, e, sc, func(mt Match, text []byte) bool {
		if !found {
			found = true
			hit.first = mt
			hit.snippet = makeSnippet(text, span{mt.Start, mt.End})
		}
		hit.count++
		return hit.count < maxCount
	})
	if !found {
		return entryHit{}, false
	}
	hit.id, hit.parentID, hit.hasParent = strings.Clone(e.ID), strings.Clone(e.ParentID), e.HasParent
	hit.timestamp = strings.Clone(e.Timestamp)
	return hit, true
}

// eachMatch calls fn for every match in the entry, in file order; fn gets
// the decoded text of the field (valid until it returns) and stops the walk
// by returning false.
func (m *Matcher) eachMatch(line []byte, e *session.Entry, sc *scratch, fn func(Match, []byte) bool) {
	sc.fields = entryFields(line, e, sc.fields)
	for fi, f := range sc.fields {
		if !m.wantRole(f.role) {
			continue
		}
		sc.text = decodeString(sc.text[:0], f.raw)
		text := sc.text
		raw := rawCursor{raw: f.raw}
		for from := 0; from <= len(text); {
			s, ok := m.find(text, from)
			if !ok {
				break
			}
			mt := Match{Role: f.role, Field: fi, Start: s.start, End: s.end, Offset: f.off + raw.at(s.start)}
			if !fn(mt, text) {
				return
			}
			if s.end > s.start {
				from = s.end
			} else {
				_, n := utf8.DecodeRune(text[s.end:])
				from = s.end + max(n, 1)
			}
		}
	}
}

// EntryMatches returns every match in an entry that passes the query's
// role and time filters (at most limit; 0 means no limit), for views
// that highlight them.
func (m *Matcher) EntryMatches(e *session.Entry, limit int) []Match {
	if e.Type == session.TypeSession || e.Raw == nil {
		return nil
	}
	if !math.IsNaN(m.sinceMs) {
		if ms := e.TimestampMs(); math.IsNaN(ms) || ms < m.sinceMs {
			return nil
		}
	}
	var out []Match
	var sc scratch
	m.eachMatch(e.Raw, e, &sc, func(mt Match, _ []byte) bool {
		out = append(out, mt)
		return limit <= 0 || len(out) < limit
	})
	return out
}

// makeSnippet cuts the text around s and sanitises it to one row.
func makeSnippet(text []byte, s span) Snippet {
	start := s.start
	for n := 0; n < snippetBefore && start > 0; n++ {
		_, size := utf8.DecodeLastRune(text[:start])
		start -= size
	}
	matchEnd := s.end
	if utf8.RuneCount(text[s.start:s.end]) > snippetMatch {
		matchEnd = s.start
		for n := 0; n < snippetMatch; n++ {
			_, size := utf8.DecodeRune(text[matchEnd:])
			matchEnd += size
		}
	}
	end := matchEnd
	for n := 0; n < snippetAfter && end < len(text); n++ {
		_, size := utf8.DecodeRune(text[end:])
		end += size
	}
	pre := foldSpaces(sanitize.Line(string(text[start:s.start])))
	mid := foldSpaces(sanitize.Line(string(text[s.start:matchEnd])))
	post := foldSpaces(sanitize.Line(string(text[matchEnd:end])))
	pre = strings.TrimLeftFunc(pre, unicode.IsSpace)
	if start > 0 {
		pre = "…" + pre
	}
	if matchEnd < s.end {
		mid += "…"
	}
	post = strings.TrimRightFunc(post, unicode.IsSpace)
	if end < len(text) {
		post += "…"
	}
	if strings.HasSuffix(pre, " ") && strings.HasPrefix(mid, " ") {
		pre = pre[:len(pre)-1]
	}
	if strings.HasSuffix(mid, " ") && strings.HasPrefix(post, " ") {
		post = post[1:]
	}
	return Snippet{Text: pre + mid + post, Start: len(pre), End: len(pre) + len(mid)}
}

// foldSpaces turns every run of white space into one space.
func foldSpaces(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
