package agents

import (
	"github.com/forgebench/forgebench/session/subagent"
)

// TreeAgents are the agents of the loaded pi-subagent tree and its root
// session (none while no tree is loaded): the `:` palette offers them.
func (m *Model) TreeAgents() (root string, agents []*subagent.Agent) {
	if m.live.tree == nil {
		return m.live.rootFile, nil
	}
	return m.live.rootFile, m.live.tree.Agents
}
