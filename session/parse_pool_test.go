package session

import (
	"fmt"
	"sync"
	"testing"
)

// TestParseEntryLineKeepsNothingOfItsScratch: an entry ParseEntryLine
// returned stays as it was while other lines — some with more members,
// which grow the lent lists — are parsed after it, on other goroutines too
// (run with -race).
func TestParseEntryLineKeepsNothingOfItsScratch(t *testing.T) {
	line := []byte(`{"type":"message","id":"a1b2c3d4","parentId":"e5f6a7b8","timestamp":"2026-11-01T09:04:16.753Z","message":{"role":"assistant","provider":"p","model":"m","usage":{"input":1}}}`)
	e, err := ParseEntryLine(line, 7)
	if err != nil {
		t.Fatal(err)
	}
	check := func() {
		t.Helper()
		if e.Type != TypeMessage || e.ID != "a1b2c3d4" || e.ParentID != "e5f6a7b8" || e.Role != RoleAssistant || e.Line != 7 {
			t.Fatalf("entry changed: %+v", e)
		}
		if got := string(e.MessageField("model")); got != `"m"` {
			t.Fatalf("message model = %s, want \"m\"", got)
		}
		if got := string(e.UsageRaw()); got != `{"input":1}` {
			t.Fatalf("usage = %s", got)
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				other := fmt.Sprintf(`{"z%d":1,"y":2,"x":3,"w":4,"type":"message","id":"x%07d","message":{"role":"user","q":1,"r":2,"usage":{"output":%d}}}`, g, i, i)
				if _, err := ParseEntryLine([]byte(other), i); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	check()
}
