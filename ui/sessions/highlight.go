package sessions

import (
	"strings"
	"unicode"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The session search's highlights in the entry detail: the words of the
// query are marked (ignoring case) in the rendered lines on screen. Only
// the visible window is marked, once per window, query and rendering
// (detailHighlight memoises it), so scrolling and redraws stay cheap.

// detailHighlight is the last highlighted window of the detail.
type detailHighlight struct {
	key    detailKey
	off, h int
	query  string
	lines  []string
}

// highlightedWindow returns the detail lines on screen with the search's
// words marked.
func (m *Model) highlightedWindow(key detailKey, lines []string, off, h int) []string {
	vis := window(lines, off, h)
	q := m.search.Query()
	if !m.search.Active() && !m.search.Typing() || strings.TrimSpace(q) == "" {
		return vis
	}
	hl := &m.detail.highlight
	if hl.lines != nil && hl.key == key && hl.off == off && hl.h == h && hl.query == q {
		return hl.lines
	}
	words := strings.Fields(q)
	out := make([]string, len(vis))
	for i, line := range vis {
		out[i] = highlightLine(line, words, m.com.Styles.List.Match)
	}
	*hl = detailHighlight{key: key, off: off, h: h, query: q, lines: out}
	return out
}

// highlightLine marks every occurrence of the words (ignoring case) in a
// rendered, possibly styled line; its text and width are unchanged.
func highlightLine(line string, words []string, style lipgloss.Style) string {
	plain := []rune(ansi.Strip(line))
	marked := make([]bool, len(plain))
	found := false
	for _, w := range words {
		q := []rune(w)
		for i := 0; i+len(q) <= len(plain); i++ {
			if foldedAt(plain, i, q) {
				for k := i; k < i+len(q); k++ {
					marked[k] = true
				}
				found = true
			}
		}
	}
	if !found {
		return line
	}
	var b strings.Builder
	col := 0 // cells before the rune at i
	for i := 0; i < len(plain); {
		j := i
		for j < len(plain) && marked[j] == marked[i] {
			j++
		}
		w := ansi.StringWidth(string(plain[i:j]))
		if marked[i] {
			b.WriteString(style.Render(string(plain[i:j])))
		} else {
			b.WriteString(ansi.Cut(line, col, col+w))
		}
		col += w
		i = j
	}
	return b.String()
}

// foldedAt reports whether q occurs at s[i:] ignoring case.
func foldedAt(s []rune, i int, q []rune) bool {
	for k, r := range q {
		if c := s[i+k]; c != r && unicode.ToLower(c) != unicode.ToLower(r) && unicode.ToUpper(c) != unicode.ToUpper(r) {
			return false
		}
	}
	return true
}
