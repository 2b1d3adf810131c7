package presets

import (
	"fmt"
	"sort"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/resources"
	pis "github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// previewDelay is how long the preview waits after the last edit before it
// compiles, so typing does not compile on every key.
var previewDelay = 150 * time.Millisecond

// Messages produced by the panel's commands.
type (
	// libraryMsg carries a fresh library snapshot.
	libraryMsg struct {
		lib *resources.Library
		err error
	}
	// contextMsg carries what the preview compiles against.
	contextMsg struct {
		ctx *runContext
	}
	// previewDueMsg fires previewDelay after an edit.
	previewDueMsg struct{ version int }
	// previewMsg carries a finished preview of draft version.
	previewMsg struct {
		version int
		res     compile.PreviewResult
	}
	// savedMsg reports a save of the draft.
	savedMsg struct {
		key string
		res resources.WriteResult
		err error
	}
	// createdMsg reports a fork or a new preset.
	createdMsg struct {
		verb  string
		scope preset.Scope
		id    string
		res   resources.WriteResult
		err   error
	}
)

// runContext is what the preview compiles against: the runtime, base prompt
// and messages at the selected session entry, or Pi's defaults for the
// workspace when no session is selected (or it records no prompt).
type runContext struct {
	file, entry string
	runtime     compile.Runtime
	base        string
	messages    []any
	// source says, for humans, where the runtime came from.
	source string
	// active is the session's Preset selection at the entry: a scoped key,
	// "none" when switched off, "" when the session never chose one.
	active string
	// tools are the tools seen in the session (declared or called).
	tools []string
	err   error
}

// loadLibraryCmd reads the whole library.
func loadLibraryCmd(ws resources.Workspace) tea.Cmd {
	return func() tea.Msg {
		lib, err := resources.LoadLibrary(ws)
		if err != nil {
			err = fmt.Errorf("load the preset library of %s: %w", ws.Cwd, err)
		}
		return libraryMsg{lib: lib, err: err}
	}
}

// loadContextCmd derives the run context of the selected session entry
// (file "" = none: Pi's defaults for the workspace).
func loadContextCmd(ws resources.Workspace, file, entry string) tea.Cmd {
	return func() tea.Msg { return contextMsg{ctx: loadRunContext(ws, file, entry, time.Now())} }
}

func loadRunContext(ws resources.Workspace, file, entry string, now time.Time) *runContext {
	rc := &runContext{file: file, entry: entry}
	if file != "" {
		if err := rc.fromSession(ws, file, entry); err != nil {
			rc.err = err
		}
	}
	if rc.source == "" {
		rt, base, err := resources.PiDefaultRuntime(ws, nil, now)
		if err != nil {
			rc.err = err
			return rc
		}
		rc.runtime, rc.base = rt, base
		rc.source = "Pi 1.6.0 defaults for this workspace"
		if file != "" {
			rc.source += " (the session records no system prompt)"
		}
	}
	rc.tools = knownTools(rc.runtime.Options.SelectedTools, rc.tools)
	return rc
}

// fromSession fills the context from a session entry. When the session
// records no system prompt only the messages, tools and active Preset are
// taken and source stays "".
func (rc *runContext) fromSession(ws resources.Workspace, file, entry string) error {
	s, err := pis.Open(file)
	if err != nil {
		return fmt.Errorf("open session %s: %w", file, err)
	}
	index := s.LeafIndex()
	if entry != "" {
		i, ok := s.IndexOf(entry)
		if !ok {
			return fmt.Errorf("session %s has no entry %s", file, entry)
		}
		index = i
	}
	if index < 0 {
		return nil
	}
	cat, _, err := catalog.Load(ws.AgentDir)
	if err != nil {
		return fmt.Errorf("read the model catalog: %w", err)
	}
	fr, err := pis.ForgeRuntimeAt(s, index, cat, time.Local)
	if err != nil {
		return fmt.Errorf("runtime at the session entry: %w", err)
	}
	rc.messages = fr.Messages
	rc.active = activePresetAt(s, index)
	rc.tools = toolsCalled(fr.Messages)
	if fr.FromSession {
		rc.runtime, rc.base = fr.Runtime, fr.Base
		rc.source = fr.Source
		rc.tools = append(append([]string(nil), fr.Runtime.Options.SelectedTools...), rc.tools...)
	}
	return nil
}

// activeStateType is pi-forge's custom entry recording the Preset choice.
const activeStateType = "pi-forge-prompt-stack-state"

// activePresetAt is the latest Preset selection on the branch ending at
// index: a scoped key, "none" (also for pi-forge's "off"), or "".
func activePresetAt(s *pis.Session, index int) string {
	active := ""
	for _, i := range s.PathTo(index) {
		e := &s.Entries[i]
		if e.Type != pis.TypeCustom {
			continue
		}
		payload, err := e.Payload()
		c, ok := payload.(*pis.Custom)
		if err != nil || !ok || c.CustomType != activeStateType {
			continue
		}
		v, err := jsonv.Parse(c.Data)
		if err != nil {
			continue
		}
		obj, ok := v.(*jsonv.Object)
		if !ok {
			continue
		}
		id, _ := obj.Get("activeStackId")
		if str, ok := id.(string); ok {
			active = str
		}
	}
	if active == "off" {
		active = "none"
	}
	return active
}

// toolsCalled lists the tool names called by assistant messages, in
// first-seen order.
func toolsCalled(messages []any) []string {
	var out []string
	for _, m := range messages {
		obj, ok := m.(*jsonv.Object)
		if !ok {
			continue
		}
		if role, _ := obj.Get("role"); role != "assistant" {
			continue
		}
		content, _ := obj.Get("content")
		blocks, _ := content.([]any)
		for _, b := range blocks {
			bo, ok := b.(*jsonv.Object)
			if !ok {
				continue
			}
			if t, _ := bo.Get("type"); t != "toolCall" {
				continue
			}
			if name, ok := bo.Get("name"); ok {
				if s, ok := name.(string); ok && s != "" {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// forgeCapabilityTool is the model-callable tool pi-forge itself registers
// (spec pi-forge-formats §9.11); presets allow it by name.
const forgeCapabilityTool = "forge_capability"

// knownTools is the tool picker's list: Pi's built-in tools in registry
// order and pi-forge's own tool, then the session's other tools sorted,
// without repeats.
func knownTools(groups ...[]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range compile.BuiltinTools {
		seen[t.Name] = true
		out = append(out, t.Name)
	}
	seen[forgeCapabilityTool] = true
	out = append(out, forgeCapabilityTool)
	var extra []string
	for _, g := range groups {
		for _, name := range g {
			if !seen[name] {
				seen[name] = true
				extra = append(extra, name)
			}
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// previewDue schedules the debounced preview of draft version: only the
// newest version's tick compiles.
func previewDue(version int) tea.Cmd {
	return tea.Tick(previewDelay, func(time.Time) tea.Msg { return previewDueMsg{version: version} })
}

// previewCmd compiles the draft's stack against the run context.
func previewCmd(version int, stack *preset.Stack, rc *runContext) tea.Cmd {
	return func() tea.Msg {
		res := compile.Preview(stack, rc.runtime, rc.base, rc.messages, nil)
		return previewMsg{version: version, res: res}
	}
}

// saveCmd writes the draft's stack with the revision the user loaded.
func saveCmd(ws resources.Workspace, scope preset.Scope, id string, stack *preset.Stack, revision string) tea.Cmd {
	return func() tea.Msg {
		res, err := resources.SavePreset(ws, scope, id, stack, revision)
		return savedMsg{key: string(scope) + ":" + id, res: res, err: err}
	}
}

// createCmd writes a new Preset file (fork or new) exclusively.
func createCmd(ws resources.Workspace, verb string, scope preset.Scope, stack *preset.Stack) tea.Cmd {
	return func() tea.Msg {
		res, err := resources.CreatePreset(ws, scope, stack)
		return createdMsg{verb: verb, scope: scope, id: stack.ID, res: res, err: err}
	}
}
