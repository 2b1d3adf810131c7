package resources

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/piprompt"
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
	ctx := make([]compile.ContextFile, len(files.ContextFiles))
	promptCtx := make([]piprompt.ContextFile, len(files.ContextFiles))
	for i, f := range files.ContextFiles {
		ctx[i] = compile.ContextFile{Path: f.Path, Content: f.Content}
		promptCtx[i] = piprompt.ContextFile{Path: f.Path, Content: f.Content}
	}
	var appendPrompt *string
	if files.Append != "" {
		appendPrompt = &files.Append
	}
	rt := compile.DefaultRuntime(compile.DefaultRuntimeInput{
		Cwd: ws.Cwd, ContextFiles: ctx, AppendSystemPrompt: appendPrompt, Model: model, Now: now,
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
		CustomPrompt: files.System, Tools: tools, Addendum: files.Append,
		ContextFiles: promptCtx, Cwd: ws.Cwd,
	})
	return rt, base, nil
}
