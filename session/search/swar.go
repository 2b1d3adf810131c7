package search

import (
	"encoding/binary"
	"math/bits"
)

// Byte tests eight bytes at a time on a uint64 ("SWAR"), for the short
// scans that run once per line or window, where a call to the standard
// library's vector code costs more than the scan (an id, a JSON string)
// or where there is none (bytes.LastIndexByte is a byte loop).

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroBytes has the high bit set of v's lowest zero byte (and maybe of
// bytes above it); it is 0 when v has no zero byte.
func zeroBytes(v uint64) uint64 { return (v - lows) &^ v & highs }

// bytesBelow has the high bit set of v's lowest byte below n (n ≤ 128),
// as zeroBytes.
func bytesBelow(v uint64, n byte) uint64 { return (v - lows*uint64(n)) &^ v & highs }

// lastNewline is bytes.LastIndexByte(b, '\n').
func lastNewline(b []byte) int {
	i := len(b)
	for i >= 8 && zeroBytes(binary.LittleEndian.Uint64(b[i-8:])^(lows*'\n')) == 0 {
		i -= 8
	}
	for i > 0 {
		i--
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

// specialBytes has the high bit set of v's lowest byte that is '"', '\\'
// or a control character, as zeroBytes.
func specialBytes(v uint64) uint64 {
	return zeroBytes(v^(lows*'"')) | zeroBytes(v^(lows*'\\')) | bytesBelow(v, 0x20)
}

// plainEnd returns the index of the first '"', '\\' or control byte in b,
// or len(b).
func plainEnd(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		v := binary.LittleEndian.Uint64(b[i:])
		if m := specialBytes(v); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return len(b)
}
