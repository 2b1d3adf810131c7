package main

import (
	"fmt"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/resources"
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
		return fail(exitUsage, "%v", err)
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

// CapabilityNewCmd creates a capability.
type CapabilityNewCmd struct {
	ID          string   `arg:"" help:"Id of the new capability."`
	Scope       string   `help:"Where to create it." enum:"project,global" default:"project"`
	Name        string   `help:"Display name."`
	Description string   `help:"One-line description."`
	Content     string   `help:"Instruction text (literal, never a template); - reads it from standard input." placeholder:"TEXT"`
	Add         []string `help:"Tool the capability adds while active (repeatable)." placeholder:"TOOL"`
	Remove      []string `help:"Tool the capability removes while active (repeatable)." placeholder:"TOOL"`
	JSON        bool     `name:"json" help:"Print {scope, id, path, sourceRevision}."`
}

// Run validates and creates the file exclusively.
func (c *CapabilityNewCmd) Run(g *Globals) error {
	if err := checkNewID(c.ID); err != nil {
		return err
	}
	content := c.Content
	if content == "-" {
		raw, err := readInput("-")
		if err != nil {
			return fail(exitUsage, "%v", err)
		}
		content = string(raw)
	}
	doc := jsonv.NewObject()
	doc.Set("schemaVersion", float64(1))
	doc.Set("type", capability.Type)
	doc.Set("id", c.ID)
	if c.Name != "" {
		doc.Set("name", c.Name)
	}
	if c.Description != "" {
		doc.Set("description", c.Description)
	}
	doc.Set("content", content)
	tools := jsonv.NewObject()
	tools.Set("add", stringsJSON(c.Add))
	tools.Set("remove", stringsJSON(c.Remove))
	doc.Set("tools", tools)
	cp, diags := capability.ParseValue(doc, c.ID)
	if diags.HasErrors() {
		for _, d := range diags {
			fmt.Fprintf(g.stderr, "%s: %s\n", d.Level, d.Message)
		}
		return fail(exitFailed, "capability %s is not valid", c.ID)
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	if err := lib.IDTaken(resources.KindCapability, parseScope(c.Scope), c.ID); err != nil {
		return libraryError(err)
	}
	res, err := resources.CreateCapability(lib.Workspace, parseScope(c.Scope), cp)
	if err != nil {
		return libraryError(err)
	}
	return writeResult(g, c.JSON, c.Scope, c.ID, res)
}
