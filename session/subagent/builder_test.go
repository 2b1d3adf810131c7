package subagent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// This file builds pi-subagent trees on disk for tests: a root session, a
// tree directory with state.json and one session per agent, shaped like the
// v5 source writes them (§16–§20).

// jsonl is a session file being written.
type jsonl struct {
	path  string
	id    string
	lines []string
	clock time.Time
	seq   int
	last  string // id of the last entry (the next entry's parent)
}

func newJSONL(path, id, parentSession string, start time.Time) *jsonl {
	h := map[string]any{"type": "session", "version": 3, "id": id, "timestamp": iso(start), "cwd": "/home/u/proj"}
	if parentSession != "" {
		h["parentSession"] = parentSession
	}
	return &jsonl{path: path, id: id, lines: []string{mustJSON(h)}, clock: start}
}

func iso(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// add appends an entry whose parent is the previous entry; fields are the
// type-specific members. It returns the new id.
func (s *jsonl) add(typ string, fields map[string]any) string {
	return s.addAfter(s.last, typ, fields)
}

// addAfter appends an entry with the given parent ("" for a root entry).
func (s *jsonl) addAfter(parent, typ string, fields map[string]any) string {
	s.seq++
	s.clock = s.clock.Add(time.Second)
	id := fmt.Sprintf("%s%04x", s.id[len(s.id)-4:], s.seq)
	var p any
	if parent != "" {
		p = parent
	}
	// Pi's key order: type, id, parentId, timestamp, then the rest.
	line := fmt.Sprintf(`{"type":%q,"id":%q,"parentId":%s,"timestamp":%q`, typ, id, mustJSON(p), iso(s.clock))
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		line += fmt.Sprintf(",%q:%s", k, mustJSON(fields[k]))
	}
	s.lines = append(s.lines, line+"}")
	s.last = id
	return id
}

func (s *jsonl) message(msg map[string]any) string {
	msg["timestamp"] = s.clock.Add(time.Second).UnixMilli()
	return s.add("message", map[string]any{"message": msg})
}

func (s *jsonl) custom(customType string, data any) string {
	return s.add("custom", map[string]any{"customType": customType, "data": data})
}

func (s *jsonl) write(t testing.TB) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.path, []byte(strings.Join(s.lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func usageOf(in, out, cacheRead float64, cost any) map[string]any {
	u := map[string]any{"input": in, "output": out, "cacheRead": cacheRead, "cacheWrite": 0, "totalTokens": in + out + cacheRead}
	if cost != nil {
		u["cost"] = map[string]any{"total": cost}
	}
	return u
}

func assistant(content []any, stop string, usage map[string]any) map[string]any {
	return map[string]any{"role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
		"model": "claude-sonnet-4-5", "stopReason": stop, "usage": usage}
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func toolCall(id, name string, args map[string]any) map[string]any {
	return map[string]any{"type": "toolCall", "id": id, "name": name, "arguments": args}
}

// spec describes one agent to build.
type spec struct {
	path       string
	status     string
	lifecycle  string // "" = absent
	inherited  int    // copied parent entries before the descriptor
	runs       int    // runs written (0: descriptor only)
	padBytes   int    // tool output size per run
	missing    bool   // state.json names a file that does not exist
	onBranch   bool   // the registration stays on the parent's active branch
	mailbox    int
	outbox     int
	telemetry  string // sidecar content ("" = none)
	recordJSON map[string]any
}

// treeBuilder writes a whole tree.
type treeBuilder struct {
	t       testing.TB
	dir     string // session directory of the root
	rootID  string
	treeID  string
	root    *jsonl
	start   time.Time
	files   map[string]*jsonl // agent path → its session
	records map[string]any
	anchors map[string]string
}

func newTreeBuilder(t testing.TB) *treeBuilder {
	dir := filepath.Join(t.TempDir(), "agent", "sessions", "--home-u-proj--")
	start := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	b := &treeBuilder{t: t, dir: dir, rootID: "01a2219b-7aa3-71cb-a60b-a97d171e0001", treeID: "01a2219b-bd13-79b5-a1d6-433f90ab0002",
		start: start, files: map[string]*jsonl{}, records: map[string]any{}, anchors: map[string]string{}}
	b.root = newJSONL(filepath.Join(dir, "2026-11-28T10-00-00-000Z_"+b.rootID+".jsonl"), b.rootID, "", start)
	b.root.message(map[string]any{"role": "user", "content": "Delegate the work."})
	b.root.message(assistant([]any{text("Starting agents.")}, "toolUse", usageOf(100, 10, 0, 0.001)))
	b.root.custom(TreeCustomType, map[string]any{"version": 1, "id": b.treeID, "rootSessionId": b.rootID})
	return b
}

func (b *treeBuilder) treeDir() string {
	return filepath.Join(b.dir, b.rootID+".subagents", b.treeID)
}

// parentSession returns the session that registers agents under parent.
func (b *treeBuilder) parentSession(parent string) *jsonl {
	if parent == RootPath {
		return b.root
	}
	s := b.files[parent]
	if s == nil {
		b.t.Fatalf("parent %s must be added before its children", parent)
	}
	return s
}

// addAgent writes an agent's registration in its parent, its session and
// its state record. Agents must be added parents first.
func (b *treeBuilder) addAgent(sp spec) {
	parent := parentOf(sp.path)
	ps := b.parentSession(parent)
	name := filepath.Base(sp.path)
	ps.message(assistant([]any{toolCall("call_"+name, "spawn_agent", map[string]any{"task_name": name, "message": "Task for " + name})},
		"toolUse", usageOf(50, 5, 0, 0.0005)))
	forkPoint := ps.last
	anchor := ps.custom(RegistrationCustomType, map[string]any{"treeId": b.treeID, "path": sp.path})
	b.anchors[sp.path] = anchor
	if !sp.onBranch {
		// Abandon the branch: continue from before the registration.
		ps.addAfter(forkPoint, "message", map[string]any{"message": map[string]any{"role": "user", "content": "Actually, never mind.", "timestamp": 1}})
	}
	created := b.start.Add(time.Duration(len(b.records)+1) * time.Minute)
	id := fmt.Sprintf("01a2219b-%04x-7000-8000-%012x", len(b.records)+1, len(b.records)+1)
	file := filepath.Join(b.treeDir(), "sessions", created.Format("2006-01-02T15-04-05-000Z")+"_"+id+".jsonl")
	s := newJSONL(file, id, ps.path, created)
	for i := 0; i < sp.inherited; i++ {
		if i%2 == 0 {
			s.message(map[string]any{"role": "user", "content": fmt.Sprintf("copied question %d", i)})
		} else {
			s.message(assistant([]any{text("copied answer")}, "stop", usageOf(999, 99, 0, 9.99)))
		}
	}
	desc := map[string]any{
		"version": 5, "id": id, "path": sp.path, "parentPath": parent, "depth": depthOf(sp.path),
		"cwd": "/home/u/proj", "createdAt": iso(created),
		"agent":         map[string]any{"name": "worker", "description": "Does things", "systemPrompt": "Work.", "source": "user", "tools": []any{"read", "bash"}},
		"model":         map[string]any{"provider": "anthropic", "id": "claude-sonnet-4-5"},
		"thinkingLevel": "medium", "forkTurns": map[bool]string{true: "all", false: "none"}[sp.inherited > 0],
		"settings": map[string]any{"agentScope": "user", "maxDepth": 3, "maxConcurrentAgents": 4, "inheritExtensions": false,
			"openAIIdentity": false, "maxOutputBytes": 51200},
		"anchorId": anchor,
	}
	s.custom(DescriptorCustomType, desc)
	s.add("session_info", map[string]any{"name": "[subagent] " + sp.path})
	for r := 0; r < sp.runs; r++ {
		s.add("model_change", map[string]any{"provider": "anthropic", "modelId": "claude-sonnet-4-5"})
		s.message(map[string]any{"role": "user", "content": []any{text(runPrompt)}})
		s.message(map[string]any{"role": "custom", "customType": MessageCustomType, "display": true,
			"content": fmt.Sprintf("[Agent task: %s → %s]\nRun %d of %s", parent, sp.path, r+1, name),
			"details": map[string]any{"treeId": b.treeID, "messageIds": []any{fmt.Sprintf("m%d", r)}, "senders": []any{parent}}})
		s.message(assistant([]any{map[string]any{"type": "thinking", "thinking": "SECRET THOUGHT"},
			toolCall(fmt.Sprintf("c%d", r), "bash", map[string]any{"command": "ls -la\necho done"})}, "toolUse", usageOf(1000, 20, 500, 0.002)))
		s.message(map[string]any{"role": "toolResult", "toolCallId": fmt.Sprintf("c%d", r), "toolName": "bash",
			"content": []any{text(strings.Repeat("output line \x1b[31mred\x1b[0m\n", max(1, sp.padBytes/26)))}, "isError": false})
		s.message(assistant([]any{text(fmt.Sprintf("Done with run %d.", r+1))}, "stop", usageOf(1200, 30, 1000, nil)))
	}
	if !sp.missing {
		s.write(b.t)
	}
	b.files[sp.path] = s
	mail := func(n int, to string) []any {
		out := []any{}
		for i := 0; i < n; i++ {
			out = append(out, map[string]any{"id": fmt.Sprintf("%s-m%d", name, i), "from": parent, "to": to, "kind": "message",
				"text": "note", "createdAt": iso(created)})
		}
		return out
	}
	rec := map[string]any{"descriptor": desc, "sessionFile": file, "status": sp.status, "mailbox": mail(sp.mailbox, sp.path),
		"runId": "run-" + name}
	if sp.outbox > 0 {
		rec["outbox"] = mail(sp.outbox, parent)
	}
	if sp.lifecycle != "" {
		rec["lifecycle"] = sp.lifecycle
	}
	for k, v := range sp.recordJSON {
		rec[k] = v
	}
	b.records[sp.path] = rec
	if sp.telemetry != "" {
		if err := os.WriteFile(file+TelemetrySuffix, []byte(sp.telemetry), 0o600); err != nil {
			b.t.Fatal(err)
		}
	}
}

// finish writes the root session, every parent session written since, and
// state.json; it returns the root file.
func (b *treeBuilder) finish() string {
	b.root.write(b.t)
	for _, s := range b.files {
		if _, err := os.Stat(s.path); err == nil {
			s.write(b.t) // parents gained registrations after their first write
		}
	}
	state := map[string]any{"version": 1, "id": b.treeID, "rootSessionId": b.rootID, "rootMailbox": []any{}, "agents": b.records}
	b.writeState(mustJSON(state) + "\n")
	return b.root.path
}

func (b *treeBuilder) writeState(content string) {
	if err := os.MkdirAll(b.treeDir(), 0o700); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.treeDir(), "state.json"), []byte(content), 0o600); err != nil {
		b.t.Fatal(err)
	}
}
