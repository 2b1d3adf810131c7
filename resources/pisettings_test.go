package resources

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPiThinkingSettingsProjectOverGlobal(t *testing.T) {
	agent, cwd := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(cwd, ".pi"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agent, "settings.json"), []byte(`{"defaultThinkingLevel":"medium","modelThinkingLevels":{"openai/gpt-5.4":"high","a/b":"low"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, ".pi", "settings.json"), []byte(`{"modelThinkingLevels":{"a/b":"minimal"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := PiThinkingSettings(Workspace{AgentDir: agent, Cwd: cwd})
	if got := s.ForModel("openai", "gpt-5.4"); got != "high" {
		t.Fatalf("per-model: %q", got)
	}
	if got := s.ForModel("a", "b"); got != "minimal" {
		t.Fatalf("project over global: %q", got)
	}
	if got := s.ForModel("x", "y"); got != "medium" {
		t.Fatalf("default: %q", got)
	}
	if got := PiThinkingSettings(Workspace{AgentDir: t.TempDir(), Cwd: t.TempDir()}).ForModel("x", "y"); got != "" {
		t.Fatalf("no settings: %q", got)
	}
}
