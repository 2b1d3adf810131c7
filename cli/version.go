package cli

import (
	"fmt"

	"github.com/forgebench/forgebench/i18n"
)

// Build information, injected by release builds with
// -ldflags "-X github.com/forgebench/forgebench/cli.version=… -X …cli.commit=… -X …cli.date=…"
// (.goreleaser.yaml; TestReleaseLdflagsPointAtRealSymbols keeps the paths honest).
var (
	version = "dev"
	commit  = "none"
	date    = "unknown"
)

// VersionCmd prints the build information injected at link time.
type VersionCmd struct{}

// Run prints "forgebench <version> (commit <commit>, built <date>)".
func (c *VersionCmd) Run(g *Globals) error {
	_, err := fmt.Fprintln(g.stdout, i18n.T("forgebench %s (commit %s, built %s)", version, commit, date))
	return err
}
