package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSharedLoadsOncePerFileVersion(t *testing.T) {
	dir := t.TempDir()
	a, diags := Shared(dir)
	if a != Default() || len(diags) != 0 {
		t.Fatalf("no models.json: want the built-in catalog, got %p %v", a, diags)
	}
	path := filepath.Join(dir, ModelsFile)
	write := func(text string, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	base := time.Now().Add(-time.Hour)
	write(`{"providers":{"ollama":{"baseUrl":"http://localhost:11434/v1","api":"openai-completions","apiKey":"x","models":[{"id":"llama3"}]}}}`, base)
	b, diags := Shared(dir)
	if len(diags) != 0 {
		t.Fatalf("valid file: %v", diags)
	}
	if _, ok := b.Lookup("ollama", "llama3"); !ok {
		t.Fatal("the custom model of models.json is missing")
	}
	if again, _ := Shared(dir); again != b {
		t.Fatal("an unchanged file must give the same catalog (one load per version)")
	}
	write(`{"providers": nope}`, base.Add(time.Minute))
	c, diags := Shared(dir)
	if c == b || len(diags) == 0 || !strings.HasPrefix(diags[0].Line(), "models.json: invalid JSON") {
		t.Fatalf("an edited, broken file: catalog reused=%v diags=%v", c == b, diags)
	}
	if _, ok := c.Lookup("ollama", "llama3"); ok {
		t.Fatal("a broken models.json is ignored as a whole")
	}
	if again, againDiags := Shared(dir); again != c || len(againDiags) != len(diags) {
		t.Fatal("the diagnostics stay with the cached version")
	}
}

func TestSharedUnreadableFileIsADiagnostic(t *testing.T) {
	dir := t.TempDir()
	// A directory in place of the file: it exists but cannot be read, for
	// any user (root included).
	if err := os.Mkdir(filepath.Join(dir, ModelsFile), 0o755); err != nil {
		t.Fatal(err)
	}
	cat, diags := Shared(dir)
	if cat != Default() || len(diags) != 1 || !strings.Contains(diags[0].Line(), "built-in models only") {
		t.Fatalf("unreadable models.json: %p %v", cat, diags)
	}
}

func TestDiagnosticLine(t *testing.T) {
	if got := (Diagnostic{Path: "providers.x", Message: "must be an object"}).Line(); got != "models.json providers.x: must be an object" {
		t.Errorf("Line = %q", got)
	}
	if got := (Diagnostic{Message: "invalid JSON: x"}).Line(); got != "models.json: invalid JSON: x" {
		t.Errorf("Line = %q", got)
	}
}
