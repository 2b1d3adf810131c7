package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// Builders of session lines as Pi writes them.

func headerLine(id string) string {
	return `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}`
}

func ts(sec int) string { return fmt.Sprintf("2026-01-01T00:%02d:%02d.000Z", sec/60, sec%60) }

func parentJSON(parent string) string {
	if parent == "" {
		return "null"
	}
	return jsonv.Quote(parent)
}

// userLine is a user message whose content is the string text.
func userLine(id, parent string, sec int, text string) string {
	return `{"type":"message","id":"` + id + `","parentId":` + parentJSON(parent) + `,"timestamp":"` + ts(sec) +
		`","message":{"role":"user","content":` + jsonv.Quote(text) + `,"timestamp":1}}`
}

// rawUserLine is a user message whose content token is given as written.
func rawUserLine(id, parent string, sec int, token string) string {
	return `{"type":"message","id":"` + id + `","parentId":` + parentJSON(parent) + `,"timestamp":"` + ts(sec) +
		`","message":{"role":"user","content":` + token + `}}`
}

func assistantLine(id, parent string, sec int, text, thinking string) string {
	return `{"type":"message","id":"` + id + `","parentId":` + parentJSON(parent) + `,"timestamp":"` + ts(sec) +
		`","message":{"role":"assistant","content":[{"type":"thinking","thinking":` + jsonv.Quote(thinking) +
		`},{"type":"text","text":` + jsonv.Quote(text) + `}],"provider":"p","model":"m"}}`
}

func sessionInfoLine(id, parent string, sec int, name string) string {
	return `{"type":"session_info","id":"` + id + `","parentId":` + parentJSON(parent) + `,"timestamp":"` + ts(sec) + `","name":` + jsonv.Quote(name) + `}`
}

// writeFile writes lines (each followed by "\n") and sets the file's
// modification time, which orders the search.
func writeFile(t testing.TB, path string, mod time.Time, lines ...string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
	return path
}

// testScope is an agent directory with the sessions of cwd /p.
type testScope struct {
	agentDir string
	dir      string // the project's session directory
}

func newScope(t testing.TB) testScope {
	agentDir := t.TempDir()
	loc := session.Locations{AgentDir: agentDir}
	return testScope{agentDir: agentDir, dir: loc.DefaultSessionDir("/p", "/home")}
}

func (s testScope) scope(agents bool) Scope {
	return Scope{Loc: session.Locations{AgentDir: s.agentDir}, Cwd: "/p", Home: "/home", Agents: agents}
}

// run searches the scope and returns every hit in delivery order.
func run(t testing.TB, s *Searcher, sc Scope, q Query, opt Options) ([]Hit, Stats) {
	t.Helper()
	m, err := Compile(q)
	if err != nil {
		t.Fatalf("compile %+v: %v", q, err)
	}
	srcs, err := ListSources(sc)
	if err != nil {
		t.Fatal(err)
	}
	var hits []Hit
	st, err := s.Search(context.Background(), m, srcs, opt, func(r FileResult) bool {
		hits = append(hits, r.Hits...)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits, st
}

func ids(hits []Hit) string {
	var out []string
	for _, h := range hits {
		out = append(out, h.EntryID)
	}
	return strings.Join(out, ",")
}
