package session

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// NewSessionID returns a new session id as Pi 1.6.0 makes one (pi-ai's
// uuidv7): a UUIDv7 whose first 48 bits are now in Unix milliseconds, then
// the version 7, 74 random bits around the RFC 9562 variant. (Pi fills the
// random part from a counter seeded at random per process; one id per
// process, as here, is the seed itself.) Hand-written rather than a UUID
// library because it is twelve lines and must take the caller's clock.
func NewSessionID(now time.Time) string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported systems
	ms := uint64(now.UnixMilli())
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	b[6] = 0x70 | b[6]&0x0f
	b[8] = 0x80 | b[8]&0x3f
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
