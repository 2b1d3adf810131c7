package main

import "fmt"

// VersionCmd prints the build information injected at link time.
type VersionCmd struct{}

// Run prints "forgebench <version> (commit <commit>, built <date>)".
func (c *VersionCmd) Run(g *Globals) error {
	_, err := fmt.Fprintf(g.stdout, "forgebench %s (commit %s, built %s)\n", version, commit, date)
	return err
}
