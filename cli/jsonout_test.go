package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/test/hostile"
)

// formatChars is text with a character of each kind the JSON writer
// escapes beyond the hostile corpus's C1 and bidi controls: soft hyphen,
// zero-width space and joiner, word joiner, BOM, an Arabic number sign,
// an interlinear annotation, tag characters (astral), U+2029, and an
// 8-bit CSI with a right-to-left override for good measure.
const formatChars = "shy\u00adzw\u200bzwj\u200dwj\u2060bom\ufeffnum\u0600ann\ufff9tag\U000e0041\U000e007fpara\u2029csi\u009b31mrlo\u202eend"

// stageFormatSession writes a session whose name, message texts and a
// label carry formatChars.
func stageFormatSession(t *testing.T, st hostile.Staged) string {
	t.Helper()
	q := jsonv.Quote(formatChars)
	lines := []string{
		`{"type":"session","version":3,"id":"format-chars","timestamp":"2026-03-02T10:00:00.000Z","cwd":"/hostile"}`,
		`{"type":"session_info","id":"n1","parentId":null,"timestamp":"2026-03-02T10:00:01.000Z","name":` + q + `}`,
		`{"type":"message","id":"u1","parentId":"n1","timestamp":"2026-03-02T10:00:02.000Z","message":{"role":"user","content":` + q + `,"timestamp":1772445602000}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-02T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":` + q + `}],"provider":"p","model":"m","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1772445603000}}`,
		`{"type":"label","id":"l1","parentId":"a1","timestamp":"2026-03-02T10:00:04.000Z","targetId":"u1","label":` + q + `}`,
	}
	path := filepath.Join(st.SessionsDir, "format-chars.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// teeJSON is the one JSON writer that also keeps the bytes the command
// wrote before escaping, to compare the values with (one run: outputs
// holding the time stay comparable).
type teeJSON struct {
	raw *bytes.Buffer
	jw  *sanitize.JSONWriter
}

func (t teeJSON) Write(p []byte) (int, error) {
	t.raw.Write(p)
	return t.jw.Write(p)
}

func (t teeJSON) Flush() error { return t.jw.Flush() }

// runTeeJSON runs the CLI and returns, besides its results, what the
// command wrote before the JSON writer escaped it.
func runTeeJSON(t *testing.T, args ...string) (code int, out, errOut, raw string) {
	t.Helper()
	var rawBuf bytes.Buffer
	saved := newJSONWriter
	newJSONWriter = func(w io.Writer) jsonWriter { return teeJSON{&rawBuf, sanitize.NewJSONWriter(w)} }
	defer func() { newJSONWriter = saved }()
	code, out, errOut = runWithin(t, args...)
	return code, out, errOut, rawBuf.String()
}

// unsafeRune returns the first character of s the JSON writer must have
// escaped (or a carriage return, or an invalid byte), ok false when there
// is none.
func unsafeRune(s string) (rune, int, bool) {
	for i, r := range s {
		if r == '\r' || sanitize.EscapesInJSON(r) {
			return r, i, true
		}
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\ufffd") {
			return r, i, true // an invalid byte, not U+FFFD itself
		}
	}
	return 0, 0, false
}

// sameJSONValues compares two outputs as JSON values: one document, or
// line by line (JSONL; a line that is not JSON must be equal as text).
func sameJSONValues(raw, escaped string) (bool, string) {
	value := func(s string) (string, bool) {
		v, err := jsonv.Parse([]byte(s))
		if err != nil {
			return "", false
		}
		return jsonv.Stringify(v), true
	}
	if a, ok := value(raw); ok {
		b, ok := value(escaped)
		return ok && a == b, "document"
	}
	rl, el := strings.Split(raw, "\n"), strings.Split(escaped, "\n")
	if len(rl) != len(el) {
		return false, "line count"
	}
	for i := range rl {
		a, aok := value(rl[i])
		b, bok := value(el[i])
		if aok != bok || aok && a != b || !aok && rl[i] != el[i] {
			return false, "line " + rl[i]
		}
	}
	return true, ""
}

// checkJSONCommand runs one command and checks that its output carries
// nothing raw that the JSON writer escapes and that it holds the same
// values as the bytes the command wrote. It reports whether those bytes
// had something to escape.
func checkJSONCommand(t *testing.T, args []string, what string) bool {
	t.Helper()
	code, out, errOut, raw := runTeeJSON(t, args...)
	if code > exitFailed {
		t.Errorf("%s: exit %d: %s", what, code, errOut)
		return false
	}
	if out == "" {
		t.Errorf("%s: no output", what)
		return false
	}
	if r, at, bad := unsafeRune(out); bad {
		lo, hi := max(0, at-40), min(len(out), at+40)
		t.Errorf("%s: raw %U at byte %d: %q", what, r, at, out[lo:hi])
	}
	hostile.AssertClean(t, what+" (stderr)", errOut)
	if ok, where := sameJSONValues(raw, out); !ok {
		t.Errorf("%s: the escaped output holds other values (%s)", what, where)
	}
	_, _, had := unsafeRune(raw)
	return had
}

// Issue 20 item 7: every command that prints JSON, run over the hostile
// corpus (and a session of format characters), writes no raw control or
// format character and the same JSON values as before the writer. The
// commands the issue names must have had something to escape, so the
// test would fail without the writer.
func TestEveryJSONOutputIsTerminalSafe(t *testing.T) {
	st, g := hostileArgs(t)
	in := func(cmd ...string) []string { return append(append([]string{}, g...), cmd...) }
	sessions := []string{stageFormatSession(t, st), st.Sessions["raw-c1-bidi.jsonl"], st.Sessions["escapes.jsonl"]}
	dir := t.TempDir()
	request := filepath.Join(dir, "request.json")
	if err := os.WriteFile(request, []byte(`{"template":"A\u202eB\u009b\u200b","env":{"runtime":{},"parameters":{},"extensions":{}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmds := [][]string{
		in("session", "list", "--all", "--json"),
		in("preset", "list", "--json"), in("preset", "show", "osc52", "--json"), in("preset", "validate", "--all", "--json"),
		in("preset", "compile", "osc52", "--json"), in("preset", "preview", "osc52", "--json"),
		in("capability", "list", "--json"), in("capability", "show", "esc-cap", "--json"),
		in("capability", "validate", "--json"), in("capability", "bindings", "osc52", "--json"),
		in("profile", "list", "--json"), in("profile", "show", "esc-profile", "--json"),
		in("profile", "validate", "--json"), in("profile", "preview", "esc-profile", "--json"),
		in("agents", "roles", "--json"), in("agents", "config", "--json"),
		in("search", "raw", "--all-projects", "--json"), in("search", "zw", "--all-projects", "--json"),
		{"template", "render", "--request", request},
		{"fingerprint", "--canonical", request},
	}
	for _, f := range sessions {
		cmds = append(cmds,
			in("session", "show", f, "--json"), in("session", "tree", f, "--json"),
			in("session", "context", f, "--json"), in("session", "stats", f, "--json"),
			in("session", "context", f, "--as-sent", "--json"),
			in("session", "export", f, "--format", "json"),
			in("preset", "list", "--session", f, "--json"), in("preset", "compile", "osc52", "--session", f, "--json"),
			in("capability", "status", "--session", f, "--json"), in("profile", "status", "--session", f, "--json"),
			in("payload", "show", "session:"+f, "--json"),
			in("payload", "diff", "session:"+f, "preset:osc52@"+f, "--json"),
		)
	}
	hadRaw := map[string]bool{}
	for _, cmd := range cmds {
		what := strings.Join(cmd, " ")
		if cmd[0] == g[0] {
			what = strings.Join(cmd[len(g):], " ")
		}
		if checkJSONCommand(t, cmd, what) {
			// "session show", "preset show", … : the command without its arguments
			name := cmd[len(cmd)-1]
			for i, a := range cmd {
				if a == "session" || a == "preset" || a == "payload" || a == "template" || a == "fingerprint" || a == "capability" || a == "profile" {
					name = a
					if i+1 < len(cmd) {
						name += " " + cmd[i+1]
					}
					break
				}
			}
			hadRaw[name] = true
		}
	}
	for _, must := range []string{"session show", "session context", "session tree", "session export", "payload show",
		"preset show", "template render", "fingerprint --canonical"} {
		if !hadRaw[must] {
			t.Errorf("%s printed nothing to escape over the hostile corpus: the test proves nothing there", must)
		}
	}
}

// agents list and show over a pi-subagent tree whose task and mailbox
// texts carry control and format characters.
func TestAgentsJSONIsTerminalSafe(t *testing.T) {
	src := fixtures.Path(t, "pi-subagent/synthetic-v5/agent")
	agentDir := filepath.Join(t.TempDir(), "agent")
	if err := copyDir(src, agentDir); err != nil {
		t.Fatal(err)
	}
	// The tasks (in the root session's tool calls) and the answers (in
	// state.json's mailbox and the agents' sessions), in JSON-escaped form.
	evil := strings.Trim(jsonv.Quote(formatChars), `"`)
	replaced := 0
	err := filepath.WalkDir(agentDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		changed := bytes.ReplaceAll(data, []byte("Map the test layout."), []byte("Map "+evil))
		changed = bytes.ReplaceAll(changed, []byte("Defect: src/auth.ts:1"), []byte("Defect "+evil))
		if bytes.Equal(changed, data) {
			return nil
		}
		replaced++
		return os.WriteFile(p, changed, 0o644)
	})
	if err != nil || replaced == 0 {
		t.Fatalf("planting the text: %v (%d files)", err, replaced)
	}
	base := []string{"--agent-dir", agentDir, "--cwd", "/home/dev/projects/demo-app"}
	hadRaw := false
	for _, cmd := range [][]string{
		append(append([]string{}, base...), "agents", "list", "01a2297f-5f0c", "--json"),
		append(append([]string{}, base...), "agents", "show", "/root/review", "-s", "01a2297f-5f0c", "--json"),
		append(append([]string{}, base...), "agents", "show", "/root/scout", "-s", "01a2297f-5f0c", "--json"),
	} {
		if checkJSONCommand(t, cmd, strings.Join(cmd[len(base):], " ")) {
			hadRaw = true
		}
	}
	if !hadRaw {
		t.Error("agents printed nothing to escape: the test proves nothing")
	}
}

// copyDir copies a directory tree of regular files.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// A command printing JSON gets the JSON writer as its standard output,
// a human command the sanitiser (TestEveryJSONFlagIsExactOutput holds
// every JSON flag to exactOutput, which decides).
func TestJSONCommandsWriteThroughTheOneWriter(t *testing.T) {
	n := 0
	saved := newJSONWriter
	newJSONWriter = func(w io.Writer) jsonWriter { n++; return sanitize.NewJSONWriter(w) }
	defer func() { newJSONWriter = saved }()
	file := filepath.Join(t.TempDir(), "v.json")
	if err := os.WriteFile(file, []byte(`{"a":"\u202e"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if runCLI(t, "fingerprint", file); n != 0 {
		t.Fatal("fingerprint without --canonical got the JSON writer")
	}
	if _, out, _ := runCLI(t, "fingerprint", "--canonical", file); n != 1 || !strings.Contains(out, `{"a":"\u202e"}`) {
		t.Fatalf("fingerprint --canonical: %d JSON writers, %q", n, out)
	}
}
