//go:build !race

// sync.Pool drops a quarter of what is put back under the race detector,
// so the allocation count is only meaningful without it.

package session

import "testing"

// TestParseEntryLineReusesItsScratch: parsing line after line (a search
// recording a file's tree) allocates the entry, not the member lists.
func TestParseEntryLineReusesItsScratch(t *testing.T) {
	line := []byte(`{"type":"custom_message","customType":"x","content":"text","display":true,"details":{"a":1,"b":[1,2]},"id":"3d130f91","parentId":"5e8ea1bc","timestamp":"2026-11-01T09:04:16.753Z"}`)
	if _, err := ParseEntryLine(line, 1); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseEntryLine(line, 1) }); n > 1 {
		t.Fatalf("ParseEntryLine allocates %v times per line, want 1 (the entry)", n)
	}
}
