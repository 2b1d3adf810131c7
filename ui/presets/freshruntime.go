package presets

import (
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/resources"
)

// freshSession is what a preview needs to build the runtime of a fresh
// Pi session for any draft: Pi's prompt files read once (in the context
// command), the workspace and the clock. The runtime depends on the
// draft's tool policy (tools.initial, a selective allow), so it is built
// per preview, purely.
type freshSession struct {
	files resources.PiPromptFiles
	cwd   string
	now   time.Time
}

// runtimeFor is the runtime and base prompt the draft compiles against:
// the session's own when the run context came from a session entry, else
// what a fresh session would start with under stack's tool policy (the
// tools it selects and where they come from).
func (rc *runContext) runtimeFor(stack *preset.Stack) (compile.Runtime, string, compile.ToolSelection) {
	if rc.fresh == nil {
		return rc.runtime, rc.base, compile.ToolSelection{}
	}
	var policy *preset.ResourcePolicy
	if stack != nil {
		policy = stack.Tools
	}
	sel := compile.FreshSessionTools(policy)
	rt, base := rc.fresh.files.Runtime(rc.fresh.cwd, nil, rc.fresh.now, sel.Tools)
	return rt, base, sel
}
