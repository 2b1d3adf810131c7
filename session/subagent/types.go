package subagent

import "strings"

// Custom entry types pi-subagent writes (spec §20).
const (
	TreeCustomType          = "pi-subagent/tree-v2"
	RegistrationCustomType  = "pi-subagent/registration-v2"
	MessageCustomType       = "pi-subagent/message-v2"
	DescriptorCustomType    = "pi-subagent/descriptor"
	LineageCustomType       = "pi-subagent/lineage"
	SettledCustomType       = "pi-subagent/settled"
	InheritedCompactionType = "pi-subagent/inherited-compaction-summary"
	InheritedBranchType     = "pi-subagent/inherited-branch-summary"
)

// Versions the published v5 source writes.
const (
	TreeVersion       = 1
	DescriptorVersion = 5
)

// RootPath is the logical address of the root agent (the user's session).
const RootPath = "/root"

// Layouts a tree can have.
const (
	// LayoutV5 is a tree directory with state.json (descriptor v5).
	LayoutV5 = "v5"
	// Layout030 is pi-subagent 0.3.0: child sessions next to the parent
	// session, linked by parentSession and pi-subagent/lineage entries.
	Layout030 = "0.3.0"
)

// Execution statuses of an agent record (spec §18.1). StatusUnknown is
// forgebench's own, for agents recovered without a control snapshot.
const (
	StatusPendingInit = "pending_init"
	StatusRunning     = "running"
	StatusCompleted   = "completed"
	StatusInterrupted = "interrupted"
	StatusErrored     = "errored"
	StatusUnknown     = "unknown"
)

// Lifecycle values (README, §25.7); an absent lifecycle is open.
const (
	LifecycleOpen    = "open"
	LifecycleClosing = "closing"
	LifecycleClosed  = "closed"
)

// Mail kinds (spec §17.2).
const (
	KindMessage    = "message"
	KindTask       = "task"
	KindCompletion = "completion"
)

// Severities of a Diagnostic.
const (
	// SevError: pi-subagent would refuse this (its own message is quoted).
	SevError = "error"
	// SevWarning: readable, but newer, unusual or incomplete.
	SevWarning = "warning"
	// SevInfo: worth knowing (a relocated file, a leftover .pending file).
	SevInfo = "info"
)

// Diagnostic is one finding about a tree, a file or an agent.
type Diagnostic struct {
	Severity string
	// Agent is the agent path concerned ("" for the tree).
	Agent string
	// File is the file concerned ("" when none).
	File    string
	Message string
}

// String is "severity: file: message" for a line on stderr.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.Severity)
	b.WriteString(": ")
	if d.File != "" {
		b.WriteString(d.File)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// ModelRef is a provider and model id.
type ModelRef struct {
	Provider string
	ID       string
}

// String is "provider/id" ("" when both are empty).
func (m ModelRef) String() string {
	if m.Provider == "" && m.ID == "" {
		return ""
	}
	if m.Provider == "" {
		return m.ID
	}
	return m.Provider + "/" + m.ID
}

// Role is the role snapshot of a descriptor (descriptor.agent).
type Role struct {
	Name        string
	Description string
	// Tools is the ordinary tool ceiling; HasTools is false when there is
	// none (the default policy).
	Tools        []string
	HasTools     bool
	Model        string
	Thinking     string
	SystemPrompt string
	// Source is "user" or "project" (v5), or "bundled" (0.3.0).
	Source string
}

// Settings are the effective subagent.json values an agent was created
// with (descriptor.settings).
type Settings struct {
	AgentScope          string
	MaxDepth            float64
	MaxConcurrentAgents float64
	InheritExtensions   bool
	OpenAIIdentity      bool
	MaxOutputBytes      float64
}

// Descriptor is an agent descriptor (v5, spec §19; 0.3.0's v2 is mapped
// onto the same fields, see legacy.go).
type Descriptor struct {
	Version    float64
	ID         string
	Path       string
	ParentPath string
	Depth      float64
	Cwd        string
	CreatedAt  string
	Role       Role
	Model      ModelRef
	// ThinkingLevel is the selected thinking level.
	ThinkingLevel string
	// ForkTurns is "all" or "none".
	ForkTurns string
	Settings  Settings
	// AnchorID is the id of the parent's registration-v2 entry.
	AnchorID string
}

// Mail is one mailbox or outbox message (spec §17.2).
type Mail struct {
	ID        string
	From      string
	To        string
	Kind      string
	Text      string
	CreatedAt string
	RunID     string
}

// Selection is a model and thinking level, as selected or as recorded by a
// response.
type Selection struct {
	Model    ModelRef
	Thinking string
}
