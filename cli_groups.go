package main

// The command groups of DESIGN.md §2. Commands whose issue has not landed
// yet answer "not implemented yet" with the usage exit code, naming the work
// that fills them; each is replaced by a real command when that issue lands.

// pendingArgs accepts whatever the eventual command will take, so a script
// gets the honest "not implemented yet" instead of a usage error.
type pendingArgs struct {
	Args []string `arg:"" optional:"" passthrough:"" help:"Arguments of the eventual command."`
}

type capabilityPending struct{ pendingArgs }

func (c *capabilityPending) Run(*Globals) error {
	return fail(exitUsage, "not implemented yet: arrives with the capability-state issue")
}

type agentsPending struct{ pendingArgs }

func (c *agentsPending) Run(*Globals) error {
	return fail(exitUsage, "not implemented yet: arrives with the agent-trees issue")
}

type payloadPending struct{ pendingArgs }

func (c *payloadPending) Run(*Globals) error {
	return fail(exitUsage, "not implemented yet: arrives with the payload-diff issue")
}

// PresetCmd groups the preset commands.
type PresetCmd struct {
	List          PresetListCmd     `cmd:"" help:"List presets of the project and global scopes."`
	Show          PresetShowCmd     `cmd:"" help:"Show one preset (with its sourceRevision)."`
	Validate      PresetValidateCmd `cmd:"" help:"Validate presets; exit 1 when any error diagnostic exists."`
	Preview       PresetPreviewCmd  `cmd:"" help:"Preview a compiled preset, each part labelled with its item and a token estimate."`
	Compile       PresetCompileCmd  `cmd:"" help:"Compile a preset into a system prompt and messages."`
	New           PresetNewCmd      `cmd:"" help:"Create a preset (exclusive create), from the default Pi mirror or --from another."`
	Fork          PresetForkCmd     `cmd:"" help:"Copy a preset to a new id."`
	Delete        PresetDeleteCmd   `cmd:"" help:"Delete a preset; requires --revision."`
	MigrateStacks PresetMigrateCmd  `cmd:"" name:"migrate-stacks" help:"Copy legacy .pi/prompt-stacks presets into .pi/forge/prompt-stacks."`
}

// CapabilityCmd groups the capability commands.
type CapabilityCmd struct {
	List        CapabilityListCmd     `cmd:"" help:"List capabilities of the project and global scopes."`
	Show        CapabilityShowCmd     `cmd:"" help:"Show one capability."`
	Validate    CapabilityValidateCmd `cmd:"" help:"Validate capabilities; exit 1 on errors."`
	New         CapabilityNewCmd      `cmd:"" help:"Create a capability (exclusive create)."`
	Delete      CapabilityDeleteCmd   `cmd:"" help:"Delete a capability; requires --revision."`
	Bindings    CapabilityBindingsCmd `cmd:"" help:"Show a preset's capability bindings, source vs effective."`
	Status      capabilityPending     `cmd:"" help:"Capability state of a session at an entry."`
	Enable      capabilityPending     `cmd:"" help:"Enable a capability in a session (guarded append)."`
	EnableBound capabilityPending     `cmd:"" name:"enable-bound" help:"Enable a preset-bound capability in a session."`
	Disable     capabilityPending     `cmd:"" help:"Disable a capability in a session."`
	Reset       capabilityPending     `cmd:"" help:"Reset capability state in a session."`
	Add         capabilityPending     `cmd:"" help:"Add an ad-hoc capability to a session."`
}

// ProfileCmd groups the agent-profile commands.
type ProfileCmd struct {
	List     ProfileListCmd     `cmd:"" help:"List agent profiles."`
	Show     ProfileShowCmd     `cmd:"" help:"Show one agent profile."`
	Validate ProfileValidateCmd `cmd:"" help:"Validate agent profiles; exit 1 on errors."`
	Preview  ProfilePreviewCmd  `cmd:"" help:"Resolve a profile's preset and model (reports whether auth is configured, never secrets)."`
	Delete   ProfileDeleteCmd   `cmd:"" help:"Delete an agent profile; requires --revision."`
}

// SessionCmd groups the Pi session commands.
type SessionCmd struct {
	List    SessionListCmd    `cmd:"" help:"List sessions of the project (or all projects), newest activity first."`
	Show    SessionShowCmd    `cmd:"" help:"Load a session and print a summary."`
	Tree    SessionTreeCmd    `cmd:"" help:"Print the branch tree of a session."`
	Context SessionContextCmd `cmd:"" help:"Rebuild the model context at an entry, as Pi does."`
	Stats   SessionStatsCmd   `cmd:"" help:"Messages, tool calls, tokens and cost per session and branch."`
	Tail    SessionTailCmd    `cmd:"" help:"Follow a session file that Pi is writing."`
	Export  SessionExportCmd  `cmd:"" help:"Export a branch as Markdown or JSON."`
}

// AgentsCmd groups the pi-subagent tree commands.
type AgentsCmd struct {
	List       agentsPending `cmd:"" help:"List agent trees of the project's sessions."`
	Show       agentsPending `cmd:"" help:"Show one agent tree as a dashboard."`
	Transcript agentsPending `cmd:"" help:"Print an agent's transcript (read-only)."`
}

// PayloadCmd groups the payload commands.
type PayloadCmd struct {
	Show payloadPending `cmd:"" help:"Show a captured payload, a session entry or a preset at an entry as a request."`
	Diff payloadPending `cmd:"" help:"Diff two requests: blocks, lines, cache boundary and token deltas."`
}
