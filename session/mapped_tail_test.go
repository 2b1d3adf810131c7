package session

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// nextTailEvent waits for one event of a tail, failing after a while.
func nextTailEvent(t *testing.T, ch <-chan TailEvent) TailEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("tail closed")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no tail event within 10 s")
	}
	return TailEvent{}
}

// A session opened through a mapping is followed live as before: lines
// appended after the open reach the tail, the mapped entries keep their
// bytes, and a truncation resets the tail while the open session reads
// zeros (healed by the watch or the guard), never a crash.
func TestLiveTailOfAMappedSession(t *testing.T) {
	mapsFiles(t)
	path, _ := writeGenerated(t, t.TempDir(), 2<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if mappingOf(s) == nil {
		t.Fatal("not mapped")
	}
	first := bytes.Clone(s.Entries[0].Raw)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := TailWithOptions(ctx, path, s.Size, TailOptions{FallbackPoll: 10 * time.Millisecond, SafetyPoll: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}

	line := `{"type":"custom","customType":"probe","id":"appended","parentId":null,"timestamp":"2027-01-01T00:00:00.000Z"}`
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
	must(t, f.Close())
	ev := nextTailEvent(t, ch)
	if ev.Kind != TailLines || len(ev.Lines) != 1 || string(ev.Lines[0].Data) != line || ev.Lines[0].Offset != s.Size {
		t.Fatalf("after an append: %+v", ev)
	}
	if !bytes.Equal(s.Entries[0].Raw, first) {
		t.Fatal("an append changed the mapped bytes")
	}

	must(t, os.Truncate(path, 0))
	if ev := nextTailEvent(t, ch); ev.Kind != TailReset {
		t.Fatalf("after a truncation: %+v, want a reset", ev)
	}
	err = GuardFaults(func() error { sink = touchAll(s); return nil })
	if err != nil && !errors.Is(err, ErrFileChanged) {
		t.Fatalf("reading the open session after the truncation: %v", err)
	}
	if last := s.Entries[len(s.Entries)-1].Raw; !bytes.Equal(last, make([]byte, len(last))) {
		t.Errorf("bytes past the new end read %q…, want zeros", last[:min(20, len(last))])
	}
}
