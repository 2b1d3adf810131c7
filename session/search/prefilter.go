package search

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// prefilter finds the lines of raw JSONL that may hold a match without
// decoding them. A line is a candidate when it holds
//
//   - the literal as JSON.stringify writes it: each character verbatim in
//     UTF-8, or as its standard escape (\" \\ \b \f \n \r \t, \u00xx for
//     other controls); ignoring case, any character of its folding orbit in
//     that form; or
//   - an escape that is not the standard form of its character but stands
//     for one of the literal's characters: \/ when the literal has a '/',
//     and \uXXXX (any hex case) for a character of the literal, or the high
//     surrogate of an astral one (files written by other JSON encoders).
//
// Every line holding a decoded match holds one of these (the raw bytes of
// a matched text are the concatenation of each character's form), so the
// prefilter never drops a match; lines it lets through are decoded and
// matched exactly. A literal containing U+FFFD (which ill-formed UTF-8 and
// lone surrogates decode to) makes every line a candidate.
type prefilter struct {
	all   bool       // every line is a candidate
	units [][][]byte // per literal rune: its raw forms (prefix-free)
	// anchor is the unit whose bytes are searched with IndexByte; the
	// units before it all have one raw length, so a hit on an anchor byte
	// fixes where the literal would start.
	anchor    int
	prefixLen int
	picks     []anchorPick
	bytes     []byte          // distinct anchor byte values
	escUnits  map[uint16]bool // UTF-16 code units whose \u escape is a candidate
	slash     bool            // "\/" is a candidate
	maxRaw    int             // longest raw length of the literal
}

// anchorPick is one raw form of the anchor unit: the byte searched for and
// its offset inside the form.
type anchorPick struct {
	b   byte
	off int
}

// newPrefilter builds the prefilter for a literal; fold makes it match any
// case form of each character.
func newPrefilter(literal string, fold bool) *prefilter {
	runes := queryRunes(literal)
	pf := &prefilter{escUnits: map[uint16]bool{}}
	if len(runes) == 0 {
		pf.all = true
		return pf
	}
	for _, r := range runes {
		forms := []rune{r}
		if fold {
			forms = orbit(r)
		}
		var unit [][]byte
		longest := 0
		for _, f := range forms {
			if f == utf8.RuneError {
				pf.all = true
			}
			enc := appendStandard(nil, f)
			unit = appendUnique(unit, enc)
			longest = max(longest, len(enc))
			if f == '/' {
				pf.slash = true
			}
			if f > 0xFFFF {
				pf.escUnits[uint16(0xD800+((f-0x10000)>>10))] = true
			} else {
				pf.escUnits[uint16(f)] = true
			}
		}
		pf.units = append(pf.units, unit)
		pf.maxRaw += longest
	}
	pf.chooseAnchor()
	return pf
}

func appendUnique(list [][]byte, b []byte) [][]byte {
	for _, x := range list {
		if bytes.Equal(x, b) {
			return list
		}
	}
	return append(list, b)
}

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

// chooseAnchor picks the unit whose raw forms are cheapest to search for,
// among the units that only fixed-length units precede.
func (pf *prefilter) chooseAnchor() {
	bestCost := -1
	prefix := 0
	for u, unit := range pf.units {
		var picks []anchorPick
		var distinct []byte
		cost := 0
		for _, form := range unit {
			p := anchorPick{b: form[0]}
			for off, b := range form {
				if byteCost(b) < byteCost(p.b) {
					p = anchorPick{b: b, off: off}
				}
			}
			picks = append(picks, p)
			if bytes.IndexByte(distinct, p.b) < 0 {
				distinct = append(distinct, p.b)
				cost += byteCost(p.b)
			}
		}
		if bestCost < 0 || cost < bestCost {
			bestCost = cost
			pf.anchor, pf.prefixLen, pf.picks, pf.bytes = u, prefix, picks, distinct
		}
		fixed := true
		for _, form := range unit[1:] {
			fixed = fixed && len(form) == len(unit[0])
		}
		if !fixed {
			break
		}
		prefix += len(unit[0])
	}
}

// literalAt reports whether the literal's raw form starts at d[i].
func (pf *prefilter) literalAt(d []byte, i int) bool {
	for _, unit := range pf.units {
		matched := false
		for _, form := range unit {
			// Forms are prefix-free, so at most one can match here.
			if len(d)-i >= len(form) && string(d[i:i+len(form)]) == string(form) {
				i += len(form)
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	return true
}

// overlap is how many bytes a candidate can span: a window scan that
// keeps this many bytes of the previous window misses none.
func (pf *prefilter) overlap() int { return max(pf.maxRaw, 12) }

// cursor walks the candidates of one buffer in increasing order. Each
// kind of candidate is searched once and remembered until passed, so a
// buffer is scanned about once per anchor byte whatever the number of
// lines.
type cursor struct {
	pf        *prefilter
	d         []byte
	next      []int // per pf.bytes: next occurrence (-1 none, -2 unknown)
	lit       int   // next verified literal start (-2 unknown, -1 none)
	litFrom   int   // lit is valid for searches from at most here
	esc, sl   int   // next candidate escape, next "\/"
	escFrom   int
	slashFrom int
}

func (c *cursor) reset(pf *prefilter, d []byte) {
	c.pf, c.d = pf, d
	if cap(c.next) < len(pf.bytes) {
		c.next = make([]int, len(pf.bytes))
	}
	c.next = c.next[:len(pf.bytes)]
	for k := range c.next {
		c.next[k] = -2
	}
	c.lit, c.esc, c.sl = -2, -2, -2
	c.litFrom, c.escFrom, c.slashFrom = -1, -1, -1
}

// candidate returns the position of the first candidate at or after
// from, or -1. Positions are where the literal or the escape starts.
func (c *cursor) candidate(from int) int {
	if c.pf.all {
		if from < len(c.d) {
			return from
		}
		return -1
	}
	best := c.literal(from)
	if e := c.escape(from); e >= 0 && (best < 0 || e < best) {
		best = e
	}
	if c.pf.slash {
		if s := c.slashEscape(from); s >= 0 && (best < 0 || s < best) {
			best = s
		}
	}
	return best
}

// literal returns the first start >= from of the literal's raw form.
func (c *cursor) literal(from int) int {
	if c.lit != -2 && from >= c.litFrom && (c.lit < 0 || c.lit >= from) {
		return c.lit
	}
	c.litFrom = from
	c.lit = c.findLiteral(from)
	return c.lit
}

func (c *cursor) findLiteral(from int) int {
	pf, d := c.pf, c.d
	lo := from + pf.prefixLen // the anchor cannot sit before this
	for {
		p, which := -1, -1
		for k, b := range pf.bytes {
			if c.next[k] == -2 || (c.next[k] >= 0 && c.next[k] < lo) {
				c.next[k] = indexByteFrom(d, lo, b)
			}
			if n := c.next[k]; n >= 0 && (p < 0 || n < p) {
				p, which = n, k
			}
		}
		if p < 0 {
			return -1
		}
		b := pf.bytes[which]
		found := -1
		for _, pick := range pf.picks {
			if pick.b != b {
				continue
			}
			s := p - pick.off - pf.prefixLen
			if s >= from && (found < 0 || s < found) && pf.literalAt(d, s) {
				found = s
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

var escU = []byte(`\u`)
var escSlash = []byte(`\/`)

// escape returns the first \uXXXX at or after from whose code unit is one
// of the literal's characters.
func (c *cursor) escape(from int) int {
	if c.esc != -2 && from >= c.escFrom && (c.esc < 0 || c.esc >= from) {
		return c.esc
	}
	c.escFrom = from
	d := c.d
	for i := from; i < len(d); {
		k := bytes.Index(d[i:], escU)
		if k < 0 {
			break
		}
		i += k
		if u, ok := hex4(d, i+2); ok && c.pf.escUnits[uint16(u)] {
			c.esc = i
			return i
		}
		i += 2
	}
	c.esc = -1
	return -1
}

func (c *cursor) slashEscape(from int) int {
	if c.sl != -2 && from >= c.slashFrom && (c.sl < 0 || c.sl >= from) {
		return c.sl
	}
	c.slashFrom = from
	c.sl = -1
	if from < len(c.d) {
		if k := bytes.Index(c.d[from:], escSlash); k >= 0 {
			c.sl = from + k
		}
	}
	return c.sl
}

// hex4 reads four hex digits at d[i:].
func hex4(d []byte, i int) (uint32, bool) {
	if i < 0 || i+4 > len(d) {
		return 0, false
	}
	var u uint32
	for _, c := range d[i : i+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		u = u<<4 | uint32(v)
	}
	return u, true
}
