package cli

import "github.com/forgebench/forgebench/session/capstate"

// PresetUseCmd switches the active Preset of a session offline, as
// /preset use does: the selection entry, bound activations of the old
// Preset retired, the capability preflight against the frozen snapshots.
type PresetUseCmd struct {
	Selector string `arg:"" help:"Preset to activate: id, project:id, global:id, or none (also off, disable)." predictor:"preset"`
	mutationFlags
}

// Run plans and appends the switch; pi-forge's prompt-cache notice
// (capstate.CacheNotice) follows its message on standard error.
func (c *PresetUseCmd) Run(g *Globals) error {
	return c.mutateNoting(g, capstate.Operation{Kind: capstate.OpUsePreset, Arg: c.Selector}, capstate.CacheNotice)
}
