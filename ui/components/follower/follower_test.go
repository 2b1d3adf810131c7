package follower

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/forgebench/forgebench/session"
)

// run runs a command with a deadline (a wait blocks until an event).
func run[T any](t *testing.T, cmd func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- cmd() }()
	select {
	case v := <-done:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("no message within 10 s")
	}
	var zero T
	return zero
}

// A follower tails a growing file: its lines arrive with what Prepare made
// of them, and after Stop its events are no longer current.
func TestFollowerDeliversNewLines(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(file, []byte("{\"a\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := New("test")
	f.Prepare(func(ev session.TailEvent) any { return len(ev.Lines) })
	start := f.Start(file, 8, session.TailOptions{})
	if f.File() != file || f.Running() {
		t.Fatal("a starting follower names its file and runs once started")
	}
	started := run(t, start).(StartedMsg)
	mine, current, wait, err := f.Started(started)
	if !mine || !current || err != nil || wait == nil || !f.Running() {
		t.Fatalf("started: mine %v current %v err %v", mine, current, err)
	}
	t.Cleanup(f.Stop)
	w, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString("{\"b\":2}\n"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var ev EventMsg
	for {
		ev = run(t, wait).(EventMsg)
		if !f.Current(ev) || !ev.OK {
			t.Fatalf("event: current %v ok %v", f.Current(ev), ev.OK)
		}
		if ev.Event.Kind == session.TailLines {
			break
		}
		wait = f.Wait()
	}
	if ev.Data != 1 || string(ev.Event.Lines[0].Data) != `{"b":2}` {
		t.Fatalf("lines %v, prepared %v", ev.Event.Lines, ev.Data)
	}
	f.Stop()
	if f.Current(ev) || f.Running() || f.File() != "" {
		t.Fatal("a stopped follower still takes its events")
	}
}

// A tail that arrives after its follower let go is cancelled; another
// follower's is left alone; a tail that could not start is an error.
func TestStartedSortsTails(t *testing.T) {
	f := New("a")
	_ = f.Start("/nonexistent", 0, session.TailOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	other := StartedMsg{Owner: "b", Gen: f.Gen(), Cancel: cancel}
	if mine, _, _, _ := f.Started(other); mine || ctx.Err() != nil {
		t.Fatal("another follower's tail was taken or cancelled")
	}
	stale := StartedMsg{Owner: "a", Gen: f.Gen() - 1, Cancel: cancel}
	if mine, current, _, _ := f.Started(stale); !mine || current || ctx.Err() == nil {
		t.Fatal("an older tail of this follower was not cancelled")
	}
	failed := run(t, f.Start(filepath.Join(t.TempDir(), "missing", "s.jsonl"), 0, session.TailOptions{})).(StartedMsg)
	if _, current, _, err := f.Started(failed); !current || err == nil || f.File() != "" {
		t.Fatalf("a tail that could not start: current %v err %v file %q", current, err, f.File())
	}
}
