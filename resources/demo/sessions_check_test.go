package demo

// Checks of the unpacked session files against spec pi-session-formats §1–§6.

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	entryIDPattern  = regexp.MustCompile(`^[0-9a-f]{8}$`)
	uuidV7Pattern   = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	isoPattern      = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	resourceIDRegex = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
)

// sessionFile is one parsed JSONL session.
type sessionFile struct {
	path    string
	header  map[string]any
	entries []map[string]any
	byID    map[string]map[string]any
}

// readSession parses a JSONL file; every line must be valid JSON.
func readSession(t *testing.T, path string) sessionFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read session: %v", err)
	}
	if !strings.HasSuffix(string(data), "\n") {
		t.Errorf("%s does not end with a newline", path)
	}
	sf := sessionFile{path: path, byID: map[string]map[string]any{}}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s line %d: %v", path, i+1, err)
		}
		if i == 0 {
			sf.header = v
			continue
		}
		sf.entries = append(sf.entries, v)
		if id, ok := v["id"].(string); ok {
			sf.byID[id] = v
		}
	}
	return sf
}

// sessionFiles returns every session file below the agent dir's sessions.
func sessionFiles(t *testing.T, layout Layout) []sessionFile {
	t.Helper()
	var out []sessionFile
	err := filepath.WalkDir(filepath.Join(layout.AgentDir, "sessions"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			out = append(out, readSession(t, p))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk sessions: %v", err)
	}
	return out
}

// ancestors returns the ids on the path from id to its root.
func (sf sessionFile) ancestors(id string) map[string]bool {
	seen := map[string]bool{}
	for cur, ok := sf.byID[id]; ok && !seen[cur["id"].(string)]; cur, ok = sf.byID[str(cur["parentId"])] {
		seen[cur["id"].(string)] = true
	}
	return seen
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func TestUnpackedJSONParses(t *testing.T) {
	layout := unpackForTest(t)
	err := filepath.WalkDir(layout.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch filepath.Ext(p) {
		case ".json":
			if !json.Valid(data) {
				t.Errorf("%s is not valid JSON", p)
			}
		case ".jsonl":
			for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				if !json.Valid([]byte(line)) {
					t.Errorf("%s line %d is not valid JSON", p, i+1)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk: %v", err)
	}
}

func TestSessionHeadersAndTrees(t *testing.T) {
	layout := unpackForTest(t)
	sessions := sessionFiles(t, layout)
	if len(sessions) != 7 {
		t.Fatalf("found %d session files, want 7 (3 project sessions + 4 agents)", len(sessions))
	}
	for _, sf := range sessions {
		h := sf.header
		if h["type"] != "session" || h["version"] != float64(3) || h["cwd"] != layout.ProjectDir {
			t.Errorf("%s: header %v is not a v3 header with cwd %q", sf.path, h, layout.ProjectDir)
		}
		id, ts := str(h["id"]), str(h["timestamp"])
		created, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil || !isoPattern.MatchString(ts) {
			t.Errorf("%s: header timestamp %q is not an ISO time", sf.path, ts)
		}
		if !uuidV7Pattern.MatchString(id) || id[:8]+id[9:13] != strings.ToLower(hex48(created.UnixMilli())) {
			t.Errorf("%s: session id %q is not a UUIDv7 of the creation time", sf.path, id)
		}
		wantName := strings.NewReplacer(":", "-", ".", "-").Replace(ts) + "_" + id + ".jsonl"
		if filepath.Base(sf.path) != wantName {
			t.Errorf("file name %s, want %s", filepath.Base(sf.path), wantName)
		}
		if parent := str(h["parentSession"]); parent != "" {
			if _, err := os.Stat(parent); err != nil {
				t.Errorf("%s: parentSession does not exist: %v", sf.path, err)
			}
		}
		checkEntries(t, sf, created)
	}
}

func hex48(ms int64) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 12)
	for i := 11; i >= 0; i-- {
		out[i] = digits[ms&0xf]
		ms >>= 4
	}
	return string(out)
}

// checkEntries verifies ids, parent links, timestamps and cross references.
func checkEntries(t *testing.T, sf sessionFile, created time.Time) {
	t.Helper()
	seen := map[string]bool{}
	toolCalls := map[string]bool{}
	for i, e := range sf.entries {
		id := str(e["id"])
		where := filepath.Base(sf.path) + " entry " + id
		if !entryIDPattern.MatchString(id) || seen[id] {
			t.Errorf("%s (line %d): id is not a fresh 8-hex id", where, i+2)
		}
		if p, ok := e["parentId"]; !ok || (p != nil && !seen[str(p)]) {
			t.Errorf("%s: parentId %v does not name an earlier entry", where, p)
		}
		ts := str(e["timestamp"])
		when, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil || !isoPattern.MatchString(ts) || when.Before(created) {
			t.Errorf("%s: timestamp %q is not an ISO time after the header", where, ts)
		}
		path := sf.ancestors(id)
		switch e["type"] {
		case "message":
			m, _ := e["message"].(map[string]any)
			if _, ok := m["timestamp"].(float64); !ok {
				t.Errorf("%s: message without a numeric timestamp", where)
			}
			if m["role"] == "assistant" {
				content, _ := m["content"].([]any)
				for _, c := range content {
					if block, _ := c.(map[string]any); block["type"] == "toolCall" {
						toolCalls[str(block["id"])] = true
					}
				}
			}
			if m["role"] == "toolResult" && !toolCalls[str(m["toolCallId"])] {
				t.Errorf("%s: tool result for unknown call %v", where, m["toolCallId"])
			}
		case "label":
			if !seen[str(e["targetId"])] {
				t.Errorf("%s: label targets unknown entry", where)
			}
		case "branch_summary":
			if !seen[str(e["fromId"])] || path[str(e["fromId"])] {
				t.Errorf("%s: fromId must name an earlier entry of another branch", where)
			}
		case "compaction":
			if !path[str(e["firstKeptEntryId"])] {
				t.Errorf("%s: firstKeptEntryId is not on the compaction's path", where)
			}
		}
		seen[id] = true
	}
}

func TestMainSessionCoversEveryShape(t *testing.T) {
	layout := unpackForTest(t)
	counts := map[string]int{}
	var branchPoints int
	for _, sf := range sessionFiles(t, layout) {
		children := map[string]int{}
		for _, e := range sf.entries {
			counts[str(e["type"])]++
			children[str(e["parentId"])]++
			switch e["type"] {
			case "custom":
				counts["custom:"+str(e["customType"])]++
			case "message":
				m, _ := e["message"].(map[string]any)
				counts["role:"+str(m["role"])]++
				if _, ok := m["sections"]; ok {
					counts["system-with-sections"]++
				}
				content, _ := m["content"].([]any)
				for _, c := range content {
					block, _ := c.(map[string]any)
					counts["block:"+str(block["type"])]++
				}
			}
		}
		for _, n := range children {
			if n > 1 {
				branchPoints++
			}
		}
	}
	for _, want := range []string{
		"model_change", "thinking_level_change", "branch_summary", "compaction", "label", "session_info", "usage",
		"custom_message", "role:system", "system-with-sections", "role:user", "role:assistant", "role:toolResult",
		"role:bashExecution", "role:custom", "block:thinking", "block:toolCall", "block:text",
		"custom:pi-forge-prompt-stack-state", "custom:pi-forge-agent-profile-state", "custom:pi-forge-capability-event",
		"custom:pi-forge-capability-tools", "custom:pi-forge-capability-delivery",
		"custom:pi-subagent/tree-v2", "custom:pi-subagent/registration-v2", "custom:pi-subagent/descriptor",
	} {
		if counts[want] == 0 {
			t.Errorf("no session shows %s", want)
		}
	}
	if counts["label"] < 2 || branchPoints < 1 {
		t.Errorf("want at least 2 labels and a branch point, got %d labels and %d branch points", counts["label"], branchPoints)
	}
}
