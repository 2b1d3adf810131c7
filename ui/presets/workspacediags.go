package presets

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/ui/common"
)

// ! gathers every diagnostic of the workspace, as pi-forge's /preset
// diagnostics and forgebench preset validate --all do, into one text shown
// whole (y copies it, o pages it): the library's notices, config warnings
// and unreadable directories; every Preset, profile and capability with
// its diagnostics; and what only an extension module can compute — the
// modules in the extension directories, the custom slots Presets name and
// the extension macros their blocks use — which forgebench cannot run
// offline. A macro's value for the preview is supplied with X (macros,
// previewMacros), as --macros does for the CLI, and a custom slot's with X
// on its item (slotvalue.go), as --slots does.

// extensionMacroRE finds {{ extensions.<name> }} references (§8.7).
var extensionMacroRE = regexp.MustCompile(`extensions\.([A-Za-z_][A-Za-z0-9_-]*)`)

// showWorkspaceDiagnostics builds the diagnostics text in a command.
func (m *Model) showWorkspaceDiagnostics() tea.Cmd {
	svc, macros, slots := m.com.Services(), m.macros, m.customSlots
	return common.ShowWhole(common.Whole{Title: i18n.T("workspace diagnostics"), Load: func() (string, error) {
		return workspaceDiagnostics(svc, macros, slots)
	}})
}

// workspaceDiagnostics is the text of the diagnostics view.
func workspaceDiagnostics(svc *services.Services, macros, slotValues map[string]string) (string, error) {
	lib, err := svc.Library()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	diag := func(level preset.Level, msg, where string) {
		mark := "!"
		switch level {
		case preset.LevelError:
			mark = "✗"
		case preset.LevelInfo:
			mark = "i"
		}
		if where != "" {
			where = " [" + where + "]"
		}
		line("  %s %s%s", mark, msg, where)
	}
	errs, warns := 0, 0
	count := func(ds []resources.Diagnostic) {
		for _, d := range ds {
			switch d.Level {
			case preset.LevelError:
				errs++
			case preset.LevelWarning:
				warns++
			}
		}
	}
	section := func(title string) { line("\n%s", title) }
	resource := func(r *resources.Resource) {
		if len(r.Diagnostics) == 0 {
			return
		}
		count(r.Diagnostics)
		line("%s (%s)", r.Key(), r.FileName())
		for _, d := range r.Diagnostics {
			where := d.ItemID
			if where == "" {
				where = d.Field
			}
			diag(d.Level, d.Message, where)
		}
	}

	section(i18n.T("Workspace"))
	for _, n := range lib.Notices {
		line("  ! %s", n)
	}
	for _, w := range lib.Config.Warnings {
		line("  ! %s", w)
	}
	for _, f := range lib.DirFaults {
		line("  ✗ %s", i18n.T("%s %s directory %s: %v", f.Scope, f.Kind, f.Dir, f.Err))
		errs++
	}
	if len(lib.Notices)+len(lib.Config.Warnings)+len(lib.DirFaults) == 0 {
		line("  %s", i18n.T("no notices"))
	}
	section(i18n.T("Presets (%d)", len(lib.Presets)))
	for _, p := range lib.Presets {
		resource(&p.Resource)
	}
	section(i18n.T("Agent profiles (%d)", len(lib.Profiles)))
	for _, p := range lib.Profiles {
		resource(&p.Resource)
	}
	section(i18n.T("Capabilities (%d)", len(lib.Capabilities)))
	for _, c := range lib.Capabilities {
		resource(&c.Resource)
	}

	section(i18n.T("Extension modules (computed by pi-forge at run time, not offline)"))
	modules := extensionModules(lib.Workspace)
	for _, mod := range modules {
		line("  %s", mod)
	}
	if len(modules) == 0 {
		line("  %s", i18n.T("none in .pi/forge/extensions or the global extensions directory"))
	}
	slots, names := extensionUses(lib)
	for _, s := range slots {
		value := i18n.T("the preview renders it empty (X on its item supplies a value)")
		if v, ok := slotValues[s.name]; ok {
			value = i18n.T("preview value %q", v)
		}
		line("  %s", i18n.T("custom slot %s — %s: its output cannot be computed offline; %s", s.name, strings.Join(s.by, ", "), value))
	}
	for _, n := range names {
		value := i18n.T("no preview value (X supplies one)")
		if v, ok := macros[n.name]; ok {
			value = i18n.T("preview value %q", v)
		}
		line("  %s", i18n.T("extension macro extensions.%s — %s: its output cannot be computed offline; %s", n.name, strings.Join(n.by, ", "), value))
	}
	if len(slots)+len(names) == 0 {
		line("  %s", i18n.T("no Preset names a custom slot or an extension macro"))
	}
	head := i18n.T("%d error(s), %d warning(s) in the workspace %s", errs, warns, lib.Workspace.Cwd)
	return head + "\n" + b.String(), nil
}

// extensionModules lists the module files of the extension directories
// (§15: *.ts, *.js, *.mjs, *.cjs or <dir>/index.*), global first; the
// project's only when it is trusted.
func extensionModules(ws resources.Workspace) []string {
	dirs := []string{filepath.Join(ws.ForgeDir, "extensions")}
	if ws.Trust.Trusted {
		dirs = append(dirs, filepath.Join(ws.Cwd, ".pi", "forge", "extensions"))
	}
	var out []string
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			switch {
			case strings.HasPrefix(name, "."):
			case e.IsDir():
				if idx, _ := filepath.Glob(filepath.Join(dir, name, "index.*")); len(idx) > 0 {
					out = append(out, filepath.Join(dir, name)+string(filepath.Separator))
				}
			case slices.Contains([]string{".ts", ".js", ".mjs", ".cjs"}, filepath.Ext(name)):
				out = append(out, filepath.Join(dir, name))
			}
		}
	}
	return out
}

// extensionUse is a name only an extension supplies and the Presets that
// use it.
type extensionUse struct {
	name string
	by   []string
}

// extensionUses are the custom slots (not built in) and the extension
// macros the library's Presets use, sorted by name.
func extensionUses(lib *resources.Library) (slots, macros []extensionUse) {
	slotBy, macroBy := map[string][]string{}, map[string][]string{}
	for _, p := range lib.Presets {
		if p.Stack == nil {
			continue
		}
		for _, it := range p.Stack.Items {
			switch it.Kind {
			case preset.KindSlot:
				if !slices.Contains(compile.BuiltinSlots, it.Slot) && !slices.Contains(slotBy[it.Slot], p.Key()) {
					slotBy[it.Slot] = append(slotBy[it.Slot], p.Key())
				}
			default:
				for _, m := range extensionMacroRE.FindAllStringSubmatch(it.Content, -1) {
					if !slices.Contains(macroBy[m[1]], p.Key()) {
						macroBy[m[1]] = append(macroBy[m[1]], p.Key())
					}
				}
			}
		}
	}
	return sortedUses(slotBy), sortedUses(macroBy)
}

func sortedUses(by map[string][]string) []extensionUse {
	out := make([]extensionUse, 0, len(by))
	for name, keys := range by {
		out = append(out, extensionUse{name: name, by: keys})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// promptMacro asks for an extension macro's preview value as name=value
// (an empty value removes it).
func (m *Model) promptMacro() tea.Cmd {
	d := newPrompt(m, i18n.T("Extension macro value for the preview"), i18n.T("forgebench cannot run extension modules, so {{ extensions.NAME }} renders only with a value supplied here (as --macros does for the CLI): enter name=value; name= removes the value. ! lists the macros the Presets use."), "", nil)
	d.input.Prompt = i18n.T("macro: ")
	d.freeText = true
	d.onYes = func(m *Model, text string) tea.Cmd { return m.setMacro(text) }
	m.openDialog(d)
	return d.input.Focus()
}

// setMacro takes "name=value": the preview compiles with the new values.
func (m *Model) setMacro(text string) tea.Cmd {
	name, value, ok := strings.Cut(text, "=")
	name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "extensions."))
	if !ok || !extensionNameRE.MatchString(name) {
		m.setStatus(i18n.T("give the macro as name=value (a name is a letter or _, then letters, digits, _ -)"), true)
		return nil
	}
	next := make(map[string]string, len(m.macros)+1)
	for k, v := range m.macros {
		next[k] = v
	}
	if value == "" {
		delete(next, name)
		m.setStatus(i18n.T("extensions.%s has no preview value now", name), false)
	} else {
		next[name] = value
		m.setStatus(i18n.T("the preview renders extensions.%s as the value you gave", name), false)

	}
	m.macros = next
	return m.schedulePreview()
}

// extensionNameRE is a valid extension name (§8.7).
var extensionNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
