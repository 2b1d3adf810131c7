package presets

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
)

// previewRun is the preview compile in flight. A draft change makes it
// stale: cancel stops its regex rules (compile.PreviewContext checks the
// context before every match), so a Preset of slow rules stops costing a
// core as soon as the user moves on instead of after the compile's limit.
type previewRun struct {
	ctx  context.Context
	stop context.CancelFunc
}

// start cancels any compile still running and returns the command that
// compiles version of the draft under a fresh context.
func (r *previewRun) start(version int, stack *preset.Stack, rc *runContext) tea.Cmd {
	r.cancel()
	r.ctx, r.stop = context.WithCancel(context.Background())
	return previewCmd(r.ctx, version, stack, rc)
}

// cancel stops the compile in flight, if any (safe to call at any time).
func (r *previewRun) cancel() {
	if r.stop != nil {
		r.stop()
		r.stop = nil
	}
}
