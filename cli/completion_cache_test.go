package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
)

// The listing cache gives the answers reading every file gives: cold
// (the cache written), warm (read from it) and with no cache directory at
// all; a hostile session title cached stays off the terminal.
func TestCompletionCacheAnswersEqualUncached(t *testing.T) {
	args, layout := demoArgs(t)
	dir := session.Locations{AgentDir: layout.AgentDir}.DefaultSessionDir(layout.ProjectDir, "")
	hostile := `{"type":"session","version":3,"id":"01a23000-0000-7000-8000-00000000e5c0","timestamp":"2026-11-20T10:00:00.000Z","cwd":` + quoteJSON(layout.ProjectDir) + "}\n" +
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1795000000000}}` + "\n" +
		`{"type":"session_info","id":"n1","parentId":"u1","timestamp":"2026-11-20T10:00:02.000Z","name":"\u001b]0;owned\u0007 \u001b[31mred\u009b"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "2026-11-20T10-00-00-000Z_01a23000-0000-7000-8000-00000000e5c0.jsonl"), []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	line := "forgebench " + strings.Join(args, " ") + " "
	lines := []string{"session show ", "session show 01a21", "session show 01A", "session context 01a21c48 --leaf ",
		"session context 01a2219b-7aa3-71cb-a60b-a97d171ea8a4 --leaf ", "agents show ", "session context --leaf "}
	answers := func() [][]string {
		var out [][]string
		for _, l := range lines {
			out = append(out, completeLine(t, line+l))
		}
		return out
	}
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	uncached := answers()
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	cold := answers()
	if files, _ := filepath.Glob(filepath.Join(cache, "forgebench", "sessions-*.idx")); len(files) != 1 {
		t.Fatalf("cache files: %v", files)
	}
	warm := answers()
	for i, l := range lines {
		if !reflect.DeepEqual(cold[i], uncached[i]) || !reflect.DeepEqual(warm[i], uncached[i]) {
			t.Errorf("%q:\nuncached %q\n    cold %q\n    warm %q", l, uncached[i], cold[i], warm[i])
		}
		for _, c := range warm[i] {
			if strings.ContainsAny(c, "\x1b\x07\u009b") {
				t.Errorf("%q: a terminal control reaches the shell: %q", l, c)
			}
		}
	}
	if len(uncached[0]) != 4 || !strings.HasPrefix(uncached[0][3], "01a23000-0000-7000-8000-00000000e5c0\t") ||
		len(uncached[1]) != 2 || len(uncached[3]) == 0 || len(uncached[4]) == 0 || len(uncached[5]) == 0 || len(uncached[6]) == 0 {
		t.Fatalf("the answers compared are not the ones meant: %q", uncached)
	}
}

func quoteJSON(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
