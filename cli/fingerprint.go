package cli

import (
	"fmt"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
)

// FingerprintCmd prints pi-forge's fingerprints of a JSON document.
type FingerprintCmd struct {
	File      string `arg:"" optional:"" default:"-" help:"JSON file (default: standard input)."`
	Canonical bool   `help:"Also print the canonical JSON the fingerprint hashes."`
	Revision  bool   `help:"Print the sourceRevision (sha256 hex of the raw bytes) instead, as saves and deletes expect it."`
}

// Run prints the sha256:v1 fingerprint of the parsed value (or the raw
// bytes' revision).
func (c *FingerprintCmd) Run(g *Globals) error {
	raw, err := readInput(c.File)
	if err != nil {
		return inputFailed(err)
	}
	if c.Revision {
		_, err := fmt.Fprintln(g.stdout, fingerprint.SourceRevision(raw))
		return err
	}
	v, err := jsonv.Parse(raw)
	if err != nil {
		return fail(exitUsage, "%s: %v", c.File, err)
	}
	fp, err := fingerprint.Fingerprint(v)
	if err != nil {
		return fail(exitFailed, "%v", err)
	}
	if c.Canonical {
		canon, _ := fingerprint.CanonicalJSON(v)
		fmt.Fprintln(g.stdout, canon)
	}
	_, err = fmt.Fprintln(g.stdout, fp)
	return err
}
