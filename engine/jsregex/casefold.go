package jsregex

import (
	"sort"
	"sync"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// Case-insensitive matching follows ECMAScript Canonicalize instead of
// regexp2's own folding: without the "u" flag a character's canonical form
// is its toUpperCase() when that is a single character and does not map a
// non-ASCII character to ASCII; with "u" it is simple case folding. The
// translator expands every literal and class into the characters with the
// same canonical form.

var (
	casedOnce sync.Once
	// casedRunes are all code points with at least one simple case variant.
	casedRunes []rune
	// fullUpperMulti marks code points whose full uppercase is several characters.
	fullUpperMulti map[rune]bool
)

func initCased() {
	upper := cases.Upper(language.Und)
	fullUpperMulti = map[rune]bool{}
	// No cased characters exist beyond plane 1.
	for r := rune(0); r <= 0x1FFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if unicode.SimpleFold(r) == r {
			if unicode.IsLower(r) || unicode.IsTitle(r) {
				if n := len([]rune(upper.String(string(r)))); n > 1 {
					fullUpperMulti[r] = true
				}
			}
			continue
		}
		casedRunes = append(casedRunes, r)
		if n := len([]rune(upper.String(string(r)))); n > 1 {
			fullUpperMulti[r] = true
		}
	}
}

// canonicalizeNonUnicode is ECMAScript Canonicalize(rer, ch) without the
// unicode flag (code units: astral characters never change).
func canonicalizeNonUnicode(r rune) rune {
	if r > 0xFFFF || fullUpperMulti[r] {
		return r
	}
	u := unicode.ToUpper(r)
	if r >= 128 && u < 128 {
		return r
	}
	return u
}

// caseVariants returns the other characters that match r case-insensitively.
func caseVariants(r rune, unicodeMode bool) []rune {
	casedOnce.Do(initCased)
	var out []rune
	canon := canonicalizeNonUnicode(r)
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if unicodeMode || canonicalizeNonUnicode(f) == canon {
			out = append(out, f)
		}
	}
	if !unicodeMode && canon != r && !containsRune(out, canon) && canonicalizeNonUnicode(canon) == canon {
		out = append(out, canon)
	}
	return out
}

func containsRune(list []rune, r rune) bool {
	for _, x := range list {
		if x == r {
			return true
		}
	}
	return false
}

// caseClosure adds the case variants of every cased character in ranges.
func caseClosure(ranges []codeRange, unicodeMode bool) []codeRange {
	casedOnce.Do(initCased)
	var extra []codeRange
	for _, rg := range ranges {
		i := sort.Search(len(casedRunes), func(i int) bool { return casedRunes[i] >= rg.lo })
		for ; i < len(casedRunes) && casedRunes[i] <= rg.hi; i++ {
			for _, v := range caseVariants(casedRunes[i], unicodeMode) {
				extra = append(extra, codeRange{v, v})
			}
		}
	}
	if len(extra) == 0 {
		return ranges
	}
	return mergeRanges(append(append([]codeRange(nil), ranges...), extra...))
}

// writeCaseInsensitiveLiteral writes r, or a class of r and its case variants.
func (t *translator) writeCaseInsensitiveLiteral(r rune) bool {
	variants := caseVariants(r, t.f.unicode)
	if len(variants) == 0 {
		return false
	}
	t.out.WriteByte('[')
	writeClassLiteral(&t.out, r)
	for _, v := range variants {
		writeClassLiteral(&t.out, v)
	}
	t.out.WriteByte(']')
	return true
}
