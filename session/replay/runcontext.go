package replay

import (
	"fmt"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// RunContext is what a Preset compiles against at one point: the runtime
// and base prompt in force, the conversation there, and what the session
// records about Presets and tools. The CLI's compile inputs and the Presets
// panel's preview both come from RunContextAt.
type RunContext struct {
	Runtime  compile.Runtime
	Base     string
	Messages []any
	// FromSession is true when Runtime and Base are the ones Pi recorded at
	// the entry (Pi >= 0.86); otherwise they are Pi's defaults (or empty
	// when the caller passed no defaults).
	FromSession bool
	// Source says, for humans, where the runtime came from when a session
	// entry was read ("" without one).
	Source string
	// Active is the Preset selection on the branch at the entry.
	Active ActivePreset
	// Tools are the tools the session shows at the entry: the selected
	// tools Pi recorded (when FromSession), then the tools assistant
	// messages called, in first-seen order (repeats possible).
	Tools []string
}

// Defaults returns Pi's default runtime and base prompt for the workspace
// (resources.PiDefaultRuntime with the caller's model and clock); it is
// called only when the session records no system prompt.
type Defaults func() (compile.Runtime, string, error)

// RunContextAt derives the run context at the entry with the given index of
// s. Without a session (s nil), or at an empty session (index < 0), it is
// Pi's defaults alone. When the session records no system prompt, the
// messages, Preset selection and called tools still come from it and
// Runtime/Base from defaults. A nil defaults leaves them empty instead (the
// caller supplies both some other way). cat supplies the model's API and
// may be nil; loc is the zone of the runtime clock.
func RunContextAt(s *session.Session, index int, cat *catalog.Catalog, loc *time.Location, defaults Defaults) (*RunContext, error) {
	rc := &RunContext{}
	if s != nil && index >= 0 {
		fr, err := ForgeRuntimeAt(s, index, cat, loc)
		if err != nil {
			return nil, fmt.Errorf("runtime at entry %s of %s: %w", s.Entries[index].ID, s.Path, err)
		}
		rc.Messages, rc.Source, rc.FromSession = fr.Messages, fr.Source, fr.FromSession
		rc.Active = ActivePresetAt(s, index)
		if fr.FromSession {
			rc.Runtime, rc.Base = fr.Runtime, fr.Base
			rc.Tools = append(rc.Tools, fr.Runtime.Options.SelectedTools...)
		}
		rc.Tools = append(rc.Tools, toolsCalled(fr.Messages)...)
	}
	if !rc.FromSession && defaults != nil {
		rt, base, err := defaults()
		if err != nil {
			return nil, err
		}
		rc.Runtime, rc.Base = rt, base
	}
	return rc, nil
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
