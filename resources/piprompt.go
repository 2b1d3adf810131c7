package resources

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/piprompt"
	"github.com/forgebench/forgebench/engine/preset"
)

// PiPromptFiles are the files Pi reads to build its default system prompt
// besides the context files: SYSTEM.md (replaces the preamble) and
// APPEND_SYSTEM.md (the addendum). Each comes from the trusted project's
// .pi/ directory, else from the agent dir.
type PiPromptFiles struct {
	System       *string // nil = not configured
	SystemPath   string
	Append       string
	AppendPath   string
	ContextFiles []ContextFile
}

// LoadPiPromptFiles reads SYSTEM.md, APPEND_SYSTEM.md and the context files
// for the workspace as Pi 1.6.0 would.
func LoadPiPromptFiles(ws Workspace) (PiPromptFiles, error) {
	var out PiPromptFiles
	pick := func(name string) (string, string, bool, error) {
		var dirs []string
		if ws.Trust.Trusted {
			dirs = append(dirs, filepath.Join(ws.Cwd, ".pi"))
		}
		dirs = append(dirs, ws.AgentDir)
		for _, d := range dirs {
			p := filepath.Join(d, name)
			raw, err := readRegularFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return "", "", false, fmt.Errorf("read %s: %w", name, err)
			}
			return string(raw), p, true, nil
		}
		return "", "", false, nil
	}
	sys, sysPath, ok, err := pick("SYSTEM.md")
	if err != nil {
		return out, err
	}
	if ok {
		out.System, out.SystemPath = &sys, sysPath
	}
	if out.Append, out.AppendPath, _, err = pick("APPEND_SYSTEM.md"); err != nil {
		return out, err
	}
	if out.ContextFiles, err = DiscoverContextFiles(ws.AgentDir, ws.Cwd); err != nil {
		return out, err
	}
	return out, nil
}

// PiDefaultRuntime is what Pi 1.6.0 would hand pi-forge in this workspace
// with its default tools, and the base system prompt Pi would send: context
// files, SYSTEM.md and APPEND_SYSTEM.md as LoadPiPromptFiles finds them,
// model (may be nil) and now as given.
func PiDefaultRuntime(ws Workspace, model *compile.Model, now time.Time) (compile.Runtime, string, error) {
	files, err := LoadPiPromptFiles(ws)
	if err != nil {
		return compile.Runtime{}, "", fmt.Errorf("read Pi's prompt files: %w", err)
	}
	rt, base := files.Runtime(ws.Cwd, model, now, nil)
	return rt, base, nil
}

// Runtime is the runtime and base prompt Pi 1.6.0 builds from these files
// for cwd with the given tools selected (nil = Pi's default tools): the
// built-in tools' snippets, the selected ones' guidelines and the tools
// section of the prompt follow the selection. It is pure, so a preview can
// call it for every draft (a Preset's policy changes the selection).
func (f PiPromptFiles) Runtime(cwd string, model *compile.Model, now time.Time, selected []string) (compile.Runtime, string) {
	ctx := make([]compile.ContextFile, len(f.ContextFiles))
	promptCtx := make([]piprompt.ContextFile, len(f.ContextFiles))
	for i, c := range f.ContextFiles {
		ctx[i] = compile.ContextFile{Path: c.Path, Content: c.Content}
		promptCtx[i] = piprompt.ContextFile{Path: c.Path, Content: c.Content}
	}
	var appendPrompt *string
	if f.Append != "" {
		appendPrompt = &f.Append
	}
	rt := compile.DefaultRuntime(compile.DefaultRuntimeInput{
		Cwd: cwd, ContextFiles: ctx, AppendSystemPrompt: appendPrompt, Model: model, Now: now,
		SelectedTools: selected,
	})
	var tools []piprompt.Tool
	for _, name := range rt.Options.SelectedTools {
		for _, t := range compile.BuiltinTools {
			if t.Name == name {
				tools = append(tools, piprompt.Tool{Name: t.Name, Snippet: t.Snippet, Guidelines: t.Guidelines})
			}
		}
	}
	base := piprompt.Build(piprompt.Input{
		CustomPrompt: f.System, Tools: tools, Addendum: f.Append,
		ContextFiles: promptCtx, Cwd: cwd,
	})
	return rt, base
}

// PiFreshSessionRuntime is PiDefaultRuntime for a fresh session with the
// Preset policy applied: the selected tools are what the session starts
// with (compile.FreshSessionTools), and Pi's prompt lists those.
func PiFreshSessionRuntime(ws Workspace, model *compile.Model, now time.Time, policy *preset.ResourcePolicy) (compile.Runtime, string, compile.ToolSelection, error) {
	files, err := LoadPiPromptFiles(ws)
	if err != nil {
		return compile.Runtime{}, "", compile.ToolSelection{}, fmt.Errorf("read Pi's prompt files: %w", err)
	}
	sel := compile.FreshSessionTools(policy)
	rt, base := files.Runtime(ws.Cwd, model, now, sel.Tools)
	return rt, base, sel, nil
}
