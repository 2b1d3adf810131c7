package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// nestedBranches writes a session whose conversation branches depth times,
// each branch point leaving a one-entry side branch behind.
func nestedBranches(t *testing.T, depth int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"nest","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w"}` + "\n")
	entry := func(id, parent string, sec int) {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-11-20T%02d:%02d:%02d.000Z","message":{"role":"user","content":"turn %s"}}`+"\n",
			id, p, 10+sec/3600, sec/60%60, sec%60, id)
	}
	entry("m0", "", 0)
	for d := 1; d <= depth; d++ {
		parent := fmt.Sprintf("m%d", d-1)
		entry(fmt.Sprintf("s%d", d), parent, 2*d-1) // the older child: a side branch
		entry(fmt.Sprintf("m%d", d), parent, 2*d)   // the newer child goes on
	}
	path := filepath.Join(t.TempDir(), "nested.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSessionTreeIndentStaysBounded: every branch point indents its
// children, so a session that branches again and again drew lines whose
// indent grew with every branch (a 100 MB session printed 327 MB, most of
// it spaces). Past treeIndentLevels levels a line shows how many levels
// are hidden and the innermost ones.
func TestSessionTreeIndentStaysBounded(t *testing.T) {
	const depth = 40
	code, out, errOut := runCLI(t, "session", "tree", nestedBranches(t, depth))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2*depth+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), 2*depth+1, out)
	}
	widest := 0
	for _, l := range lines {
		widest = max(widest, utf8.RuneCountInString(l))
	}
	if limit := 3*treeIndentLevels + 8 + 60; widest > limit {
		t.Errorf("the widest line has %d columns, want at most %d:\n%s", widest, limit, out)
	}
	// m40 sits below 40 branch points: 40 levels, the outer ones hidden.
	last := lines[len(lines)-1]
	want := fmt.Sprintf("⋯%d ", depth-treeIndentLevels) + strings.Repeat("   ", treeIndentLevels-1) + "└─ ● m40"
	if !strings.HasPrefix(last, want) {
		t.Errorf("deepest line\n%q\nwant it to start with\n%q", last, want)
	}
	// A shallow line is drawn as before.
	if !strings.HasPrefix(lines[1], "├─ * s1") && !strings.HasPrefix(lines[1], "├─ · s1") {
		t.Errorf("first side branch: %q", lines[1])
	}
}
