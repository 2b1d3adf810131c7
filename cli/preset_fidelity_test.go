package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// demoSessionFile is the path of the demo session whose id starts with prefix.
func demoSessionFile(t *testing.T, sessionDir, prefix string) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(sessionDir, "*_"+prefix+"*.jsonl"))
	if len(matches) != 1 {
		t.Fatalf("demo session %s: %v", prefix, matches)
	}
	return matches[0]
}

// TestPreviewWithoutSessionIsAFreshSession: without --session the runtime
// is what a fresh session starts with, tools.initial and a selective allow
// applied (issue 14, disagreement 1).
func TestPreviewWithoutSessionIsAFreshSession(t *testing.T) {
	args, _ := demoArgs(t)
	file := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(file, []byte(`{"schemaVersion":2,"id":"p","tools":{"allow":["read","ls","bash","edit"],"initial":["read","ls"]},
		"items":[{"kind":"block","id":"b","role":"system","content":"{{ runtime.selectedToolsText }} | {% if runtime.tool.bash %}yes{% endif %}"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, in(args, "preset", "preview", file)...)
	if code != exitOK || !strings.Contains(out, "\n  read, ls |\n") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "(tools read, ls from tools.initial)") {
		t.Fatalf("the source does not name the tools: %s", errOut)
	}
	// Selective allow without initial picks from the whole catalogue (ls
	// is not among Pi's default tools).
	if err := os.WriteFile(file, []byte(`{"schemaVersion":2,"id":"p","tools":{"allow":["ls","read"]},
		"items":[{"kind":"block","id":"b","role":"system","content":"{{ runtime.selectedToolsText }}"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := runCLI(t, in(args, "preset", "preview", file)...); !strings.Contains(out, "\n  read, ls\n") {
		t.Fatalf("selective allow:\n%s", out)
	}
	code, out, errOut = runCLI(t, in(args, "preset", "preview", "guarded-worker")...)
	if code != exitOK || !strings.Contains(out, "Start read-only") || strings.Contains(out, "Write tools are enabled") ||
		!strings.Contains(out, "tools available now: read, grep, ls, forge_capability.") {
		t.Fatalf("guarded-worker: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestPreviewShowsPiSystemMessagesAsPiForgeDoes: the leading System message
// holds the compiled prompt, tool declarations are history, no empty card
// (issue 14, disagreement 2).
func TestPreviewShowsPiSystemMessagesAsPiForgeDoes(t *testing.T) {
	args, layout := demoArgs(t)
	file := demoSessionFile(t, layout.SessionDir, "01a21c48")
	code, out, errOut := runCLI(t, in(args, "preset", "preview", "guarded-worker", "--session", file)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "(empty)") {
		t.Fatalf("an empty card is shown:\n%s", out)
	}
	if !strings.Contains(out, "#1 system · Conversation 1/21 · ~0 tokens\n  (content: the compiled system prompt above)\n  tools declared then: +read +grep +ls +forge_capability (history, not the current selection)") {
		t.Fatalf("leading System card:\n%s", out)
	}
	if !strings.Contains(out, "tools declared then: +edit +write +bash (history, not the current selection)") {
		t.Fatalf("the later declaration is missing:\n%s", out)
	}
	code, out, _ = runCLI(t, in(args, "preset", "preview", "guarded-worker", "--session", file, "--json")...)
	var doc struct {
		Messages []struct {
			Kind   string `json:"kind"`
			System *struct {
				Leading         bool     `json:"leading"`
				ToolsAdded      []string `json:"toolsAdded"`
				ToolsAreHistory bool     `json:"toolsAreHistory"`
			} `json:"system"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitOK {
		t.Fatalf("exit %d %v", code, err)
	}
	first := doc.Messages[0]
	if first.Kind != "system-message" || first.System == nil || !first.System.Leading || !first.System.ToolsAreHistory || len(first.System.ToolsAdded) != 4 {
		t.Fatalf("first part %+v", first)
	}
}
