package cli

// Commands whose issue has not landed yet answer "not implemented yet" with
// the usage exit code, naming the work that fills them; each is replaced by
// a real command when that issue lands (agents.go, payload.go and the
// session-state commands of capability.go).

// pendingArgs accepts whatever the eventual command will take, so a script
// gets the honest "not implemented yet" instead of a usage error.
type pendingArgs struct {
	Args []string `arg:"" optional:"" passthrough:"" help:"Arguments of the eventual command."`
}
