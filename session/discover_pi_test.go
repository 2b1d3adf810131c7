package session

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Discovery rules checked against Pi 1.6.0's session listing
// (buildSessionInfo, readSessionHeader, sessionCwdMatches, listAll) and
// settings merge.

// Pi's "recent" order (buildSessionInfo, spec §1.3): the latest user or
// assistant message.timestamp (the entry timestamp when the message has
// none), else the header timestamp, else the file mtime. Labels, custom
// entries and other roles do not count.
func TestSummarizeLastActivityFollowsPi(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		path := filepath.Join(dir, name)
		must(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
		return path
	}
	const head = `{"type":"session","version":3,"id":"r","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/r"}`
	ms := func(it ListItem) int64 { return it.LastActivity.UnixMilli() }

	path := write("a.jsonl", head,
		`{"type":"message","id":"1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"u","timestamp":1767225605000}}`,
		`{"type":"message","id":"2","parentId":"1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[],"timestamp":1767225603000}}`,
		`{"type":"message","id":"3","parentId":"2","timestamp":"2026-01-01T00:00:09.000Z","message":{"role":"toolResult","content":[],"timestamp":1767225609000}}`,
		`{"type":"label","id":"4","parentId":"3","timestamp":"2026-01-02T00:00:00.000Z","targetId":"1","label":"x"}`)
	if it := SummarizeFile(path, ListOptions{}); ms(it) != 1767225605000 || it.LastActivityFromMtime {
		t.Errorf("max user/assistant message.timestamp: got %v (mtime %v)", it.LastActivity, it.LastActivityFromMtime)
	}

	// Without message.timestamp the entry timestamp counts; a message
	// without a content key is skipped.
	path = write("b.jsonl", head,
		`{"type":"message","id":"1","parentId":null,"timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"user","content":"u"}}`,
		`{"type":"message","id":"2","parentId":"1","timestamp":"2026-01-01T00:00:08.000Z","message":{"role":"assistant","timestamp":1767225700000}}`)
	if it := SummarizeFile(path, ListOptions{}); ms(it) != 1767225607000 {
		t.Errorf("entry timestamp fallback: got %v", it.LastActivity)
	}

	// No user/assistant message: the header timestamp.
	path = write("c.jsonl", head,
		`{"type":"custom","customType":"x","id":"1","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z"}`)
	if it := SummarizeFile(path, ListOptions{}); ms(it) != 1767225600000 || it.LastActivityFromMtime {
		t.Errorf("header timestamp fallback: got %v", it.LastActivity)
	}

	// Nothing usable: the mtime.
	path = write("d.jsonl", `{"type":"session","version":3,"id":"r","timestamp":"never","cwd":"/r"}`,
		`{"type":"custom","customType":"x","id":"1","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z"}`)
	if it := SummarizeFile(path, ListOptions{}); !it.LastActivityFromMtime || !it.LastActivity.Equal(it.ModTime) {
		t.Errorf("mtime fallback: got %v (mtime %v)", it.LastActivity, it.LastActivityFromMtime)
	}
}

// piLastActivity is Pi's getLastActivityTime over a whole session, then the
// header timestamp: the oracle for SummarizeFile on files read entirely.
func piLastActivity(t *testing.T, s *Session) int64 {
	t.Helper()
	best, found := 0.0, false
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type != TypeMessage || (e.Role != RoleUser && e.Role != RoleAssistant) || e.MessageField("content") == nil {
			continue
		}
		ms, ok := e.MessageField("timestamp").Number()
		if !ok {
			if ms = e.TimestampMs(); ms != ms {
				continue
			}
		}
		best, found = max(best, ms), true
	}
	if found && best > 0 {
		return int64(best)
	}
	return int64(parseJSDate(s.Header.Timestamp))
}

// Pi's list(cwd, customDir) keeps a file when resolvePath(header.cwd)
// equals the resolved cwd (sessionCwdMatches): a trailing slash or "~" in
// the stored cwd still matches, an empty cwd never does.
func TestListCwdCustomDirResolvesHeaderCwd(t *testing.T) {
	home, custom := t.TempDir(), t.TempDir()
	write := func(name, cwd string) {
		line := `{"type":"session","version":3,"id":"` + name + `","timestamp":"2026-01-01T00:00:00.000Z","cwd":` + jsonv.Quote(cwd) + "}\n"
		must(t, os.WriteFile(filepath.Join(custom, name+".jsonl"), []byte(line), 0o644))
	}
	write("slash", "/home/u/proj/")
	write("tilde", "~/proj")
	write("dotdot", "/home/u/x/../proj")
	write("empty", "")
	write("other", "/home/u/other")
	loc := Locations{AgentDir: t.TempDir(), SessionDir: custom}
	items, err := ListCwd(loc, filepath.Join(home, "proj"), ListOptions{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(items); !reflect.DeepEqual(sortedCopy(got), []string{"tilde"}) {
		t.Errorf("home-relative cwd: got %v, want [tilde]", got)
	}
	items, err = ListCwd(loc, "/home/u/proj", ListOptions{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(items); !reflect.DeepEqual(sortedCopy(got), []string{"dotdot", "slash"}) {
		t.Errorf("got %v, want [dotdot slash]", got)
	}
}

// Pi's listAll also descends into symlinked directories under sessions/.
func TestListAllFollowsSymlinkedProjectDirs(t *testing.T) {
	agent, elsewhere := t.TempDir(), t.TempDir()
	must(t, os.MkdirAll(filepath.Join(agent, "sessions"), 0o755))
	line := `{"type":"session","version":3,"id":"linked","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/l"}` + "\n"
	must(t, os.WriteFile(filepath.Join(elsewhere, "a.jsonl"), []byte(line), 0o644))
	must(t, os.Symlink(elsewhere, filepath.Join(agent, "sessions", "--l--")))
	items, err := ListAll(Locations{AgentDir: agent}, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(items); !reflect.DeepEqual(got, []string{"linked"}) {
		t.Errorf("got %v, want [linked]", got)
	}
}

func sortedCopy(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// Settings are deep-merged with the project file winning for every key it
// has (deepMergeSettings skips only undefined): a project sessionDir of ""
// or null clears the global one. Keys match exactly, as in JavaScript.
func TestResolveLocationsProjectSettingsKeyPresence(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	getenv := func(string) string { return "" }
	agent := filepath.Join(home, ".pi", "agent")
	must(t, os.MkdirAll(agent, 0o755))
	must(t, os.MkdirAll(filepath.Join(cwd, ".pi"), 0o755))
	must(t, os.WriteFile(filepath.Join(agent, "settings.json"), []byte(`{"sessionDir":"/global"}`), 0o644))
	for project, want := range map[string]string{
		`{"sessionDir":""}`:                     "",
		`{"sessionDir":null}`:                   "",
		`{"SessionDir":"/wrong-case"}`:          "/global",
		`{"sessionDir":"/a","sessionDir":"/b"}`: "/b",
		`{"other":1}`:                           "/global",
	} {
		must(t, os.WriteFile(filepath.Join(cwd, ".pi", "settings.json"), []byte(project), 0o644))
		loc, err := ResolveLocations(cwd, "", getenv, home)
		if err != nil || loc.SessionDir != want {
			t.Errorf("project %s: session dir %q (%v), want %q", project, loc.SessionDir, err, want)
		}
	}
}

// Pi's buildSessionInfo takes the first parsed entry as the header, so
// blank and malformed lines before it do not hide a session.
func TestSummarizeSkipsJunkBeforeHeader(t *testing.T) {
	dir := t.TempDir()
	body := "\n  \nnot json\n" + `{"type":"session","version":3,"id":"late","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/l"}` + "\n" +
		`{"type":"message","id":"1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hello","timestamp":1767225601000}}` + "\n"
	path := filepath.Join(dir, "late.jsonl")
	must(t, os.WriteFile(path, []byte(body), 0o644))
	for _, opt := range []ListOptions{{}, {HeadBytes: 8, TailBytes: 8}} {
		it := SummarizeFile(path, opt)
		if it.Problem != "" || it.ID != "late" || it.Cwd != "/l" {
			t.Fatalf("windows %d/%d: %+v", opt.HeadBytes, opt.TailBytes, it)
		}
		if opt.HeadBytes == 0 && (it.FirstMessage != "hello" || it.MessageCount != 1 || !it.MessageCountExact) {
			t.Errorf("body after a late header: %+v", it)
		}
	}
}

// A file:// cwd is a URL: Pi turns it into a path (percent-escapes
// decoded, "localhost" host accepted) before encoding the directory name.
func TestDefaultSessionDirFileURL(t *testing.T) {
	loc := Locations{AgentDir: "/agent"}
	for in, want := range map[string]string{
		"file:///home/dev/my%20app":          "--home-dev-my app--",
		"file://localhost/home/dev/x":        "--home-dev-x--",
		"file:///home/dev/projects/demo-app": "--home-dev-projects-demo-app--",
	} {
		if got := filepath.Base(loc.DefaultSessionDir(in, "/home/dev")); got != want {
			t.Errorf("DefaultSessionDir(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResolveLocationsForReadsTheChosenAgentDirSettings(t *testing.T) {
	root := t.TempDir()
	agent := filepath.Join(root, "agent")
	custom := filepath.Join(root, "elsewhere")
	if err := os.MkdirAll(agent, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agent, "settings.json"), []byte(`{"sessionDir":"`+custom+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == EnvAgentDir {
			return filepath.Join(root, "not-this-one")
		}
		return ""
	}
	loc, err := ResolveLocationsFor(filepath.Join(root, "proj"), agent, "", env, root)
	if err != nil || loc.AgentDir != agent || loc.SessionDir != custom {
		t.Fatalf("got %+v, %v: the chosen agent dir and its settings must win over the environment", loc, err)
	}
}

// A custom session directory that is the project's default directory lists
// each file once, in ListCwd as in ListAll.
func TestCustomDirEqualToDefaultListsEachFileOnce(t *testing.T) {
	agent := t.TempDir()
	loc := Locations{AgentDir: agent}
	dir := loc.DefaultSessionDir("/home/u/proj", "")
	must(t, os.MkdirAll(dir, 0o755))
	line := `{"type":"session","version":3,"id":"once","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/u/proj"}` + "\n"
	must(t, os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(line), 0o644))
	loc.SessionDir = dir
	for name, list := range map[string]func() ([]ListItem, error){
		"ListCwd": func() ([]ListItem, error) { return ListCwd(loc, "/home/u/proj", ListOptions{}) },
		"ListAll": func() ([]ListItem, error) { return ListAll(loc, ListOptions{}) },
	} {
		items, err := list()
		if err != nil {
			t.Fatal(err)
		}
		if got := idsOf(items); !reflect.DeepEqual(got, []string{"once"}) {
			t.Errorf("%s: got %v, want [once]", name, got)
		}
	}
	files, err := AllSessionFiles(loc)
	if err != nil || len(files) != 1 {
		t.Errorf("AllSessionFiles: %v, %v; want one file", files, err)
	}
}
