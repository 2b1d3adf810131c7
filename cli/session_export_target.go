package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
)

// beforeExportPublish runs between building an export and publishing it;
// tests use it to line up concurrent exports at the moment of the race.
var beforeExportPublish = func() {}

// checkExportTarget refuses (exit 4) an -o target that an export must not
// write: the session being exported, a symbolic link (replacing it would
// replace the link), a FIFO, device or directory (a rename would turn it
// into a regular file), anything inside Pi's agent directory, a custom
// session directory, the global pi-forge directory or any project's .pi
// directory, and — unless force — any existing file. It runs before the
// export is built, so a refused command does no work, and again, on what
// is there at that moment, when the export is published.
func (g *Globals) checkExportTarget(input, output string, force bool) error {
	abs, err := filepath.Abs(output)
	if err != nil {
		return i18n.Errorf("export target %s: %w", sanitize.Line(output), err)
	}
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fi = nil
	case err != nil:
		return i18n.Errorf("export target %s: %w", sanitize.Line(output), err)
	}
	return g.checkExportTargetInfo(input, output, abs, fi, force)
}

// checkExportTargetInfo is checkExportTarget on what an Lstat of the
// absolute target abs found (nil: nothing there).
func (g *Globals) checkExportTargetInfo(input, output, abs string, fi fs.FileInfo, force bool) error {
	shown := sanitize.Line(output)
	if fi != nil {
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return failErr(exitRefused, i18n.Errorf("refusing to write %s: it is a symbolic link, and writing would replace the link itself; name the file it points to", shown))
		case !fi.Mode().IsRegular():
			return failErr(exitRefused, i18n.Errorf("refusing to write %s: it is a %s, not a regular file", shown, session.FileKind(fi.Mode())))
		}
		if in, err := os.Stat(input); err == nil && os.SameFile(in, fi) {
			return failErr(exitRefused, i18n.Errorf("refusing to write %s: it is the session being exported", shown))
		}
	}
	if dir, what, ok := g.protectedDirOf(abs); ok {
		return failErr(exitRefused, i18n.Errorf("refusing to write %s: it is inside %s (%s); exports never go there", shown, sanitize.Line(dir), i18n.T(what)))
	}
	if parent := filepath.Dir(abs); fi == nil {
		if st, err := os.Stat(parent); err != nil || !st.IsDir() {
			return failErr(exitFailed, i18n.Errorf("cannot write %s: the directory %s does not exist", shown, sanitize.Line(filepath.Dir(output))))
		}
	}
	if fi != nil && !force {
		return failErr(exitRefused, i18n.Errorf("refusing to replace %s: the file exists (pass --force to replace it)", shown))
	}
	return nil
}

// publishExport writes data to the -o target. The target is checked again
// on what is there now and replaced in the same locked step
// (resources.ReplaceFile); a target that does not exist is created with
// an exclusive rename, so of several exports racing for one new file
// exactly one writes it and the others find it exists.
func (g *Globals) publishExport(input, output string, force bool, data []byte) error {
	abs, err := filepath.Abs(output)
	if err != nil {
		return i18n.Errorf("export target %s: %w", sanitize.Line(output), err)
	}
	beforeExportPublish()
	for attempt := 0; ; attempt++ {
		err = resources.ReplaceFile(abs, data, 0o644, func(fi fs.FileInfo) error {
			return g.checkExportTargetInfo(input, output, abs, fi, force)
		})
		switch {
		case err == nil:
			return nil
		case errors.Is(err, fs.ErrExist) && force && attempt == 0:
			continue // created since the look: check it and replace it
		case errors.Is(err, fs.ErrExist):
			return failErr(exitRefused, i18n.Errorf("refusing to replace %s: the file exists (it appeared while exporting; pass --force to replace it)", sanitize.Line(output)))
		case errors.Is(err, resources.ErrTargetChanged):
			return failErr(exitConflict, i18n.Errorf("%s changed while the export was written; it was left as it is", sanitize.Line(output)))
		}
		return err
	}
}

// protectedDirOf returns the directory holding Pi's or pi-forge's files
// that path lies in, if any: Pi's agent directory (sessions, settings,
// auth, models, role files), a custom session directory, the global forge
// directory, and any directory named .pi (a project's settings, forge
// resources and legacy prompt stacks, this project's or another's). Paths
// are compared after resolving symbolic links.
func (g *Globals) protectedDirOf(path string) (dir, what string, ok bool) {
	target := resolveExisting(path)
	for cur := filepath.Dir(target); ; cur = filepath.Dir(cur) {
		if filepath.Base(cur) == ".pi" {
			return cur, i18n.Mark("a Pi project or user directory"), true
		}
		if filepath.Dir(cur) == cur {
			break
		}
	}
	ws, err := g.workspace()
	if err != nil {
		return "", "", false
	}
	candidates := []struct{ dir, what string }{
		{ws.AgentDir, i18n.Mark("Pi's agent directory")},
		{ws.ForgeDir, i18n.Mark("the global pi-forge directory")},
		{filepath.Join(ws.Cwd, ".pi", "forge"), i18n.Mark("the project's pi-forge directory")},
		{resources.LegacyPresetsDir(ws.Cwd), i18n.Mark("the project's legacy prompt-stack directory")},
	}
	if loc, _, err := g.sessionLocations(""); err == nil {
		candidates = append(candidates, struct{ dir, what string }{loc.SessionsRoot(), i18n.Mark("Pi's sessions directory")})
		if loc.SessionDir != "" {
			candidates = append(candidates, struct{ dir, what string }{loc.SessionDir, i18n.Mark("Pi's custom session directory")})
		}
	}
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
