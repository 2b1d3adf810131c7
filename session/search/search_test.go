package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/session"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func TestHitsOnActiveAndAbandonedBranches(t *testing.T) {
	sc := newScope(t)
	// root → u1 → a1 → u2 (abandoned: the user went back to a1) → a2
	//                 ↳ u3 → a3 (active: the last entry)
	// and a second root r1 (abandoned, its own root)
	writeFile(t, filepath.Join(sc.dir, "2026_s1.jsonl"), t0,
		headerLine("s1"),
		userLine("u1", "", 1, "start the marmot task"),
		assistantLine("a1", "u1", 2, "marmot plan", "thinking about marmots"),
		userLine("u2", "a1", 3, "marmot detour"),
		assistantLine("a2", "u2", 4, "detour marmot answer", ""),
		userLine("r1", "", 5, "marmot from a fresh root"),
		userLine("u3", "a1", 6, "marmot main line"),
		assistantLine("a3", "u3", 7, "final marmot", ""),
	)
	hits, _ := run(t, NewSearcher(), sc.scope(false), Query{Text: "marmot"}, Options{})
	if got := ids(hits); got != "u1,a1,u2,a2,r1,u3,a3" {
		t.Fatalf("hits %s", got)
	}
	want := map[string]struct {
		active       bool
		branch, fork string
	}{
		"u1": {true, "", ""}, "a1": {true, "", ""}, "u3": {true, "", ""}, "a3": {true, "", ""},
		"u2": {false, "u2", "a1"}, "a2": {false, "u2", "a1"}, "r1": {false, "r1", ""},
	}
	for _, h := range hits {
		w := want[h.EntryID]
		if h.OnActiveBranch != w.active || h.Branch != w.branch || h.Fork != w.fork {
			t.Errorf("%s: active=%v branch=%q fork=%q, want %+v", h.EntryID, h.OnActiveBranch, h.Branch, h.Fork, w)
		}
		if h.SessionID != "s1" || h.AgentPath != "" {
			t.Errorf("%s: session %q agent %q", h.EntryID, h.SessionID, h.AgentPath)
		}
	}
	if hits[1].Role != RoleThinking || hits[1].Matches != 2 {
		t.Errorf("a1: role %s matches %d, want thinking and 2", hits[1].Role, hits[1].Matches)
	}
}

func TestOffsetsPointAtTheMatchInTheFile(t *testing.T) {
	sc := newScope(t)
	path := writeFile(t, filepath.Join(sc.dir, "a.jsonl"), t0,
		headerLine("s1"),
		rawUserLine("u1", "", 1, `"line one\nsay \"Wombat\" \u0057ombat"`),
	)
	hits, _ := run(t, NewSearcher(), sc.scope(false), Query{Text: "wombat"}, Options{})
	if len(hits) != 1 || hits[0].Matches != 2 {
		t.Fatalf("hits %+v", hits)
	}
	data, _ := os.ReadFile(path)
	if got := string(data[hits[0].Offset : hits[0].Offset+6]); got != "Wombat" {
		t.Errorf("offset %d points at %q", hits[0].Offset, got)
	}
	if data[hits[0].LineOffset] != '{' || hits[0].Line != 2 {
		t.Errorf("line offset %d, line %d", hits[0].LineOffset, hits[0].Line)
	}
	sn := hits[0].Snippet
	if sn.Text[sn.Start:sn.End] != "Wombat" || strings.ContainsAny(sn.Text, "\n\"\\") && !strings.Contains(sn.Text, `"Wombat"`) {
		t.Errorf("snippet %+v", sn)
	}
}

func TestNewestSessionsFirstAndLimit(t *testing.T) {
	sc := newScope(t)
	for i, name := range []string{"old", "mid", "new"} {
		writeFile(t, filepath.Join(sc.dir, name+".jsonl"), t0.Add(time.Duration(i)*time.Hour),
			headerLine(name),
			userLine(name+"1", "", 1, "otter one"),
			userLine(name+"2", name+"1", 2, "otter two"),
		)
	}
	hits, st := run(t, NewSearcher(), sc.scope(false), Query{Text: "otter"}, Options{})
	if got := ids(hits); got != "new1,new2,mid1,mid2,old1,old2" || st.Limited {
		t.Fatalf("order %s limited %v", got, st.Limited)
	}
	hits, st = run(t, NewSearcher(), sc.scope(false), Query{Text: "otter"}, Options{Limit: 3, Workers: 1})
	if got := ids(hits); got != "new1,new2,mid1" || !st.Limited || st.Hits != 3 {
		t.Fatalf("limited: %s %+v", got, st)
	}
}

func TestFiltersRoleAndSince(t *testing.T) {
	sc := newScope(t)
	writeFile(t, filepath.Join(sc.dir, "a.jsonl"), t0,
		headerLine("s1"),
		userLine("u1", "", 1, "badger"),
		assistantLine("a1", "u1", 70, "badger reply", "badger thought"),
		`{"type":"compaction","summary":"badger summary","firstKeptEntryId":"a1","tokensBefore":5,"id":"k1","parentId":"a1","timestamp":"`+ts(80)+`"}`,
	)
	cases := []struct {
		q    Query
		want string
	}{
		{Query{Text: "badger", Roles: []string{RoleUser}}, "u1"},
		{Query{Text: "badger", Roles: []string{RoleThinking}}, "a1"},
		{Query{Text: "badger", Roles: []string{RoleSummary}}, "k1"},
		{Query{Text: "badger", Since: time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC)}, "a1,k1"},
		{Query{Text: "badger", Since: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}, ""},
	}
	for _, c := range cases {
		hits, _ := run(t, NewSearcher(), sc.scope(false), c.q, Options{})
		if got := ids(hits); got != c.want {
			t.Errorf("%+v: %s, want %s", c.q, got, c.want)
		}
	}
	hits, _ := run(t, NewSearcher(), sc.scope(false), Query{Text: "badger", Roles: []string{RoleThinking}}, Options{})
	if hits[0].Role != RoleThinking {
		t.Errorf("role %s", hits[0].Role)
	}
}

func TestAgentTranscripts(t *testing.T) {
	sc := newScope(t)
	root := writeFile(t, filepath.Join(sc.dir, "2026_root.jsonl"), t0, headerLine("root-id"),
		`{"type":"custom","customType":"pi-subagent/tree-v2","data":{"version":1,"id":"tree-1","rootSessionId":"root-id"},"id":"m1","parentId":null,"timestamp":"`+ts(1)+`"}`,
		userLine("u1", "m1", 2, "delegate the capybara review"))
	tree := filepath.Join(sc.dir, "root-id.subagents", "tree-1")
	// No descriptor in the file: only state.json can name this agent.
	reviewFile := writeFile(t, filepath.Join(tree, "sessions", "r.jsonl"), t0, headerLine("agent-r"),
		userLine("ru1", "", 2, "capybara found in review"))
	// Not in state.json: searched, but not the session of an agent of the
	// tree (`agents show /root/scout` would not find it), so no agent path.
	writeFile(t, filepath.Join(tree, "sessions", "s.jsonl"), t0, headerLine("agent-s"),
		`{"type":"custom","customType":"pi-subagent/descriptor","data":{"version":5,"path":"/root/scout"},"id":"d1","parentId":null,"timestamp":"`+ts(1)+`"}`,
		userLine("su1", "d1", 2, "scouting capybara"))
	// state.json names the review agent's file where it was before the
	// tree moved; session/subagent finds it by name.
	state := `{"version":1,"id":"tree-1","rootSessionId":"root-id","rootMailbox":[],"agents":{"/root/review":{"sessionFile":"/elsewhere/` + filepath.Base(reviewFile) +
		`","status":"completed","mailbox":[],"descriptor":{"version":5,"path":"/root/review","parentPath":"/root","anchorId":"x"}}}}`
	if err := os.WriteFile(filepath.Join(tree, "state.json"), []byte(state), 0o600); err != nil {
		t.Fatal(err)
	}
	hits, _ := run(t, NewSearcher(), sc.scope(false), Query{Text: "capybara"}, Options{})
	if ids(hits) != "u1" {
		t.Fatalf("without --agents: %s", ids(hits))
	}
	hits, _ = run(t, NewSearcher(), sc.scope(true), Query{Text: "capybara"}, Options{})
	if ids(hits) != "u1,ru1,su1" {
		t.Fatalf("with agents: %s", ids(hits))
	}
	for _, h := range hits[1:] {
		if h.RootFile != root || !h.OnActiveBranch {
			t.Errorf("%s: root %q active %v", h.EntryID, h.RootFile, h.OnActiveBranch)
		}
	}
	if hits[0].AgentPath != "" || hits[1].AgentPath != "/root/review" || hits[2].AgentPath != "" {
		t.Errorf("agent paths %q %q %q", hits[0].AgentPath, hits[1].AgentPath, hits[2].AgentPath)
	}
	if hits[1].SessionID != "agent-r" {
		t.Errorf("agent session id %q", hits[1].SessionID)
	}
}

func TestGrowingFileIsReadUpToItsSizeWhenListed(t *testing.T) {
	sc := newScope(t)
	path := writeFile(t, filepath.Join(sc.dir, "a.jsonl"), t0, headerLine("s1"), userLine("u1", "", 1, "heron one"))
	m, _ := Compile(Query{Text: "heron"})
	srcs, err := ListSources(sc.scope(false))
	if err != nil {
		t.Fatal(err)
	}
	// Pi appends after the listing: a complete line and a partial one.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(userLine("u2", "u1", 2, "heron two") + "\n" + `{"type":"message","id":"u3","message":{"role":"user","content":"heron thr`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var hits []Hit
	if _, err := NewSearcher().Search(t.Context(), m, srcs, Options{}, func(r FileResult) bool {
		hits = append(hits, r.Hits...)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if ids(hits) != "u1" || !hits[0].OnActiveBranch {
		t.Fatalf("snapshot: %s", ids(hits))
	}
	// Listed again, the file shows the complete new line; the partial last
	// line is not an entry, so u2 is the leaf.
	hits, _ = run(t, NewSearcher(), sc.scope(false), Query{Text: "heron"}, Options{})
	if ids(hits) != "u1,u2" || !hits[1].OnActiveBranch {
		t.Fatalf("after growth: %s", ids(hits))
	}
}

func TestFileGrowingDuringSearches(t *testing.T) {
	sc := newScope(t)
	path := writeFile(t, filepath.Join(sc.dir, "a.jsonl"), t0, headerLine("s1"), userLine("u0", "", 1, "ibis"))
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		parent := "u0"
		for i := 1; i < 300; i++ {
			id := "u" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26))
			line := userLine(id, parent, 2, "ibis "+strings.Repeat("w", i*37)) + "\n"
			// Write each line in two halves, as a slow writer might.
			f.WriteString(line[:len(line)/2])
			f.WriteString(line[len(line)/2:])
			parent = id
		}
	}()
	s := NewSearcher()
	last := 0
	for {
		select {
		case <-done:
			hits, _ := run(t, s, sc.scope(false), Query{Text: "ibis"}, Options{BufferBytes: 512})
			if len(hits) != 300 || !hits[len(hits)-1].OnActiveBranch {
				t.Fatalf("final: %d hits", len(hits))
			}
			return
		default:
		}
		hits, _ := run(t, s, sc.scope(false), Query{Text: "ibis"}, Options{BufferBytes: 512})
		if len(hits) < last {
			t.Fatalf("hits went from %d to %d", last, len(hits))
		}
		last = len(hits)
		for i, h := range hits {
			if !h.OnActiveBranch {
				t.Fatalf("hit %d (%s) of a linear session is off the active branch", i, h.EntryID)
			}
		}
	}
}

func TestCacheSkipsUnchangedFiles(t *testing.T) {
	sc := newScope(t)
	path := writeFile(t, filepath.Join(sc.dir, "a.jsonl"), t0, headerLine("s1"), userLine("u1", "", 1, "kestrel"))
	writeFile(t, filepath.Join(sc.dir, "b.jsonl"), t0, headerLine("s2"), userLine("u1", "", 1, "nothing here"))
	s := NewSearcher()
	_, st := run(t, s, sc.scope(false), Query{Text: "kes"}, Options{})
	if st.Read != 2 || st.Cached != 0 {
		t.Fatalf("first: %+v", st)
	}
	hits, st := run(t, s, sc.scope(false), Query{Text: "kes"}, Options{})
	if st.Read != 0 || st.Cached != 2 || ids(hits) != "u1" {
		t.Fatalf("repeat: %+v %s", st, ids(hits))
	}
	// A longer query: b.jsonl had nothing for "kes", so nothing for
	// "kestrel" either; a.jsonl is read again.
	hits, st = run(t, s, sc.scope(false), Query{Text: "KESTREL"}, Options{})
	if st.Read != 1 || st.Cached != 1 || ids(hits) != "u1" {
		t.Fatalf("narrower: %+v %s", st, ids(hits))
	}
	// A case-sensitive query is not narrower than a folded one.
	_, st = run(t, s, sc.scope(false), Query{Text: "kestrel", CaseSensitive: true}, Options{})
	if st.Cached != 0 {
		t.Fatalf("case-sensitive reused the folded result: %+v", st)
	}
	// A changed file is read again.
	writeFile(t, path, t0.Add(time.Minute), headerLine("s1"), userLine("u1", "", 1, "kestrel"), userLine("u2", "u1", 2, "kestrel again"))
	hits, st = run(t, s, sc.scope(false), Query{Text: "kes"}, Options{})
	if st.Read != 1 || ids(hits) != "u1,u2" {
		t.Fatalf("changed: %+v %s", st, ids(hits))
	}
}

func TestNotASessionAndV1Files(t *testing.T) {
	sc := newScope(t)
	writeFile(t, filepath.Join(sc.dir, "junk.jsonl"), t0, userLine("u1", "", 1, "puffin"))
	writeFile(t, filepath.Join(sc.dir, "v1.jsonl"), t0.Add(time.Hour),
		`{"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}`,
		`{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"puffin v1"}}`,
		`{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":"puffin again"}}`)
	hits, _ := run(t, NewSearcher(), sc.scope(false), Query{Text: "puffin"}, Options{})
	if len(hits) != 2 || hits[0].SessionID != "old" {
		t.Fatalf("%+v", hits)
	}
	for _, h := range hits {
		if h.EntryID == "" || !h.OnActiveBranch {
			t.Errorf("v1 hit %+v", h)
		}
	}
}

func TestSessionNameFollowsThePicker(t *testing.T) {
	sc := newScope(t)
	writeFile(t, filepath.Join(sc.dir, "a.jsonl"), t0, headerLine("s1"), userLine("u1", "", 1, "first words about a lynx"),
		sessionInfoLine("i1", "u1", 2, "  Lynx hunt  "))
	writeFile(t, filepath.Join(sc.dir, "b.jsonl"), t0.Add(-time.Hour), headerLine("s2"), userLine("u1", "", 1, "unnamed lynx\nsession"))
	hits, _ := run(t, NewSearcher(), sc.scope(false), Query{Text: "lynx"}, Options{})
	if len(hits) != 2 || hits[0].SessionName != "Lynx hunt" || hits[1].SessionName != "unnamed lynx session" {
		t.Fatalf("names %q %q", hits[0].SessionName, hits[1].SessionName)
	}
}

func TestTreeOwnerFoundByHeaderWhenTheNameDoesNotSay(t *testing.T) {
	sc := newScope(t)
	writeFile(t, filepath.Join(sc.dir, "renamed.jsonl"), t0, headerLine("root-x"), userLine("u1", "", 1, "gannet"))
	writeFile(t, filepath.Join(sc.dir, "other_root-x.jsonl"), t0, headerLine("not-it"), userLine("u1", "", 1, "gannet"))
	writeFile(t, filepath.Join(sc.dir, "root-x.subagents", "t1", "sessions", "a.jsonl"), t0, headerLine("agent"),
		`{"type":"custom","customType":"pi-subagent/descriptor","data":{"path":"/root/a"},"id":"d1","parentId":null,"timestamp":"`+ts(1)+`"}`,
		userLine("au1", "d1", 2, "gannet"))
	srcs, err := ListSources(sc.scope(true))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range srcs {
		got = append(got, filepath.Base(s.Path)+"@"+s.AgentPath)
	}
	if strings.Join(got, ",") != "other_root-x.jsonl@,renamed.jsonl@,a.jsonl@" {
		t.Fatalf("sources %v", got)
	}
}

func TestMatchSessionFindsEntriesOfALoadedSession(t *testing.T) {
	lines := []string{headerLine("s1")}
	for i := 0; i < 2000; i++ {
		text := "plain entry"
		if i%250 == 7 {
			text = "the Pelican and the pelican"
		}
		lines = append(lines, userLine(fmt.Sprintf("e%04d", i), "", i, text))
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := Compile(Query{Text: "pelican"})
	hits := m.MatchSession(t.Context(), s, 0)
	if len(hits) != 8 {
		t.Fatalf("%d hits", len(hits))
	}
	for k, h := range hits {
		e := &s.Entries[h.Index]
		if h.Index != k*250+7 || len(h.Matches) != 2 {
			t.Fatalf("hit %d: entry %d, %d matches", k, h.Index, len(h.Matches))
		}
		if got := string(e.Raw[h.Matches[0].Offset : h.Matches[0].Offset+7]); got != "Pelican" {
			t.Fatalf("offset points at %q", got)
		}
	}
	one := m.MatchSession(t.Context(), s, 1)
	if len(one) != 8 || len(one[0].Matches) != 1 {
		t.Fatalf("perEntry 1: %+v", one[0])
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if got := m.MatchSession(ctx, s, 0); len(got) > 8 {
		t.Fatalf("cancelled: %d", len(got))
	}
}

func TestSyntheticFixtureTree(t *testing.T) {
	agentDir := fixtures.Path(t, "pi-subagent/synthetic-v5/agent")
	sc := Scope{Loc: session.Locations{AgentDir: agentDir}, Cwd: "/home/dev/projects/demo-app", Home: "/home/dev", Agents: true}
	hits, _ := run(t, NewSearcher(), sc, Query{Text: "auth.ts"}, Options{})
	paths := map[string]int{}
	for _, h := range hits {
		paths[h.AgentPath]++
		if h.SessionID == "" || h.EntryID == "" || h.SessionName == "" {
			t.Errorf("incomplete hit %+v", h)
		}
	}
	if paths[""] == 0 || paths["/root/review"] == 0 {
		t.Fatalf("hits by agent: %v", paths)
	}
}
