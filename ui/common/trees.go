package common

// SessionRef names a session for another panel: its file, what it is
// called everywhere (session.Title) and when it was last active, as the
// Session panel's picker shows it.
type SessionRef struct {
	File, Name, When string
}

// AgentTreesMsg lists the sessions the Session panel's picker knows that
// have a pi-subagent tree, in the picker's order (newest first). The
// panel sends it whenever that list changes (discovery, a tree that
// appears); the Agents panel offers them where the selected session has
// no tree.
type AgentTreesMsg struct{ Sessions []SessionRef }
