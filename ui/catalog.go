package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session/catalog"
)

// catalogLoadedMsg reports the workspace's model catalog load: the problems
// of models.json, which the panels' own asks (Services.Catalog) do not show.
type catalogLoadedMsg struct{ diags []catalog.Diagnostic }

// loadCatalogCmd loads the model catalog of the agent directory once at
// start, so its diagnostics reach the footer as the CLI prints them on
// stderr; the panels then share the loaded catalog.
func loadCatalogCmd(svc *services.Services) tea.Cmd {
	return func() tea.Msg {
		_, diags := svc.Catalog()
		return catalogLoadedMsg{diags: diags}
	}
}

// catalogStatus is the footer text for models.json diagnostics ("" when
// there are none): the first problem and how many more there are.
func catalogStatus(diags []catalog.Diagnostic) string {
	if len(diags) == 0 {
		return ""
	}
	text := sanitize.Line(diags[0].Line()) // Pi's diagnostic, as Pi words it
	if len(diags) > 1 {
		return i18n.T("%s (+%d more) — built-in models only", text, len(diags)-1)
	}
	return i18n.T("%s — built-in models only", text)
}
