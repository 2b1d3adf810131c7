package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	gen "github.com/forgebench/forgebench/internal/sessiongen"
	"github.com/forgebench/forgebench/session"
)

type pingMsg int

// guardCmd keeps what a command returns and guards every command of a
// batch it returns.
func TestGuardCmdPassesMessagesAndGuardsBatches(t *testing.T) {
	if guardCmd(nil) != nil {
		t.Fatal("a nil command must stay nil")
	}
	msg := guardCmd(func() tea.Msg { return pingMsg(1) })()
	if msg != pingMsg(1) {
		t.Fatalf("got %v", msg)
	}
	batch, ok := guardCmd(tea.Batch(func() tea.Msg { return pingMsg(2) }, func() tea.Msg { return pingMsg(3) }))().(tea.BatchMsg)
	if !ok || len(batch) != 2 || batch[0]() != pingMsg(2) || batch[1]() != pingMsg(3) {
		t.Fatalf("batch not passed through: %v", batch)
	}
}

// A command that reads a mapped session file another process truncated
// ends in a footer message, not a crash.
func TestTruncatedSessionInACommandIsAStatusNotACrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{TargetBytes: 3 << 20, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	touch := func() tea.Msg {
		sum := 0
		for i := range s.Entries {
			for _, c := range s.Entries[i].Raw {
				sum += int(c)
			}
		}
		return pingMsg(sum)
	}
	// The file watch may heal the mapping first (the bytes then read as
	// zeros); either way nothing crashes, and a fault becomes the message.
	msg := guardCmd(touch)()
	if fc, ok := msg.(fileChangedMsg); ok {
		if !errors.Is(fc.err, session.ErrFileChanged) {
			t.Fatalf("fault message carries %v", fc.err)
		}
		m := New(Options{})
		m.Update(fc)
		if !strings.Contains(m.status.Text(), "truncated") {
			t.Errorf("footer status %q", m.status.Text())
		}
	} else if msg != pingMsg(0) {
		t.Fatalf("got %v, want the fault or zeros", msg)
	}
	if msg := guardCmd(touch)(); msg != pingMsg(0) {
		t.Fatalf("after healing: %v", msg)
	}
}
