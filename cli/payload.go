package cli

// The payload group arrives with the payload-diff issue; until then every
// command answers "not implemented yet" with the usage exit code.

// PayloadCmd groups the payload commands.
type PayloadCmd struct {
	Show payloadPending `cmd:"" help:"Show a captured payload, a session entry or a preset at an entry as a request."`
	Diff payloadPending `cmd:"" help:"Diff two requests: blocks, lines, cache boundary and token deltas."`
}

// payloadPending stands in for every payload command.
type payloadPending struct{ pendingArgs }

// Run answers "not implemented yet" with the usage exit code.
func (c *payloadPending) Run(*Globals) error {
	return fail(exitUsage, "not implemented yet: arrives with the payload-diff issue")
}
