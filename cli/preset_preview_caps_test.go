package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CLI preview at a session entry carries the capability updates where
// the request would (as the Presets panel's preview does): the demo's
// main session runs GPT-5.4, so they are native system sections, and no
// delivery marker is left among the messages.
func TestPresetPreviewProjectsCapabilityUpdates(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	code, out, errOut := runCLI(t, in(args, "preset", "preview", "guarded-worker", "--session", file, "--json")...)
	if code != exitOK {
		t.Fatalf("preview: %d %s", code, errOut)
	}
	var pv struct {
		Messages []struct {
			Kind, Label, Role, Text string
			Message                 map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &pv); err != nil {
		t.Fatal(err)
	}
	var caps []string
	for _, m := range pv.Messages {
		if m.Message["customType"] == "pi-forge-capability-delivery" {
			t.Error("a delivery marker is left among the messages")
		}
		if m.Kind != "capability" {
			continue
		}
		caps = append(caps, m.Label)
		if m.Role != "system" || !strings.Contains(m.Label, "native system section") || strings.Contains(m.Text, "Updated system prompt section") || m.Text == "" {
			t.Errorf("capability part %+v", m)
		}
	}
	// The compaction checkpoint (plain-english) and the later activation
	// of write-access.
	if len(caps) != 2 || !strings.Contains(caps[0], "checkpoint") {
		t.Fatalf("capability parts: %q", caps)
	}
	// The human form names them too.
	code, out, _ = runCLI(t, in(args, "preset", "preview", "guarded-worker", "--session", file)...)
	if code != exitOK || !strings.Contains(out, "capability checkpoint · native system section") || !strings.Contains(out, "Explain results in plain English first") {
		t.Fatalf("human preview lacks the capability parts:\n%s", out)
	}
	// Given its own messages, the preview has no session delivery to show.
	messages := filepath.Join(t.TempDir(), "messages.json")
	if err := os.WriteFile(messages, []byte(`[{"role":"user","content":"hi","timestamp":1}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, in(args, "preset", "preview", "guarded-worker", "--session", file, "--messages", messages, "--json")...)
	if code != exitOK || strings.Contains(out, `"kind":"capability"`) {
		t.Fatalf("with --messages: %d %s", code, errOut)
	}
}

// An untrusted project previews the plain context (pi-forge strips the
// markers and projects nothing), and the library's notice is said once.
func TestPresetPreviewUntrustedHasNoCapabilityParts(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	code, out, errOut := runCLI(t, in(args, "--no-trust", "preset", "preview", "global:quick-review", "--session", file, "--json")...)
	if code != exitOK || strings.Contains(out, `"kind":"capability"`) || strings.Contains(out, "pi-forge-capability-delivery") {
		t.Fatalf("untrusted preview: %d %s", code, errOut)
	}
	if n := strings.Count(errOut, "project is not trusted"); n != 1 {
		t.Errorf("the untrusted notice is printed %d times:\n%s", n, errOut)
	}
}
