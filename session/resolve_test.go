package session

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveSession(t *testing.T) {
	loc := Locations{AgentDir: filepath.Join(discoverData, "agent"), SessionDir: filepath.Join(discoverData, "custom")}
	projA := filepath.Join(discoverData, "agent/sessions/--home-u-proj--/2026-11-01T10-00-00-000Z_01a2297e-0000-7000-8000-00000000000a.jsonl")
	other := filepath.Join(discoverData, "agent/sessions/--home-u-other--/2026-10-01T00-00-00-000Z_01a2297e-0000-7000-8000-00000000000d.jsonl")
	cases := []struct {
		arg, want string
		err       error
	}{
		{projA, projA, nil},
		{"01a2297e-0000-7000-8000-00000000000a", projA, nil},
		{"01A2297E-0000-7000-8000-00000000000A", projA, nil},
		// Only the other project has ...0d: found in the every-project scope.
		{"01a2297e-0000-7000-8000-00000000000d", other, nil},
		{"01a2297e-0000-7000-8000-0000000000", "", ErrAmbiguousSession},
		{"ffff", "", ErrNoSuchSession},
		{"missing/file.jsonl", "", ErrNoSuchSession},
		{"", "", ErrNoSuchSession},
	}
	for _, c := range cases {
		got, err := ResolveSession(loc, "/home/u/proj", "/home/u", c.arg)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%q: err %v, want %v", c.arg, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.arg, got, err, c.want)
		}
	}
	// The tree's own session (…c1) lives inside a .subagents directory and
	// is never resolved by id.
	if _, err := ResolveSession(loc, "/home/u/proj", "/home/u", "01a2297e-0000-7000-8000-0000000000c1"); !errors.Is(err, ErrNoSuchSession) {
		t.Errorf("agent session resolved by id: %v", err)
	}
	_, err := ResolveSession(loc, "/home/u/proj", "/home/u", "01a2297e-0000-7000-8000-0000000000")
	if err == nil || !strings.Contains(err.Error(), "sessions match") {
		t.Errorf("ambiguity does not list the matches: %v", err)
	}
}

// TestResolveAmbiguityNamesCandidates: an ambiguous prefix lists each
// candidate on a line of its own with its id, time and title (the name a
// user knows it by), never the paths on one line.
func TestResolveAmbiguityNamesCandidates(t *testing.T) {
	loc := Locations{AgentDir: filepath.Join(discoverData, "agent"), SessionDir: filepath.Join(discoverData, "custom")}
	_, err := ResolveSession(loc, "/home/u/proj", "/home/u", "01a2297e-0000-7000-8000-0000000000")
	var amb *AmbiguousSessionError
	if !errors.As(err, &amb) || len(amb.Matches) < 2 {
		t.Fatalf("want an *AmbiguousSessionError with the matches, got %v", err)
	}
	msg := err.Error()
	lines := strings.Split(msg, "\n")
	if len(lines) != len(amb.Matches)+1 {
		t.Fatalf("want one line per candidate under the summary:\n%s", msg)
	}
	for i, m := range amb.Matches {
		line := lines[i+1]
		if strings.Contains(line, ".jsonl") || !strings.Contains(line, m.ID) || !strings.Contains(line, m.Title()) ||
			!strings.Contains(line, m.LastActivity.Local().Format("2006-01-02 15:04")) {
			t.Errorf("candidate line %q does not show id, time and title of %s", line, m.Path)
		}
	}
}
