package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/forgev1"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/piprompt"
	"github.com/forgebench/forgebench/resources"
)

// readInput reads a file, or standard input for "-".
func readInput(path string) ([]byte, error) {
	if path == "-" {
		data, err := io.ReadAll(os.Stdin)
		if err != nil {
			return nil, fmt.Errorf("read standard input: %w", err)
		}
		return data, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

// readMacros reads a JSON object of extension macro values {name: string}.
func readMacros(path string) (map[string]string, error) {
	if path == "" {
		return nil, nil
	}
	data, err := readInput(path)
	if err != nil {
		return nil, err
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("macros %s: %w", path, err)
	}
	obj, ok := v.(*jsonv.Object)
	if !ok {
		return nil, fmt.Errorf("macros %s: must be a JSON object of strings", path)
	}
	out := make(map[string]string, obj.Len())
	for _, k := range obj.Keys() {
		val, _ := obj.Get(k)
		s, isString := val.(string)
		if !isString {
			return nil, fmt.Errorf("macros %s: %s must be a string", path, k)
		}
		if !forgev1.ValidMacroName(k) {
			return nil, fmt.Errorf("macros %s: invalid macro name %q", path, k)
		}
		out[k] = s
	}
	return out, nil
}

// readMessages reads a JSON array of Pi agent messages.
func readMessages(path string) ([]any, error) {
	if path == "" {
		return []any{}, nil
	}
	data, err := readInput(path)
	if err != nil {
		return nil, err
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("messages %s: %w", path, err)
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("messages %s: must be a JSON array of agent messages", path)
	}
	for i, m := range list {
		if _, isObject := m.(*jsonv.Object); !isObject {
			return nil, fmt.Errorf("messages %s: element %d must be an object", path, i)
		}
	}
	return list, nil
}

// runtimeSource says where a compile's runtime and base prompt came from,
// so the user knows what the preview stands on.
type runtimeSource struct {
	Runtime string
	Base    string
}

// workspaceRuntime builds the runtime Pi 1.6.0 would hand pi-forge in this
// workspace with its default tools (context files discovered from the cwd,
// the local clock and time zone), and the base system prompt Pi would send.
func workspaceRuntime(ws resources.Workspace, model *compile.Model, now time.Time) (compile.Runtime, string, error) {
	files, err := resources.LoadPiPromptFiles(ws)
	if err != nil {
		return compile.Runtime{}, "", err
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

// parseModelFlag reads --model provider/id.
func parseModelFlag(s string) (*compile.Model, error) {
	if s == "" {
		return nil, nil
	}
	provider, id, ok := strings.Cut(s, "/")
	if !ok || provider == "" || id == "" {
		return nil, fmt.Errorf("--model %q: want provider/model-id", s)
	}
	return &compile.Model{Provider: provider, ID: id}, nil
}

func baseName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".json")
}
