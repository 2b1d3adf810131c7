package presets

import (
	"errors"
	"sort"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/replay"
)

// runContext is what the preview compiles against: the runtime, base prompt
// and messages at the selected session entry, or Pi's defaults for the
// workspace when no session is selected (or it records no prompt).
type runContext struct {
	file, entry string
	// macros are the extension macro values the user supplied for the
	// preview (X), as --macros supplies them to the CLI.
	macros map[string]string
	// slots are the custom slots' preview values (X), as --slots supplies
	// them to the CLI.
	slots    map[string]string
	runtime  compile.Runtime
	base     string
	messages []any
	// source says, for humans, where the runtime came from.
	source string
	// active is the session's Preset selection at the entry.
	active replay.ActivePreset
	// tools are the tools seen in the session (declared or called).
	tools []string
	// fresh is set when the runtime is not the session's: the preview
	// then compiles against a fresh session under the draft's policy.
	fresh *freshSession
	err   error
	// caps is the capability state at the entry (nil: none to project);
	// capsTrusted whether its updates are projected (runcontext.go).
	caps        *capstate.State
	capsTrusted bool
}

// loadContextCmd derives the run context of the selected session entry
// (file "" = none: Pi's defaults for the workspace).
func loadContextCmd(svc *services.Services, file, entry string) tea.Cmd {
	return func() tea.Msg { return contextMsg{ctx: loadRunContext(svc, file, entry, time.Now())} }
}

// loadRunContext builds the preview's run context with replay.RunContextAt,
// the same function the CLI's compile inputs use, and the workspace's
// shared model catalog.
func loadRunContext(svc *services.Services, file, entry string, now time.Time) *runContext {
	ws := svc.Workspace()
	rc := &runContext{file: file, entry: entry}
	var s *session.Session
	index := -1
	if file != "" {
		var err error
		if s, index, err = openAt(file, entry); err != nil {
			rc.err = err
		}
	}
	cat, _ := svc.Catalog() // the root reports models.json problems
	defaults := func() (compile.Runtime, string, error) { return resources.PiDefaultRuntime(ws, nil, now) }
	ctx, err := replay.RunContextAt(s, index, cat, time.Local, defaults)
	if err != nil && s != nil { // an unreadable entry: say so, preview on the defaults
		rc.err = err
		ctx, err = replay.RunContextAt(nil, -1, nil, time.Local, defaults)
	}
	if err != nil {
		rc.err = errors.Join(rc.err, err)
		rc.tools = knownTools()
		return rc
	}
	rc.runtime, rc.base, rc.messages = ctx.Runtime, ctx.Base, ctx.Messages
	rc.withCapabilities(svc, s, index)
	rc.active = ctx.Active
	if ctx.FromSession {
		rc.source = ctx.Source
	} else {
		rc.source = i18n.T("a fresh Pi 1.6.0 session in this workspace")
		if file != "" {
			rc.source = i18n.T("a fresh Pi 1.6.0 session in this workspace (the session records no system prompt)")
		}
		if files, err := resources.LoadPiPromptFiles(ws); err == nil {
			rc.fresh = &freshSession{files: files, cwd: ws.Cwd, now: now}
		}
	}
	rc.tools = knownTools(rc.runtime.Options.SelectedTools, ctx.Tools)
	return rc
}

// openAt opens a session file and finds the entry ("" = the leaf).
func openAt(file, entry string) (*session.Session, int, error) {
	s, err := session.Shared(file)
	if err != nil {
		return nil, -1, wrapText(err, i18n.T("open session %s: %v", file, err))
	}
	if entry == "" {
		return s, s.LeafIndex(), nil
	}
	i, ok := s.IndexOf(entry)
	if !ok {
		return nil, -1, errors.New(i18n.T("session %s has no entry %s", file, entry))
	}
	return s, i, nil
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

// withCapabilities adds pi-forge's capability delivery to the run context
// of a session entry: the context's messages get a marker where each
// stored anchor sits, and the capability state is kept so the preview can
// put each update where the request carries it (native section or
// fallback user update, as the model in force dictates). It is
// capstate.ForPreview, which the CLI's preset preview uses too. A session
// whose capability history cannot be read previews without it. It reads
// the library, so it runs inside the context command.
func (rc *runContext) withCapabilities(svc *services.Services, s *session.Session, index int) {
	if s == nil || index < 0 {
		return
	}
	in, err := svc.CapabilityInputs()
	if err != nil {
		return
	}
	d, err := capstate.ForPreview(s, index, in)
	if err != nil {
		return
	}
	rc.messages, rc.caps, rc.capsTrusted = d.Messages, d.State, d.Trusted
}

// projectCapabilities replaces the delivery markers among the preview's
// message parts with the capability updates (pi-forge projects them after
// compiling, §4.5 step 5).
func (rc *runContext) projectCapabilities(res compile.PreviewResult) compile.PreviewResult {
	if rc.caps == nil {
		return res
	}
	out, err := capstate.ProjectPreview(res, rc.caps, rc.capsTrusted)
	if err != nil {
		return res
	}
	return out
}
