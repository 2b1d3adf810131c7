package turndiff

import (
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// FNV-1a 32-bit parameters (pi-forge's hashText).
const (
	fnvOffset = 0x811c9dc5
	fnvPrime  = 0x01000193
)

// unitAt decodes the UTF-16 code units of the character starting at byte
// i of s: hi is the first unit, lo the second (0 for a one-unit
// character), size the bytes consumed. A WTF-8 lone surrogate (ED A0..BF
// 80..BF, how engine/jsonv stores one) is one unit; any other invalid
// byte is one U+FFFD, as jsonv measures it.
func unitAt(s string, i int) (hi, lo uint16, size int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return uint16(c), 0, 1
	}
	switch jsonv.ValidRuneLen(s, i) {
	case 2:
		return uint16(c&0x1F)<<6 | uint16(s[i+1]&0x3F), 0, 2
	case 3:
		return uint16(c&0x0F)<<12 | uint16(s[i+1]&0x3F)<<6 | uint16(s[i+2]&0x3F), 0, 3
	case 4:
		r := (rune(c&0x07)<<18 | rune(s[i+1]&0x3F)<<12 | rune(s[i+2]&0x3F)<<6 | rune(s[i+3]&0x3F)) - 0x10000
		return 0xD800 + uint16(r>>10), 0xDC00 + uint16(r&0x3FF), 4
	}
	if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
		return 0xD000 | uint16(s[i+1]&0x3F)<<6 | uint16(s[i+2]&0x3F), 0, 3
	}
	return utf8.RuneError, 0, 1
}

// HashText is pi-forge's hashText: FNV-1a 32-bit over the UTF-16 code
// units of text, as 8 lowercase hex digits.
func HashText(text string) string {
	return newFNV().raw(text).hex()
}

// sliceUTF16 is JavaScript's s.slice(0, n): the first n UTF-16 code units.
// A character split in the middle keeps its high surrogate, stored as
// WTF-8 like engine/jsonv stores a lone surrogate.
func sliceUTF16(s string, n int) string {
	units := 0
	for i := 0; i < len(s); {
		if units >= n {
			return s[:i]
		}
		hi, lo, size := unitAt(s, i)
		if lo != 0 {
			if units+1 == n {
				return s[:i] + string([]byte{0xED, 0xA0 | byte(hi>>6)&0x3F, 0x80 | byte(hi)&0x3F})
			}
			units++
		}
		units++
		i += size
	}
	return s
}

// commonPrefixUnits is the number of leading UTF-16 code units a and b
// share (pi-forge's commonPrefixLength).
func commonPrefixUnits(a, b string) int {
	units, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < utf8.RuneSelf && a[i] == b[j] {
			units++
			i++
			j++
			continue
		}
		ahi, alo, an := unitAt(a, i)
		bhi, blo, bn := unitAt(b, j)
		if ahi != bhi {
			return units
		}
		units++
		if alo != blo {
			return units
		}
		if alo != 0 {
			units++
		}
		i += an
		j += bn
	}
	return units
}
