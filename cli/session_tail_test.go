package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgebench/forgebench/session"
)

// lockedBuffer is a bytes.Buffer a running command writes while the test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor polls until cond holds (a tail runs in its own goroutine).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSessionTailPrintsTheLastEntriesThenFollows: `session tail FILE -n N`
// prints the last N entries at once (10 by default), then each entry
// appended to the growing file, as tail -f does.
func TestSessionTailPrintsTheLastEntriesThenFollows(t *testing.T) {
	_, layout := demoArgs(t)
	file := mainSession(t, layout)
	s, err := session.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(s.Entries))
	for i := range s.Entries {
		ids = append(ids, s.Entries[i].ID)
	}
	for _, c := range []struct {
		argv []string
		n    int
	}{{nil, 10}, {[]string{"-n", "3"}, 3}, {[]string{"-n", "0"}, 0}} {
		ctx, cancel := context.WithCancel(context.Background())
		tailContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
		var out, errOut lockedBuffer
		done := make(chan int)
		go func() {
			done <- Run(append([]string{"--cwd", layout.ProjectDir, "--agent-dir", layout.AgentDir, "--forge-dir", layout.ForgeDir, "session", "tail", file}, c.argv...), &out, &errOut)
		}()
		waitFor(t, "the tail to start", func() bool { return strings.Contains(errOut.String(), "following") })
		lines := func() []string { return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") }
		if c.n > 0 {
			waitFor(t, "the last entries", func() bool { return len(lines()) >= c.n })
		}
		got := lines()
		if c.n == 0 && out.String() != "" {
			t.Errorf("-n 0 printed existing entries: %q", out.String())
		}
		if c.n > 0 {
			if len(got) != c.n {
				t.Fatalf("%v: %d lines, want the last %d:\n%s", c.argv, len(got), c.n, out.String())
			}
			for k, line := range got {
				if want := ids[len(ids)-c.n+k]; !strings.Contains(line, " "+want+" ") {
					t.Errorf("%v: line %d is %q, want entry %s", c.argv, k, line, want)
				}
			}
		}
		// The file grows: the new entry follows.
		newID := "fee1" + string(rune('0'+c.n%10)) + "bad"
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(`{"type":"label","id":"` + newID + `","parentId":"` + ids[len(ids)-1] + `","timestamp":"2026-12-01T00:00:00.000Z","targetId":"` + ids[len(ids)-1] + `","label":"l"}` + "\n")
		f.Close()
		ids = append(ids, newID)
		waitFor(t, "the appended entry", func() bool { return strings.Contains(out.String(), newID) })
		cancel()
		if code := <-done; code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
	}
}
