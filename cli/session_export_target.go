package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
)

// checkExportTarget refuses (exit 4) an -o target that an export must not
// write: the session being exported, a symbolic link (replacing it would
// replace the link), a FIFO, device or directory (a rename would turn it
// into a regular file), anything inside Pi's session directories or a
// pi-forge directory, and — unless force — any existing file.
func (g *Globals) checkExportTarget(input, output string, force bool) error {
	abs, err := filepath.Abs(output)
	if err != nil {
		return fmt.Errorf("export target %s: %w", sanitize.Line(output), err)
	}
	shown := sanitize.Line(output)
	fi, err := os.Lstat(abs)
	exists := err == nil
	switch {
	case err == nil:
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return fail(exitRefused, "refusing to write %s: it is a symbolic link, and writing would replace the link itself; name the file it points to", shown)
		case !fi.Mode().IsRegular():
			return fail(exitRefused, "refusing to write %s: it is a %s, not a regular file", shown, session.FileKind(fi.Mode()))
		}
		if in, err := os.Stat(input); err == nil && os.SameFile(in, fi) {
			return fail(exitRefused, "refusing to write %s: it is the session being exported", shown)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("export target %s: %w", shown, err)
	}
	if dir, what, ok := g.protectedDirOf(abs); ok {
		return fail(exitRefused, "refusing to write %s: it is inside %s (%s); exports never go there", shown, sanitize.Line(dir), what)
	}
	if exists && !force {
		return fail(exitRefused, "refusing to replace %s: the file exists (pass --force to replace it)", shown)
	}
	return nil
}

// protectedDirOf returns the directory holding Pi's sessions or pi-forge
// resources that path lies in, if any: the agent's sessions directory, a
// custom session directory, the global forge directory and the project's
// .pi/forge and legacy .pi/prompt-stacks. Paths are compared after
// resolving symbolic links.
func (g *Globals) protectedDirOf(path string) (dir, what string, ok bool) {
	ws, err := g.workspace()
	if err != nil {
		return "", "", false
	}
	candidates := []struct{ dir, what string }{
		{ws.ForgeDir, "the global pi-forge directory"},
		{filepath.Join(ws.Cwd, ".pi", "forge"), "the project's pi-forge directory"},
		{resources.LegacyPresetsDir(ws.Cwd), "the project's legacy prompt-stack directory"},
	}
	if loc, _, err := sessionLocations(ws, ""); err == nil {
		candidates = append(candidates, struct{ dir, what string }{loc.SessionsRoot(), "Pi's sessions directory"})
		if loc.SessionDir != "" {
			candidates = append(candidates, struct{ dir, what string }{loc.SessionDir, "Pi's custom session directory"})
		}
	}
	target := resolveExisting(path)
	for _, c := range candidates {
		if c.dir != "" && within(resolveExisting(c.dir), target) {
			return c.dir, c.what, true
		}
	}
	return "", "", false
}

// resolveExisting resolves the symbolic links of the longest existing
// prefix of path and appends the rest unchanged.
func resolveExisting(path string) string {
	path = filepath.Clean(path)
	var rest []string
	for cur := path; ; cur = filepath.Dir(cur) {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real
		}
		if filepath.Dir(cur) == cur {
			return path
		}
		rest = append(rest, filepath.Base(cur))
	}
}

// within reports whether path is dir or lies below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
