package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestModelsJSONProblemsReachTheFooter: a broken models.json is reported
// in the footer, as the CLI reports it on stderr, until the next key.
func TestModelsJSONProblemsReachTheFooter(t *testing.T) {
	agent := t.TempDir()
	if err := os.WriteFile(filepath.Join(agent, "models.json"), []byte(`{"providers": {"x": 1}, "y": "\u001b[2J"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newTestModel(160, 48)
	h := uitest.ForModel(t, m)
	h.UseTimers(m.com)
	h.Send(loadCatalogCmd(services.New(resources.Workspace{AgentDir: agent}))())
	footer := m.footerView()
	if !strings.Contains(ansi.Strip(footer), "models.json providers.x: must be an object") || strings.Contains(footer, "\x1b[2J") {
		t.Fatalf("footer = %q", ansi.Strip(footer))
	}
	h.Press("2")
	if !strings.Contains(m.footerView(), "models.json") {
		t.Fatal("the warning stays for its time to live, not one key")
	}
	h.FireTimers()
	if strings.Contains(m.footerView(), "models.json") {
		t.Fatal("the warning gives way to the help once it expires")
	}

	clean := newTestModel(160, 48)
	clean.Update(loadCatalogCmd(services.New(resources.Workspace{AgentDir: t.TempDir()}))())
	if clean.status.Text() != "" {
		t.Fatalf("no models.json, no status: %q", clean.status.Text())
	}
}
