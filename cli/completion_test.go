package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"
	"github.com/posener/complete"
)

// completeLine asks forgebench to complete line, as the shell scripts do
// (COMP_LINE set, no arguments), and returns the candidates as printed.
func completeLine(t *testing.T, line string) []string {
	t.Helper()
	t.Setenv("COMP_LINE", line)
	t.Setenv("COMP_POINT", "")
	if !strings.HasPrefix(os.Getenv("XDG_CACHE_HOME"), os.TempDir()) {
		t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the listing cache: not the user's
	}
	code, out, errOut := runCLI(t)
	if code != exitOK || errOut != "" {
		t.Fatalf("%q: exit %d, stderr %q", line, code, errOut)
	}
	if out == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// values are the candidates without their descriptions.
func values(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i], _, _ = strings.Cut(l, "\t")
	}
	return out
}

func TestCompletionOffersCommandsAndFlags(t *testing.T) {
	for line, want := range map[string][]string{
		"forgebench pre":                        {"preset"},
		"forgebench p":                          {"payload", "preset", "profile"},
		"forgebench preset s":                   {"show"},
		"forgebench capability enable-":         {"enable-bound"},
		"forgebench preset show --j":            {"--json"},
		"forgebench --the":                      {"--theme"},
		"forgebench --theme ":                   {"auto", "dark", "light"},
		"forgebench --theme=d":                  {"dark"},
		"forgebench session export x --format ": {"json", "markdown"},
		"forgebench completion ":                {"bash", "fish", "zsh"},
		"forgebench preset fork x y --scope ":   {"global", "project"}, // no "" from the enum
		// After a boolean flag the flags that may follow are still offered.
		"forgebench preset list --json --s": {"--session"},
	} {
		if got := values(completeLine(t, line)); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %q, want %q", line, got, want)
		}
	}
	got := values(completeLine(t, "forgebench "))
	for _, cmd := range []string{"agents", "capability", "completion", "man", "preset", "session", "version"} {
		if !contains(got, cmd) {
			t.Errorf("the commands %q lack %s", got, cmd)
		}
	}
	if contains(got, "tui") {
		t.Error("the hidden default command is offered")
	}
	// COMP_POINT cuts the line at the cursor.
	t.Setenv("COMP_LINE", "forgebench preXX")
	t.Setenv("COMP_POINT", "14")
	if code, out, _ := runCLI(t); code != exitOK || out != "preset\n" {
		t.Fatalf("COMP_POINT: exit %d %q", code, out)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCompletionOffersLiveValues(t *testing.T) {
	args, _ := demoArgs(t)
	line := "forgebench " + strings.Join(args, " ") + " "
	for _, c := range []struct {
		line string
		want []string // the candidates, whole lines, in this order (a prefix of the output)
	}{
		{"preset show ", []string{"broken-on-purpose\tBroken On Purpose (demo) · project", "guarded-worker\tGuarded Worker · project", "pi-mirror\tPi Prompt Mirror · project", "quick-review\tQuick Review · global"}},
		{"preset show g", []string{"guarded-worker\tGuarded Worker · project"}},
		{"preset show global:", []string{"global:quick-review\tQuick Review · global"}},
		{"preset new x --from q", []string{"quick-review\tQuick Review · global"}},
		{"capability bindings gu", []string{"guarded-worker\tGuarded Worker · project"}},
		{"capability enable ", []string{"review-mode\tReview mode · project", "test-runner\tTest runner · project", "write-access\tWrite access · project", "plain-english\tPlain English · global"}},
		{"capability disable w", []string{"write-access\tWrite access · project"}},
		{"profile show ", []string{"deep-review\tDeep Review · project", "tdd-worker\tTDD Worker · project"}},
		{"agents show ", []string{"/root/docs_check\tdefault · errored", "/root/invoice_review\treviewer · completed"}},
		{"agents transcript --session 01a2219b /root/inv", []string{"/root/invoice_review\treviewer · completed", "/root/invoice_review/edge_cases\tdefault · completed"}},
		{"agents show --session 01a21c48 ", nil}, // that session has no tree
	} {
		got := completeLine(t, line+c.line)
		if len(got) < len(c.want) || !reflect.DeepEqual(got[:len(c.want)], c.want) || (c.want == nil && got != nil) {
			t.Errorf("%q:\n got %q\nwant %q", c.line, got, c.want)
		}
	}

	// Sessions: ids, newest first, described by title and time.
	got := completeLine(t, line+"session show ")
	// The third one's name was set more than 16 KiB before the end of
	// the file: its first message stands for it (completionListOptions).
	if len(got) != 3 || !strings.HasPrefix(got[0], "01a2219b-7aa3-71cb-a60b-a97d171ea8a4\tPre-release review · 2026-11-28") ||
		!strings.HasPrefix(got[1], "01a21dbe-a073-75f0-9dfd-a08c7d2b5524\tCurrency formatting · 2026-11-27") ||
		!strings.HasPrefix(got[2], "01a21c48-87b8-7bf2-bec6-d1b0faeb6b39\tTwo widgets at $5.00 ") {
		t.Fatalf("sessions: %q", got)
	}
	for _, l := range []string{"capability status --session 01a21d", "capability status --session=01a21d", "agents list 01a21d", "session tree 01a21d"} {
		if got := values(completeLine(t, line+l)); !reflect.DeepEqual(got, []string{"01a21dbe-a073-75f0-9dfd-a08c7d2b5524"}) {
			t.Errorf("%q: %q", l, got)
		}
	}

	// Entries: of the session the line names, else the newest; the leaf
	// first and marked.
	named := completeLine(t, line+"session tree 01a21dbe --leaf ")
	if len(named) < 10 || !strings.HasPrefix(named[0], "d8c5809d\tassistant · ") || !strings.HasSuffix(named[0], " · leaf") {
		t.Fatalf("entries of the named session: %q", named)
	}
	for _, l := range []string{"capability status --session 01a21dbe --leaf ", "capability status --session=01a21dbe --leaf=", "session context 01a21dbe-a073-75f0-9dfd-a08c7d2b5524 --leaf "} {
		if got := completeLine(t, line+l); !reflect.DeepEqual(got, named) {
			t.Errorf("%q: %d entries, want those of 01a21dbe", l, len(got))
		}
	}
	newest := completeLine(t, line+"capability status --leaf ")
	if len(newest) == 0 || !strings.HasPrefix(newest[0], "33a03556\t") || reflect.DeepEqual(newest, named) {
		t.Fatalf("entries of the newest session: %q", newest[:min(len(newest), 3)])
	}
	if got := values(completeLine(t, line+"session tree 01a21dbe --leaf 28")); !reflect.DeepEqual(got, []string{"28866949"}) {
		t.Errorf("entry prefix: %q", got)
	}
}

func TestCompletionWithDemoOffersNoLiveValues(t *testing.T) {
	// --demo would unpack a workspace at every key press.
	if got := completeLine(t, "forgebench --demo preset show "); got != nil {
		t.Fatalf("%q", got)
	}
	if got := values(completeLine(t, "forgebench --demo preset sh")); !reflect.DeepEqual(got, []string{"show"}) {
		t.Fatalf("commands still complete: %q", got)
	}
}

// Every flag and argument that names a session, an entry, a Preset, a
// capability, a profile or an agent says so in its predictor tag, so a
// new command completes like the others.
func TestCompletionPredictorTags(t *testing.T) {
	parser, err := kong.New(&CLI{}, kong.Vars{"leaf_help": leafHelp})
	if err != nil {
		t.Fatal(err)
	}
	values := newCompletionValues(parser, &CLI{}, "forgebench ")
	if _, err := kongpleteCommand(parser, values); err != nil {
		t.Fatalf("a predictor tag names no predictor: %v", err)
	}
	want := func(what string, v *kong.Value, pred string) {
		if got := v.Tag.Get("predictor"); got != pred {
			t.Errorf("%s: predictor %q, want %q", what, got, pred)
		}
	}
	counts := map[string]int{}
	for _, node := range allNodes(parser.Model.Node) {
		for _, f := range node.Flags {
			switch f.Name {
			case "session":
				want(node.Path()+" --session", f.Value, "session")
			case "leaf":
				want(node.Path()+" --leaf", f.Value, "entry")
			}
			counts[f.Tag.Get("predictor")]++
		}
		for _, a := range node.Positional {
			help := strings.ToLower(a.Help)
			what := node.Path() + " <" + a.Name + ">"
			switch {
			case strings.HasPrefix(help, "session:"), strings.HasPrefix(help, "root session"):
				want(what, a, "session")
			case strings.HasPrefix(help, "agent path"):
				want(what, a, "agent")
			case strings.HasPrefix(node.Path(), "preset ") && strings.Contains(help, "preset") && !strings.Contains(help, "id of"):
				want(what, a, "preset")
			case strings.HasPrefix(node.Path(), "capability ") && strings.Contains(help, "capabilit") && !strings.Contains(help, "id of"):
				want(what, a, "capability")
			case strings.HasPrefix(node.Path(), "profile ") && strings.Contains(help, "profile"):
				want(what, a, "profile")
			}
			counts[a.Tag.Get("predictor")]++
		}
	}
	for _, p := range []string{"session", "entry", "preset", "capability", "profile", "agent", "theme"} {
		if counts[p] == 0 {
			t.Errorf("no field uses the %s predictor", p)
		}
	}
}

func TestCompletionOutputIsClean(t *testing.T) {
	var b bytes.Buffer
	writeCandidates(&b, "ok\tfine\n\x1b[2Jbad\tx\nwith space\tx\n\nok\tagain\nnext\tdesc \x1b]0;title\x07 \u202e end\n")
	want := "ok\tfine\nnext\tdesc title end\n"
	if got := b.String(); !strings.Contains(got, "ok\tfine\nnext\tdesc") || strings.ContainsAny(got, "\x1b\x07\u202e") || strings.Count(got, "\n") != 2 {
		t.Fatalf("got %q, want like %q", got, want)
	}
	b.Reset()
	writeCandidates(&b, "--b\n--a\n--c\n")
	if b.String() != "--a\n--b\n--c\n" {
		t.Fatalf("plain candidates are sorted: %q", b.String())
	}
}

func TestCompletionLiveValuesKeepToTheBudget(t *testing.T) {
	old := completionBudget
	completionBudget = 50 * time.Millisecond
	t.Cleanup(func() { completionBudget = old })
	args, _ := demoArgs(t)
	v := newCompletionValues(nil, &CLI{Globals: Globals{Cwd: args[1], AgentDir: args[3], ForgeDir: args[5]}}, "forgebench ")
	v.once.Do(func() {}) // no parser to trace: use the fields as given
	v.g = &Globals{Cwd: args[1], AgentDir: args[3], ForgeDir: args[5]}
	slow := v.live(func(*Globals, string, string) []candidate {
		time.Sleep(5 * time.Second)
		return []candidate{{"late", ""}}
	})
	start := time.Now()
	if got := slow.Predict(complete.Args{}); got != nil || time.Since(start) > 2*time.Second {
		t.Fatalf("a slow source gave %q after %v", got, time.Since(start))
	}
	panics := v.live(func(*Globals, string, string) []candidate { panic("boom") })
	if got := panics.Predict(complete.Args{}); got != nil {
		t.Fatalf("a panicking source gave %q", got)
	}
}

func TestCompletionScripts(t *testing.T) {
	for shell, check := range map[string][]string{
		"bash": {"bash", "-n"},
		"zsh":  {"zsh", "-n"},
		"fish": {"fish", "--no-execute"},
	} {
		code, out, errOut := runCLI(t, "completion", shell)
		if code != exitOK || !strings.Contains(out, "forgebench") {
			t.Fatalf("completion %s: exit %d %q", shell, code, errOut)
		}
		want, _ := completionScripts.ReadFile(completionScriptFiles[shell])
		if out != string(want) {
			t.Errorf("completion %s does not print its script as it is", shell)
		}
		if _, err := exec.LookPath(check[0]); err != nil {
			t.Logf("%s is not installed: its script's syntax is not checked", check[0])
			continue
		}
		path := filepath.Join(t.TempDir(), "script")
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if msg, err := exec.Command(check[0], append(check[1:], path)...).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", shell, err, msg)
		}
	}
	if code, _, _ := runCLI(t, "completion", "powershell"); code != exitUsage {
		t.Fatalf("an unknown shell: exit %d", code)
	}
}

// A session file's id and name are text from outside: an id that cannot
// be typed as one word is not offered, and no escape reaches the shell.
func TestCompletionOfHostileSessions(t *testing.T) {
	args, layout := demoArgs(t)
	hostile := `{"type":"session","version":3,"id":"evil` + "\\u001b[2J" + `","timestamp":"2026-11-29T10:00:00.000Z","cwd":"` + layout.ProjectDir + `"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"user","content":"hi ` + "\\u001b]0;pwned\\u0007 \\u202egnp.exe" + `","timestamp":1795860001000}}
{"type":"session_info","id":"a2","parentId":"a1","timestamp":"2026-11-29T10:00:02.000Z","name":"` + "\\u001b[31mred\\u001b[0m \\u2066name" + `"}
`
	named := strings.Replace(hostile, "evil\\u001b[2J", "0ffbeat-1", 1)
	for name, text := range map[string]string{"2026-11-29T10-00-00-000Z_evil.jsonl": hostile, "2026-11-29T10-00-00-000Z_0ffbeat-1.jsonl": named} {
		if err := os.WriteFile(filepath.Join(layout.SessionDir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := completeLine(t, "forgebench "+strings.Join(args, " ")+" session show ")
	all := strings.Join(got, "\n")
	if strings.Contains(all, "evil") || strings.ContainsAny(all, "\x1b\x07\u202e\u2066") {
		t.Fatalf("%q", got)
	}
	if len(got) != 4 || !strings.Contains(all, "\n0ffbeat-1\tred name · ") {
		t.Fatalf("the named one is offered, its name cleaned: %q", got)
	}
}
