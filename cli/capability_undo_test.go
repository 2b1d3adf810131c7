package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
)

// TestImmediateUndoNeedsNoForce: forgebench's own append does not make the
// session "in use" for its next command (issue 23): enable then at once
// disable works without --force. A write by anything else right after is
// still refused (exit 4).
func TestImmediateUndoNeedsNoForce(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	if code, out, errOut := runCLI(t, in(args, "capability", "enable", "review-mode", "--session", file)...); code != exitOK {
		t.Fatalf("enable: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, in(args, "capability", "disable", "review-mode", "--session", file)...)
	if code != exitOK || strings.Contains(errOut, "in use") {
		t.Fatalf("the immediate undo: exit %d %s %s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, in(args, "capability", "enable", "review-mode", "--session", file)...); code != exitOK {
		t.Fatalf("enable again: exit %d %s", code, errOut)
	}
	// Pi (or anything) appends a line of its own: the window applies again.
	s, err := session.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := s.Leaf()
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"label","id":"0000bbb1","parentId":"` + leaf.ID + `","timestamp":"2026-12-01T00:00:00.000Z","targetId":"` + leaf.ID + `","label":"l"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	size := fileSize(t, file)
	code, _, errOut = runCLI(t, in(args, "capability", "disable", "review-mode", "--session", file)...)
	if code != exitRefused || !strings.Contains(errOut, "in use") {
		t.Fatalf("a foreign write a moment ago: exit %d %s, want %d", code, errOut, exitRefused)
	}
	if fileSize(t, file) != size {
		t.Fatal("the refused undo wrote")
	}
}
