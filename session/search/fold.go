package search

import (
	"unicode"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Case-insensitive matching uses Unicode simple case folding, as Go's
// strings.EqualFold, RE2's (?i) and JavaScript's /iu do: two characters are
// equal when they lie in the same unicode.SimpleFold orbit ('k', 'K' and
// the Kelvin sign U+212A; 's', 'S' and 'ſ' U+017F).

// foldRune maps r to the representative of its case-folding orbit (the
// smallest rune in it), so two runes are equal ignoring case exactly when
// their representatives are equal.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// orbit returns every rune that equals r ignoring case, r first.
func orbit(r rune) []rune {
	out := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, f)
	}
	return out
}

// decodeRune decodes the rune at the start of b like the search decodes
// text: an ill-formed sequence is one U+FFFD per maximal subpart (Node's
// UTF-8 decoder, which Pi reads files with), and its length is returned.
func decodeRune(b []byte) (rune, int) {
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError && size <= 1 {
		if len(b) == 0 {
			return utf8.RuneError, 0
		}
		return utf8.RuneError, jsonv.MaximalSubpart(b)
	}
	return r, size
}

// queryRunes splits a query into runes; invalid UTF-8 in the query stands
// for U+FFFD, as it would in decoded text.
func queryRunes(q string) []rune {
	b := []byte(q)
	out := make([]rune, 0, len(b))
	for len(b) > 0 {
		r, n := decodeRune(b)
		out = append(out, r)
		b = b[n:]
	}
	return out
}
