package resources

import (
	_ "embed"

	"github.com/forgebench/forgebench/engine/preset"
)

// defaultMirror is the project's own mirror of Pi's default prompt (the
// demo's pi-mirror preset): every Pi section as a slot or block, ending in
// the chat history.
//
//go:embed demo/workspace/projects/demo-app/.pi/forge/prompt-stacks/pi-mirror.json
var defaultMirror []byte

// DefaultMirror returns a new preset mirroring Pi's default system prompt,
// with the given id, the id as its name and no auto-activation, as the
// starting point for `preset new` and the Presets panel.
func DefaultMirror(id string) *preset.Stack {
	stack, _ := preset.Parse(defaultMirror, id)
	stack.ID = id
	name := id
	stack.Name = &name
	stack.Description = nil
	stack.AutoActivate = nil
	return stack
}
