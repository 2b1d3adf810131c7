package transcript

import (
	"strings"
	"unicode"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Revealing a search hit in rendered lines: a panel that lands on an
// entry because of a search finds the line that holds the match (after
// expanding what hides it), scrolls to it and marks the query's words.
// Both the Session panel's detail and the Agents transcript use these, on
// the lines Entry and PageWithStarts produce.

// MatchLine is the index of the first line in lines[from:to] that holds
// the query: the whole query ignoring case, else the first line holding
// any of its words. ok is false when no line does (or the query is blank).
func MatchLine(lines []string, query string, from, to int) (int, bool) {
	from, to = max(0, from), min(len(lines), to)
	words := strings.Fields(query)
	if len(words) == 0 || from >= to {
		return 0, false
	}
	whole := []rune(strings.Join(words, " "))
	any := -1
	for i := from; i < to; i++ {
		plain := []rune(ansi.Strip(lines[i]))
		if containsFolded(plain, whole) {
			return i, true
		}
		if any < 0 {
			for _, w := range words {
				if containsFolded(plain, []rune(w)) {
					any = i
					break
				}
			}
		}
	}
	if any < 0 {
		return 0, false
	}
	return any, true
}

// RevealOffset is the scroll offset that shows line inside a window of
// height h whose content starts at top (the entry's header): top when the
// line fits below it, else the line a third of the way down.
func RevealOffset(line, top, h int) int {
	if line < top+h {
		return max(0, top)
	}
	return max(0, line-h/3)
}

// MarkWords marks every occurrence of the words (ignoring case) in a
// rendered, possibly styled line with style; its text and width are
// unchanged.
func MarkWords(line string, words []string, style lipgloss.Style) string {
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

// containsFolded reports whether q occurs in s ignoring case.
func containsFolded(s, q []rune) bool {
	if len(q) == 0 {
		return false
	}
	for i := 0; i+len(q) <= len(s); i++ {
		if foldedAt(s, i, q) {
			return true
		}
	}
	return false
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
