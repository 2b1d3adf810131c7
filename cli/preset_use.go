package cli

import "github.com/forgebench/forgebench/session/capstate"

// PresetUseCmd switches the active Preset of a session offline, as
// /preset use does: the selection entry, bound activations of the old
// Preset retired, the capability preflight against the frozen snapshots.
type PresetUseCmd struct {
	Selector string `arg:"" help:"Preset to activate: id, project:id, global:id, or none (also off, disable)." predictor:"preset"`
	mutationFlags
}

// Run plans and appends the switch.
func (c *PresetUseCmd) Run(g *Globals) error {
	return c.mutate(g, capstate.Operation{Kind: capstate.OpUsePreset, Arg: c.Selector})
}
