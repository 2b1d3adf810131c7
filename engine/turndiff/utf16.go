package turndiff

import "unicode/utf8"

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
	if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
		return 0xD000 | uint16(s[i+1]&0x3F)<<6 | uint16(s[i+2]&0x3F), 0, 3
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r >= 0x10000 {
		r -= 0x10000
		return 0xD800 + uint16(r>>10), 0xDC00 + uint16(r&0x3FF), n
	}
	return uint16(r), 0, n
}

// HashText is pi-forge's hashText: FNV-1a 32-bit over the UTF-16 code
// units of text, as 8 lowercase hex digits.
func HashText(text string) string {
	return fnvUTF16(text)
}

// hashBytes is HashText of UTF-8 bytes.
func hashBytes(b []byte) string {
	return fnvUTF16(b)
}

func fnvUTF16[T string | []byte](text T) string {
	h := uint32(fnvOffset)
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			h = (h ^ uint32(c)) * fnvPrime
			i++
			continue
		}
		hi, lo, n := unitAt(string(text[i:min(i+4, len(text))]), 0)
		h = (h ^ uint32(hi)) * fnvPrime
		if lo != 0 {
			h = (h ^ uint32(lo)) * fnvPrime
		}
		i += n
	}
	const hexDigits = "0123456789abcdef"
	var out [8]byte
	for k := 7; k >= 0; k-- {
		out[k] = hexDigits[h&0xF]
		h >>= 4
	}
	return string(out[:])
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
