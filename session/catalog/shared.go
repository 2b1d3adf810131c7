package catalog

import (
	"os"
	"path/filepath"
	"sync"
	"time"
)

// fileVersion identifies one state of models.json without reading it.
type fileVersion struct {
	exists bool
	size   int64
	mod    time.Time
}

type sharedEntry struct {
	version fileVersion
	cat     *Catalog
	diags   []Diagnostic
}

var shared struct {
	sync.Mutex
	byDir map[string]*sharedEntry
}

// Shared is the one way the CLI and the TUI get the model catalog of an
// agent directory. models.json is read once per agent directory and file
// version (size and modification time, checked with one stat per call), so
// every panel and command share one catalog and its lookup cache, and an
// edited file is seen on the next call.
//
// It never fails. Following Pi, a models.json that cannot be read, is not
// JSON or breaks the schema is ignored as a whole (the built-in models
// alone) and its problems come back as diagnostics, which callers show: the
// CLI on stderr, the TUI as a status message. agentDir "" is the built-in
// catalog.
func Shared(agentDir string) (*Catalog, []Diagnostic) {
	if agentDir == "" {
		return Default(), nil
	}
	var version fileVersion
	if info, err := os.Stat(filepath.Join(agentDir, ModelsFile)); err == nil {
		version = fileVersion{exists: true, size: info.Size(), mod: info.ModTime()}
	}
	shared.Lock()
	defer shared.Unlock()
	if e, ok := shared.byDir[agentDir]; ok && e.version == version {
		return e.cat, e.diags
	}
	cat, diags, err := Load(agentDir)
	if err != nil {
		diags = append(diags, Diagnostic{Message: err.Error() + " (built-in models only)"})
	}
	if shared.byDir == nil {
		shared.byDir = map[string]*sharedEntry{}
	}
	shared.byDir[agentDir] = &sharedEntry{version: version, cat: cat, diags: diags}
	return cat, diags
}

// Line renders the diagnostic for a status line or stderr:
// "models.json <path>: <message>", or "models.json: <message>" for the
// whole file.
func (d Diagnostic) Line() string {
	if d.Path == "" {
		return ModelsFile + ": " + d.Message
	}
	return ModelsFile + " " + d.Path + ": " + d.Message
}
