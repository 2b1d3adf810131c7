package cli

import (
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
)

// savePreflight is pi-forge's 0.5.6 check before the active Preset is
// overwritten: the session's frozen capability snapshots must satisfy the
// new version's tool policy. file is --session ("" = the project's newest
// session; none at all = nothing to check). A conflict is refused (exit
// 4) with what it would break. The check is the services' SavePreflight,
// the one the Presets panel runs before a save.
func savePreflight(g *Globals, file string, drafts []*capability.PresetRef) error {
	if len(drafts) == 0 {
		return nil
	}
	if file == "" {
		it, err := g.newestSession()
		if err != nil {
			return nil // no session of this project: nothing to preflight
		}
		file = it.Path
	} else if err := g.resolveSessionArg(&file); err != nil {
		return err
	}
	s, err := openSession(file)
	if err != nil {
		return err
	}
	if _, err := g.modelCatalog(); err != nil { // reports models.json's problems
		return err
	}
	if _, err := g.loadLibrary(); err != nil { // reports the library's notices
		return err
	}
	conflicts, err := g.svc.SavePreflight(s, drafts...)
	if err != nil {
		return err
	}
	var problems []string
	for _, c := range conflicts {
		problems = append(problems, c.Key.String()+": "+c.Problem)
	}
	if len(problems) > 0 {
		return fail(exitRefused, "pi-forge: saving the active Preset would break the capabilities active in %s: %s; disable the conflicting capability and retry", //i18n:raw pi-forge's words (contract)
			filepath.Base(file), strings.Join(problems, "; "))
	}
	return nil
}

// maxPresetFileBytes bounds the read of a legacy Preset file.
const maxPresetFileBytes = 64 << 20

// legacyDrafts reads the legacy files a migration would overwrite as
// Presets of the project scope.
func legacyDrafts(lib *resources.Library, rep resources.MigrationReport) ([]*capability.PresetRef, error) {
	var out []*capability.PresetRef
	for _, f := range rep.Files {
		if f.Action != resources.MigrateOverwrite {
			continue
		}
		raw, err := session.ReadRegularFile(f.SourcePath, maxPresetFileBytes) // a FIFO in the checkout must not block
		if err != nil {
			return nil, i18n.Errorf("read %s: %w", f.SourcePath, err)
		}
		stack, diags := preset.ParseWith(raw, f.Name, preset.ParseOptions{Scope: preset.ScopeProject})
		ref := &capability.PresetRef{Key: capability.Key{Scope: preset.ScopeProject, ID: stack.ID}, Stack: stack,
			Bindings: capability.ResolveBindings(stack, preset.ScopeProject, lib.CapabilityCatalog())}
		for _, d := range diags {
			if d.Level == preset.LevelError {
				ref.Error = d.Message
				break
			}
		}
		out = append(out, ref)
	}
	return out, nil
}
