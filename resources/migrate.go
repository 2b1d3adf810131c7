package resources

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MigrationAction is what MigrateStacks did (or would do) with one file.
type MigrationAction string

// Migration actions.
const (
	MigrateCopy      MigrationAction = "copy"
	MigrateOverwrite MigrationAction = "overwrite"
	MigrateSkip      MigrationAction = "skip"
	MigrateError     MigrationAction = "error"
)

// MigrationFile is the report line of one legacy file.
type MigrationFile struct {
	Name         string
	SourcePath   string
	TargetPath   string
	Action       MigrationAction
	Reason       string // "" when none
	DeleteLegacy bool   // the legacy file is (or, in a dry run, would be) deleted
}

// MigrationReport is the outcome of MigrateStacks, per file and in total.
type MigrationReport struct {
	SourceDir, TargetDir            string
	DryRun, Overwrite, DeleteLegacy bool
	Files                           []MigrationFile
	Copied, Overwritten, Skipped    int
	Errors, DeletedLegacy           int
}

// Reasons used in migration reports (pi-forge's wording).
const (
	reasonTargetExists = "target already exists"
	reasonUnsafePath   = "Migration path is outside prompt-stack storage or traverses a symbolic link."
)

// MigrateStacks copies the legacy .pi/prompt-stacks/*.json files into
// .pi/forge/prompt-stacks (/preset migrate-stacks, §14.1, §15.2). Existing
// targets are skipped unless overwrite; deleteLegacy removes each legacy
// file after its copy; dryRun reports without writing. Copies are atomic:
// a new target is created exclusively, an overwritten one is replaced with
// WriteFileAtomic. An untrusted project is refused with ErrUntrusted,
// except for a dry run, which pi-forge allows because it writes nothing.
func MigrateStacks(ws Workspace, dryRun, overwrite, deleteLegacy bool) (MigrationReport, error) {
	r := MigrationReport{
		SourceDir: LegacyPresetsDir(ws.Cwd), TargetDir: StorageDir(ws, KindPreset, ScopeProject),
		DryRun: dryRun, Overwrite: overwrite, DeleteLegacy: deleteLegacy,
	}
	if !ws.Trust.Trusted && !dryRun { // pi-forge still reports a dry run
		return r, newError(ErrUntrusted, "pi-forge: project is not trusted; refusing to migrate prompt stacks.")
	}
	entries, err := os.ReadDir(r.SourceDir)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		r.Files = append(r.Files, MigrationFile{Name: "(legacy directory)", SourcePath: r.SourceDir, TargetPath: r.TargetDir,
			Action: MigrateError, Reason: err.Error()})
		r.Errors++
		return r, nil
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sortNames(names)
	for _, name := range names {
		r.migrateOne(ws, name)
	}
	return r, nil
}

func (r *MigrationReport) migrateOne(ws Workspace, name string) {
	f := MigrationFile{Name: name, SourcePath: filepath.Join(r.SourceDir, name), TargetPath: filepath.Join(r.TargetDir, name)}
	_, statErr := os.Stat(f.TargetPath)
	exists := statErr == nil
	if exists && !r.Overwrite {
		f.Action, f.Reason = MigrateSkip, reasonTargetExists
		r.Files = append(r.Files, f)
		r.Skipped++
		return
	}
	f.Action = MigrateCopy
	if exists {
		f.Action = MigrateOverwrite
	}
	if traversesSymlink(ws.Cwd, f.SourcePath, false) || traversesSymlink(ws.Cwd, f.TargetPath, false) {
		f.Action, f.Reason, f.DeleteLegacy = MigrateError, reasonUnsafePath, r.DeleteLegacy
		r.Files = append(r.Files, f)
		r.Errors++
		return
	}
	if !r.DryRun {
		if err := copyStack(f.SourcePath, f.TargetPath, exists); err != nil {
			f.Action, f.Reason = MigrateError, err.Error()
			r.Files = append(r.Files, f)
			r.Errors++
			return
		}
		if r.DeleteLegacy {
			if err := os.Remove(f.SourcePath); err != nil {
				f.Action, f.Reason = MigrateError, err.Error()
				r.Files = append(r.Files, f)
				r.Errors++
				return
			}
			syncDir(r.SourceDir)
			r.DeletedLegacy++
		}
	}
	f.DeleteLegacy = r.DeleteLegacy
	if f.Action == MigrateOverwrite {
		r.Overwritten++
	} else {
		r.Copied++
	}
	r.Files = append(r.Files, f)
}

// copyStack copies the raw bytes of one legacy file (no normalization).
func copyStack(src, dst string, overwrite bool) error {
	data, err := readRegularFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if overwrite {
		return WriteFileAtomic(dst, data, 0o644)
	}
	if err := createExclusive(dst, data, 0o644); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errors.New(reasonTargetExists)
		}
		return err
	}
	return nil
}

// Render formats the report as plain text for the CLI.
func (r MigrationReport) Render() string {
	var b strings.Builder
	mode := "write"
	if r.DryRun {
		mode = "dry run"
	}
	fmt.Fprintf(&b, "Source: %s\nTarget: %s\nMode: %s\n", r.SourceDir, r.TargetDir, mode)
	fmt.Fprintf(&b, "Copied: %d, overwritten: %d, skipped: %d, errors: %d, legacy files deleted: %d\n",
		r.Copied, r.Overwritten, r.Skipped, r.Errors, r.DeletedLegacy)
	if len(r.Files) == 0 {
		b.WriteString("No legacy prompt-stack JSON files found.\n")
	}
	for _, f := range r.Files {
		line := "- " + string(f.Action) + ": " + f.Name
		if f.Reason != "" {
			line += " (" + f.Reason + ")"
		}
		if f.DeleteLegacy && f.Action != MigrateError {
			line += " [legacy delete]"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
