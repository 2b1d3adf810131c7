package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// SessionForkCmd writes a new session from the root→entry path of another,
// exactly as Pi's createBranchedSession (behind /fork) does.
type SessionForkCmd struct {
	File   string `arg:"" help:"Session to fork: a file (.jsonl), a session id or a unique prefix of one." predictor:"session"`
	Leaf   string `name:"leaf" help:"Entry to fork from (default: the session's leaf, its last entry)." placeholder:"ENTRY" predictor:"entry"`
	JSON   bool   `name:"json" help:"Print {file, sessionId, parentSession, command}; with --dry-run, the lines the new file would hold."`
	DryRun bool   `name:"dry-run" help:"Print the entries that would be written and write nothing."`
}

// Run plans the fork, writes it next to the source (exclusive create; the
// source is only read) and says how to continue it in Pi. An untrusted
// project and an entry Pi cannot fork from are refused (exit 4).
func (c *SessionForkCmd) Run(g *Globals) error {
	if err := g.resolveSessionArg(&c.File); err != nil {
		return err
	}
	path := c.File
	s, err := openSession(path)
	if err != nil {
		return err
	}
	ws, err := g.bindSessionProject(s, path)
	if err != nil {
		return err
	}
	if !ws.Trust.Trusted {
		return failErr(exitRefused, i18n.Errorf("the session's project %s is not trusted (%s): forgebench does not fork its sessions (--trust trusts it for one run)", ws.Cwd, ws.Trust.Source))
	}
	leaf := s.LeafIndex()
	if c.Leaf != "" {
		i, ok := s.IndexOf(c.Leaf)
		if !ok {
			return failErr(exitRefused, i18n.Errorf("no entry %s in %s: Pi cannot fork from it; nothing was written", sanitize.Line(c.Leaf), sanitize.Line(path)))
		}
		leaf = i
	}
	if leaf < 0 {
		return failErr(exitRefused, i18n.Errorf("%s has no entries: Pi cannot fork from it; nothing was written", sanitize.Line(path)))
	}
	f, err := session.PlanFork(s, leaf, session.ForkOptions{Cwd: ws.Cwd})
	if errors.Is(err, session.ErrCannotFork) {
		return failErr(exitRefused, i18n.Errorf("%s: %s; nothing was written", sanitize.Line(path), sanitize.Line(err.Error())))
	}
	if err != nil {
		return err
	}
	if c.DryRun {
		return c.printDryRun(g, f)
	}
	if err := writeFork(path, f); err != nil {
		return err
	}
	if c.JSON {
		out := jsonv.NewObject()
		out.Set("file", f.File)
		out.Set("sessionId", f.SessionID)
		out.Set("parentSession", f.Source)
		out.Set("command", f.Command())
		_, err := fmt.Fprintln(g.stdout, jsonv.Stringify(out))
		return err
	}
	fmt.Fprint(g.stdout, i18n.T("forked %d entries of %s at entry %s into\n%s\n", len(f.Entries), sanitize.Line(filepath.Base(f.Source)), sanitize.Line(f.LeafID), sanitize.Line(f.File)))
	fmt.Fprint(g.stdout, i18n.T("continue it in Pi: %s\n", sanitize.Line(f.Command())))
	return nil
}

// writeFork writes a planned fork with an exclusive create (temporary
// file, fsync, rename that never replaces), with the permissions of the
// source file at path. A name that is taken is a conflict (exit 3).
func writeFork(path string, f *session.Fork) error {
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	err := resources.WriteFileExclusive(f.File, f.Data, perm)
	if errors.Is(err, fs.ErrExist) {
		return failErr(exitConflict, i18n.Errorf("%s already exists; nothing was written", sanitize.Line(f.File)))
	}
	if err != nil {
		return i18n.Errorf("write the fork %s: %w", sanitize.Line(f.File), err)
	}
	return nil
}

// printDryRun prints what the fork would write: with --json the file's
// lines exactly, else one line per entry.
func (c *SessionForkCmd) printDryRun(g *Globals, f *session.Fork) error {
	if c.JSON {
		_, err := g.stdout.Write(f.Data)
		return err
	}
	w := g.stdout
	fmt.Fprint(w, i18n.T("would write %s (%d entries after the header; nothing was written)\n", sanitize.Line(f.File), len(f.Entries)))
	fmt.Fprint(w, i18n.T("header  session %s  parentSession %s\n", sanitize.Line(f.SessionID), sanitize.Line(f.Source)))
	for _, e := range f.Entries {
		note := i18n.T("line %d", e.SourceLine)
		switch {
		case e.Relabel:
			note = i18n.T("label re-written from line %d", e.SourceLine)
		case e.Rechained:
			note = i18n.T("line %d, parent re-chained past a label", e.SourceLine)
		}
		parent := e.ParentID
		if parent == "" {
			parent = i18n.T("(root)")
		}
		fmt.Fprint(w, i18n.T("%-8s %-21s parent %-8s  %s\n", sanitize.Clip(e.ID, 36), sanitize.Clip(e.Type, 21), common.PadRight(sanitize.Clip(parent, 36), 8), note)) // the parent padded by display width: "(root)" may be Chinese
	}
	return nil
}
