package search

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// prefilter finds the lines of raw JSONL that may hold a match without
// decoding them. It looks for the query's literal in the raw bytes with
// each character in any form a JSON writer gives it — verbatim UTF-8, a
// short escape (\" \\ \/ \n …), \uXXXX in either hex case, or a surrogate
// pair for an astral character — and, ignoring case, any character of its
// case-folding orbit.
//
// The search is anchored on one character of the literal, the one whose
// forms hold the rarest bytes: those bytes are found with IndexByte (SIMD)
// and the literal is then decoded and compared around each hit. A hit can
// only be a match if the anchor character sits there in one of its forms,
// so the forms searched for must include every form a writer can give it:
//
//   - JSON.stringify (Pi) writes a character verbatim unless it is '"',
//     '\\' or a control character, which get their standard escapes;
//   - other encoders also escape non-ASCII (Python's ensure_ascii, with
//     surrogate pairs for astral characters), '<', '>', '&' and U+2028/9
//     (Go), '\” and '/' (PHP writes "\/");
//   - no known encoder escapes other printable ASCII, except one that
//     escapes everything, which then escapes the header line too: such a
//     file is recognised by its first line and every line is decoded.
//
// Around the anchor the comparison decodes any form, so a match whose
// other characters are escaped in unusual ways is found too. A literal
// containing U+FFFD (which ill-formed UTF-8 and lone surrogates decode to)
// makes every line a candidate.
type prefilter struct {
	all   bool     // every line is a candidate
	units [][]rune // per literal character: the runes it matches
	// anchor is the unit searched for; picks are its forms' rarest bytes;
	// prefixes are the raw lengths the units before it can take.
	anchor   int
	picks    []anchorPick
	bytes    []byte // distinct pick bytes
	prefixes []int
	maxRaw   int // longest raw length of the literal
	// fixed, when every form of every character is one byte (printable
	// ASCII that no writer escapes, in each case when folding), holds per
	// character the bytes it may be: the literal then starts anchor bytes
	// before its anchor, and is checked byte by byte (fixedAt).
	fixed [][256]bool
}

// anchorPick is one form of the anchor: the byte searched for and its
// offset inside the form.
type anchorPick struct {
	b   byte
	off int
}

// maxPrefixes bounds how many raw lengths the units before the anchor may
// take; later units are not considered as anchors.
const maxPrefixes = 32

// newPrefilter builds the prefilter for a literal; fold makes it match any
// case form of each character.
func newPrefilter(literal string, fold bool) *prefilter {
	runes := queryRunes(literal)
	pf := &prefilter{}
	if len(runes) == 0 {
		pf.all = true
		return pf
	}
	for _, r := range runes {
		forms := []rune{r}
		if fold {
			forms = orbit(r)
		}
		if slices.Contains(forms, utf8.RuneError) {
			pf.all = true
		}
		pf.units = append(pf.units, forms)
		longest := 0
		for _, f := range forms {
			longest = max(longest, maxRawLen(f))
		}
		pf.maxRaw += longest
	}
	pf.chooseAnchor()
	pf.fixed = fixedTable(pf.units)
	return pf
}

// fixedTable returns the bytes each unit may be when all its forms are
// single bytes, or nil.
func fixedTable(units [][]rune) [][256]bool {
	table := make([][256]bool, len(units))
	for u, unit := range units {
		for _, r := range unit {
			if mayBeEscaped(r) {
				return nil
			}
			table[u][r] = true
		}
	}
	return table
}

// fixedMisses is fixedMatch's first test, made where the anchor was
// found (it inlines): the first character after the anchor's, when the
// anchor is the first, else the first, is not there and no escape starts
// there — fixedMatch is then false. The anchor's own byte is always one
// of its character's.
func (pf *prefilter) fixedMisses(d []byte, s int) bool {
	g := min(pf.anchor, 1) ^ 1
	if g >= len(pf.fixed) || s+g >= len(d) {
		return false
	}
	c := d[s+g]
	return !pf.fixed[g][c] && c != '\\'
}

// fixedMatch is literalAt for a fixed literal: its bytes are compared
// with the table, and only where the first byte that differs starts a
// \uXXXX escape — which may stand for the character — does literalAt
// decide. Up to that byte both read the same single-byte forms; a plain
// character matches exactly when its byte is in the table; the short
// escapes stand for characters no fixed literal has; and a raw form is
// never shorter than the literal.
func (pf *prefilter) fixedMatch(d []byte, s int) bool {
	if s+len(pf.fixed) > len(d) {
		return false
	}
	for u := range pf.fixed {
		if c := d[s+u]; !pf.fixed[u][c] {
			return c == '\\' && s+u+1 < len(d) && d[s+u+1] == 'u' && pf.literalAt(d, s)
		}
	}
	return true
}

// mayBeEscaped reports whether some JSON writer escapes r as \uXXXX.
func mayBeEscaped(r rune) bool {
	switch r {
	case '<', '>', '&', '\'', '/', '"', '\\':
		return true
	}
	return r < 0x20 || r >= 0x7F
}

// rawLens returns the raw lengths r can take.
func rawLens(r rune) []int {
	lens := []int{len(appendStandard(nil, r))}
	if r == '/' {
		lens = append(lens, 2) // "\/"
	}
	if mayBeEscaped(r) {
		if r > 0xFFFF {
			lens = append(lens, 12)
		} else {
			lens = append(lens, 6)
		}
	}
	return lens
}

func maxRawLen(r rune) int { return slices.Max(rawLens(r)) }

// appendStandard appends r as JSON.stringify writes it inside a string.
func appendStandard(dst []byte, r rune) []byte {
	switch r {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	if r < 0x20 {
		const hex = "0123456789abcdef"
		return append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&15])
	}
	return utf8.AppendRune(dst, r)
}

// formPicks returns the anchor picks for every form of r.
func formPicks(r rune) []anchorPick {
	var picks []anchorPick
	std := appendStandard(nil, r)
	if std[0] == '\\' {
		// A short escape: its second byte says which character it is.
		picks = append(picks, anchorPick{b: std[1], off: 1})
	} else {
		p := anchorPick{b: std[0]}
		for off, b := range std {
			if byteCost(b) < byteCost(p.b) {
				p = anchorPick{b: b, off: off}
			}
		}
		picks = append(picks, p)
	}
	if r == '/' {
		picks = append(picks, anchorPick{b: '/', off: 1})
	}
	if mayBeEscaped(r) {
		// \uXXXX in either hex case: only a digit is the same in both; with
		// no digit, the 'u'. A surrogate pair is found by either half.
		esc := []byte(escapeHex(r))
		p := anchorPick{b: 'u', off: 1}
		for off := 2; off < len(esc); off++ {
			if b := esc[off]; b >= '0' && b <= '9' && byteCost(b) < byteCost(p.b) {
				p = anchorPick{b: b, off: off}
			}
		}
		picks = append(picks, p)
	}
	return picks
}

// escapeHex is r as \uXXXX (a surrogate pair above U+FFFF), lower case.
func escapeHex(r rune) string {
	const hex = "0123456789abcdef"
	unit := func(u rune) string {
		return string([]byte{'\\', 'u', hex[u>>12&15], hex[u>>8&15], hex[u>>4&15], hex[u&15]})
	}
	if r > 0xFFFF {
		r -= 0x10000
		return unit(0xD800+(r>>10)) + unit(0xDC00+(r&0x3FF))
	}
	return unit(r)
}

// commonBytes orders printable ASCII from most to least frequent in real
// Pi session files (measured over the shared fixtures); the anchor is the
// literal's character whose bytes are rarest.
const commonBytes = "te \\ns\"oaircldm:hp.gu,0/=1()f-2{}5;xy3bC9k4v6w78TMS`RAEIP*U+WjLNB[]>FZ_q|DOz'VGH#K&QYJX$?@<!^~%"

// byteCost estimates how often b occurs in session files (higher = more).
func byteCost(b byte) int {
	if i := strings.IndexByte(commonBytes, b); i >= 0 {
		return 4 * (len(commonBytes) - i)
	}
	switch {
	case b < 0x80:
		return 1 // controls never appear raw inside a valid line
	case b < 0xC0:
		return 150 // continuation bytes of any non-ASCII text
	case b == 0xE2:
		return 200 // punctuation, box drawing, arrows
	default:
		return 100
	}
}

// chooseAnchor picks the unit whose forms are cheapest to search for,
// among the units before which the raw lengths stay few.
func (pf *prefilter) chooseAnchor() {
	bestCost := -1
	prefixes := []int{0}
	for u, unit := range pf.units {
		var picks []anchorPick
		var distinct []byte
		cost := 0
		for _, r := range unit {
			for _, p := range formPicks(r) {
				if !slices.Contains(picks, p) {
					picks = append(picks, p)
				}
				if !slices.Contains(distinct, p.b) {
					distinct = append(distinct, p.b)
					cost += byteCost(p.b)
				}
			}
		}
		if bestCost < 0 || cost < bestCost {
			bestCost = cost
			pf.anchor, pf.picks, pf.bytes, pf.prefixes = u, picks, distinct, slices.Clone(prefixes)
		}
		var next []int
		for _, p := range prefixes {
			for _, r := range unit {
				for _, l := range rawLens(r) {
					if !slices.Contains(next, p+l) {
						next = append(next, p+l)
					}
				}
			}
		}
		if len(next) > maxPrefixes {
			break
		}
		prefixes = next
	}
}

// unitAt decodes one character of a JSON string body at d[i] (any form)
// and reports its raw length when it is one of unit's runes.
func unitAt(d []byte, i int, unit []rune) (int, bool) {
	if i >= len(d) {
		return 0, false
	}
	var r rune
	n := 1
	switch c := d[i]; {
	case c == '\\':
		r, n = decodeEscape(d, i)
		if n == 1 {
			return 0, false // not an escape
		}
	case c < utf8.RuneSelf:
		r = rune(c)
	default:
		r, n = utf8.DecodeRune(d[i:])
		if r == utf8.RuneError {
			return 0, false // U+FFFD queries make every line a candidate
		}
	}
	for _, want := range unit {
		if r == want {
			return n, true
		}
	}
	return 0, false
}

// literalAt reports whether the literal, in any forms, starts at d[i].
func (pf *prefilter) literalAt(d []byte, i int) bool {
	for _, unit := range pf.units {
		n, ok := unitAt(d, i, unit)
		if !ok {
			return false
		}
		i += n
	}
	return true
}

// overlap is how many bytes a candidate can span: a window scan that
// keeps this many bytes of the previous window misses none.
func (pf *prefilter) overlap() int { return max(pf.maxRaw, 12) }

// cursor walks the candidates of one buffer in increasing order. Each
// pick byte is searched with IndexByte and its next position remembered
// until passed, so a buffer is scanned about once per pick byte whatever
// the number of lines.
type cursor struct {
	pf      *prefilter
	d       []byte
	all     bool
	next    []int // per pf.bytes: next occurrence (-1 none, -2 unknown)
	lit     int   // next verified literal start (-2 unknown, -1 none)
	litFrom int   // lit was searched from here
}

// reset points the cursor at a new buffer; all makes every position a
// candidate (a file written by an encoder that escapes everything).
func (c *cursor) reset(pf *prefilter, d []byte, all bool) {
	c.pf, c.d, c.all = pf, d, all || pf.all
	if cap(c.next) < len(pf.bytes) {
		c.next = make([]int, len(pf.bytes))
	}
	c.next = c.next[:len(pf.bytes)]
	for k := range c.next {
		c.next[k] = -2
	}
	c.lit, c.litFrom = -2, -1
}

// candidate returns the position of the first literal at or after from,
// or -1.
func (c *cursor) candidate(from int) int {
	if c.all {
		if from < len(c.d) {
			return from
		}
		return -1
	}
	if c.lit != -2 && from >= c.litFrom && (c.lit < 0 || c.lit >= from) {
		return c.lit
	}
	c.litFrom = from
	c.lit = c.findLiteral(from)
	return c.lit
}

func (c *cursor) findLiteral(from int) int {
	pf, d := c.pf, c.d
	if pf.fixed != nil && len(pf.bytes) == 1 {
		// A fixed literal with one anchor byte: no other byte to merge.
		b, a := pf.bytes[0], pf.anchor
		for i := from + a; i < len(d); {
			k := bytes.IndexByte(d[i:], b)
			if k < 0 {
				break
			}
			p := i + k
			if s := p - a; !pf.fixedMisses(d, s) && pf.fixedMatch(d, s) {
				return s
			}
			i = p + 1
		}
		return -1
	}
	anchor := pf.units[pf.anchor]
	for {
		p, which := -1, -1
		for k, b := range pf.bytes {
			if c.next[k] == -2 || (c.next[k] >= 0 && c.next[k] < from) {
				c.next[k] = indexByteFrom(d, from, b)
			}
			if n := c.next[k]; n >= 0 && (p < 0 || n < p) {
				p, which = n, k
			}
		}
		if p < 0 {
			return -1
		}
		b := pf.bytes[which]
		if pf.fixed != nil {
			// One form per byte, at the anchor's place in the literal.
			if s := p - pf.anchor; s >= from && !pf.fixedMisses(d, s) && pf.fixedMatch(d, s) {
				return s
			}
			c.next[which] = indexByteFrom(d, p+1, b)
			continue
		}
		found := -1
		for _, pick := range pf.picks {
			if pick.b != b || p-pick.off < from {
				continue
			}
			at := p - pick.off
			if _, ok := unitAt(d, at, anchor); !ok {
				continue
			}
			for _, l := range pf.prefixes {
				s := at - l
				if s >= from && (found < 0 || s < found) && pf.literalAt(d, s) {
					found = s
				}
			}
		}
		if found >= 0 {
			return found
		}
		c.next[which] = indexByteFrom(d, p+1, b)
	}
}

func indexByteFrom(d []byte, from int, b byte) int {
	if from >= len(d) {
		return -1
	}
	if i := bytes.IndexByte(d[from:], b); i >= 0 {
		return from + i
	}
	return -1
}

// escapesEverything reports whether a line (the file's first) holds a
// \uXXXX escape of a printable ASCII character that no usual encoder
// escapes: the mark of a writer that escapes everything.
func escapesEverything(line []byte) bool {
	for i := 0; ; {
		k := bytes.Index(line[i:], []byte(`\u`))
		if k < 0 {
			return false
		}
		i += k
		if u, ok := jsonv.Hex4(line, i+2); ok && !mayBeEscaped(rune(u)) {
			return true
		}
		i += 2
	}
}

// headEscapesEverything applies escapesEverything to the first line of r
// (as much of it as the first 64 KiB hold).
func headEscapesEverything(r io.ReaderAt, size int64) bool {
	head := make([]byte, min(size, 64<<10))
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	if nl := bytes.IndexByte(head, '\n'); nl >= 0 {
		head = head[:nl]
	}
	return escapesEverything(head)
}
