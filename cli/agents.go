package cli

// The agents group arrives with the agent-trees issue; until then every
// command answers "not implemented yet" with the usage exit code.

// AgentsCmd groups the pi-subagent tree commands.
type AgentsCmd struct {
	List       agentsPending `cmd:"" help:"List agent trees of the project's sessions."`
	Show       agentsPending `cmd:"" help:"Show one agent tree as a dashboard."`
	Transcript agentsPending `cmd:"" help:"Print an agent's transcript (read-only)."`
}

// agentsPending stands in for every agents command.
type agentsPending struct{ pendingArgs }

// Run answers "not implemented yet" with the usage exit code.
func (c *agentsPending) Run(*Globals) error {
	return fail(exitUsage, "not implemented yet: arrives with the agent-trees issue")
}
