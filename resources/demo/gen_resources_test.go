package demo

// Generator for the demo's pi-forge resources and Pi configuration files.
// Every value is built in the key order of the normalizing codecs
// (spec pi-forge-formats §1.3, §2.1, §2.3, §5.4, §9.1, §11.1) and serialized as
// JSON.stringify(value, null, 2) + "\n".

// Paths of the generated resource files, relative to the workspace root.
const (
	projectForgeRel = projectRel + "/.pi/forge"
	globalForgeRel  = forgeRel
)

// resourceFile renders a resource the way pi-forge writes it.
func resourceFile(v any) []byte {
	return []byte(jsStringifyIndent(v, "  ") + "\n")
}

// Capabilities ------------------------------------------------------------

// capabilityDef is the data of one capability resource (§9.1).
type capabilityDef struct {
	id, name, description, content string
	add, remove                    []string
}

func (c capabilityDef) value() jsObject {
	return obj(
		"schemaVersion", 1,
		"type", "pi-forge.capability",
		"id", c.id,
		"name", c.name,
		"description", c.description,
		"content", c.content,
		"tools", obj("add", strs(c.add...), "remove", strs(c.remove...)),
	)
}

var (
	capWriteAccess = capabilityDef{
		id:          "write-access",
		name:        "Write access",
		description: "Adds edit, write and bash for the duration of one change.",
		content:     "You may now edit files and run commands. Make the smallest change that solves the task, run npm test, then disable write-access again.",
		add:         []string{"edit", "write", "bash"},
		remove:      []string{},
	}
	capReviewMode = capabilityDef{
		id:          "review-mode",
		name:        "Review mode",
		description: "Findings first: removes every tool that can change the workspace.",
		content:     "Report findings with file, line and evidence before proposing any change. Do not modify files while review mode is active.",
		add:         []string{},
		remove:      []string{"edit", "write", "bash"},
	}
	capTestRunner = capabilityDef{
		id:          "test-runner",
		name:        "Test runner",
		description: "Tool-only capability: adds bash so the suite can be run; it sends no instruction text.",
		content:     "",
		add:         []string{"bash"},
		remove:      []string{},
	}
	capPlainEnglish = capabilityDef{
		id:          "plain-english",
		name:        "Plain English",
		description: "Global style directive usable in every project.",
		content:     "Explain results in plain English first, then give the technical detail. Prefer short sentences and concrete numbers.",
		add:         []string{},
		remove:      []string{},
	}
)

// Presets ------------------------------------------------------------------

func block(id, name, role, content string) jsObject {
	return obj("kind", "block", "id", id, "name", name, "enabled", true, "role", role, "content", content)
}

func slot(id, name, role, slotName string, options any) jsObject {
	return obj("kind", "slot", "id", id, "name", name, "enabled", true,
		"role", opt(role != "", role), "slot", slotName, "options", opt(options != nil, options))
}

// presetPiMirror mirrors Pi's default prompt layout slot by slot, in its own words.
func presetPiMirror() jsObject {
	return obj(
		"schemaVersion", 2,
		"type", "pi-forge.prompt-stack",
		"id", "pi-mirror",
		"name", "Pi Prompt Mirror",
		"description", "Rebuilds the shape of Pi's built-in system prompt from pi-forge slots so each part (role, tools, guidelines, docs, appended prompt, project context, skills, date and cwd) can be moved or switched off; the conversation follows at the chat-history slot.",
		"autoActivate", true,
		"mode", "replace",
		"defaults", obj("syntheticMessagesVisible", false, "unresolvedMacroPolicy", "warn"),
		"context", obj("allowDuplicateChatHistory", false),
		"tools", obj("allow", strs("*")),
		"skills", obj("allow", strs("*")),
		"parameters", obj(),
		"items", []any{
			block("role", "Assistant Role", "system",
				"You are a coding assistant working inside pi, a terminal coding agent. You help by reading files, running commands, editing code and writing new files."),
			slot("tools", "Tool List", "system", "tools", obj("format", "plain", "onlyWithSnippets", true)),
			block("extra-tools-note", "Extra Tools Note", "system",
				"Depending on the project, further custom tools may be available in addition to the ones listed above."),
			slot("guidelines", "Guidelines", "system", "tool-guidelines",
				obj("format", "plain", "heading", "Guidelines:", "includePiDefaultGuidelines", true, "piStyle", true)),
			slot("pi-docs", "Pi Docs Pointer", "system", "pi-docs", nil),
			slot("append-system-prompt", "Appended System Prompt", "system", "append-system-prompt", nil),
			slot("project-context", "Project Context", "system", "project-context", nil),
			slot("skills", "Skills", "system", "skills", obj("requireReadTool", true)),
			slot("date-cwd", "Date and Directory", "system", "date-cwd", nil),
			slot("chat-history", "Conversation", "", "chat-history", nil),
		},
	)
}

// presetGuardedWorker starts read-only and reaches for write tools through
// bound capabilities.
func presetGuardedWorker() jsObject {
	return obj(
		"schemaVersion", 2,
		"type", "pi-forge.prompt-stack",
		"id", "guarded-worker",
		"name", "Guarded Worker",
		"description", "Starts with read-only tools; the agent enables the bound write-access capability for a change and disables it afterwards. Review mode is a human-only binding.",
		"autoActivate", false,
		"mode", "replace",
		"tools", obj(
			"allow", strs("read", "grep", "find", "ls", "forge_capability", "edit", "write", "bash"),
			"initial", strs("read", "grep", "ls", "forge_capability"),
		),
		"parameters", obj("team", "billing", "testCommand", "npm test"),
		"regex", obj(
			"schemaVersion", 1,
			"rules", []any{obj(
				"id", "mask-api-keys",
				"name", "Mask API keys in history",
				"enabled", true,
				"stage", "history",
				"pattern", "sk-[A-Za-z0-9]{8,}",
				"flags", "g",
				"replace", "[masked key]",
			)},
		),
		"capabilities", []any{
			obj("ref", "project:write-access", "id", "write-access", "modelCallable", true),
			obj("ref", "project:review-mode", "id", "review", "modelCallable", false,
				"overrides", obj("appendContent", "Pay special attention to money handling: rounding, currency and tax.")),
		},
		"items", []any{
			block("role", "Worker Role", "system",
				"You are a careful engineer on the {{ parameters.team }} team. {% if runtime.tool.edit %}Write tools are enabled: keep the change minimal and run {{ parameters.testCommand }} before you finish.{% else %}Start read-only: explore with ls, grep and read. When a change is needed, enable the write-access binding with forge_capability and disable it when you are done.{% endif %}"),
			slot("project-context", "Project Context", "system", "project-context", nil),
			slot("cwd", "Working Directory", "system", "cwd", nil),
			slot("chat-history", "Conversation", "", "chat-history", obj("stripAssistantThinking", true, "maxMessages", 60)),
			block("working-agreement", "Working Agreement", "user",
				"(Working agreement: amounts are integer cents; tools available now: {{ runtime.selectedToolsText }}.)"),
		},
	)
}

// presetBrokenOnPurpose carries exactly one validation error, on purpose.
func presetBrokenOnPurpose() jsObject {
	return obj(
		"schemaVersion", 2,
		"type", "pi-forge.prompt-stack",
		"id", "broken-on-purpose",
		"name", "Broken On Purpose (demo)",
		"description", "DELIBERATELY INVALID so you can see a validation error: two items share the id \"intro\" (error: Duplicate item id). Everything else is valid.",
		"autoActivate", false,
		"mode", "replace",
		"parameters", obj(),
		"items", []any{
			block("intro", "Intro", "system", "You are a helpful assistant."),
			block("intro", "Intro (copy)", "system", "This second block reuses the id of the first one."),
			slot("chat-history", "Conversation", "", "chat-history", nil),
		},
	)
}

// presetQuickReview is a global schema-v1 Preset that uses variables.
func presetQuickReview() jsObject {
	return obj(
		"schemaVersion", 1,
		"type", "pi-forge.prompt-stack",
		"id", "quick-review",
		"name", "Quick Review",
		"description", "Global review Preset (schema v1 with variables): denies the writing tools and binds the global plain-english capability.",
		"autoActivate", false,
		"mode", "replace",
		"tools", obj("deny", strs("edit", "write")),
		"variables", obj("focus", "correctness and missing tests"),
		"capabilities", []any{
			obj("ref", "global:plain-english", "id", "plain-english", "modelCallable", true),
		},
		"items", []any{
			block("reviewer", "Reviewer", "system",
				"You review changes for {{ focus }}. List each finding with its file and line, most severe first."),
			slot("project-context", "Project Context", "system", "project-context", obj("format", "plain")),
			slot("chat-history", "Conversation", "", "chat-history", obj("toolMode", "keep")),
		},
	)
}

// Agent profiles ------------------------------------------------------------

func profileTDDWorker() jsObject {
	return obj(
		"schemaVersion", 1,
		"type", "pi-forge.agent-profile",
		"id", "tdd-worker",
		"name", "TDD Worker",
		"description", "Sonnet at medium thinking with the Guarded Worker Preset; applied automatically to new sessions in this project.",
		"autoActivate", true,
		"model", obj("provider", "anthropic", "id", "claude-sonnet-4-5"),
		"thinkingLevel", "medium",
		"promptStack", "guarded-worker",
	)
}

func profileDeepReview() jsObject {
	return obj(
		"schemaVersion", 1,
		"type", "pi-forge.agent-profile",
		"id", "deep-review",
		"name", "Deep Review",
		"description", "GPT-5.4 at high thinking with the global Quick Review Preset.",
		"autoActivate", false,
		"model", obj("provider", "openai", "id", "gpt-5.4"),
		"thinkingLevel", "high",
		"promptStack", "global:quick-review",
	)
}

// Pi configuration ----------------------------------------------------------

func piSettings() jsObject {
	return obj(
		"defaultProvider", "anthropic",
		"defaultModel", "claude-sonnet-4-5",
		"defaultThinkingLevel", "medium",
		"defaultProjectTrust", "ask",
		"theme", "dark",
		"packages", strs("npm:@zihanw/pi-forge", "npm:@oai404iao/pi-subagent"),
		"compaction", obj("enabled", true, "reserveTokens", 16384, "keepRecentTokens", 20000),
	)
}

// piAuth is Pi's auth.json with placeholder API keys for the two providers
// the demo profiles use, so pi-forge's profile preflight ("has no
// configured authentication") passes on demo data. The keys are not real
// and never reach a provider: forgebench makes no model calls.
func piAuth() jsObject {
	return obj(
		"anthropic", obj("type", "api_key", "key", "forgebench-demo-placeholder-not-a-real-key"),
		"openai", obj("type", "api_key", "key", "forgebench-demo-placeholder-not-a-real-key"),
	)
}

// trustFile is Pi's trust.json: keys sorted, two-space indent, trailing newline.
func trustFile() []byte {
	return resourceFile(obj(TokenProjectRealPath, true))
}

func subagentConfig() jsObject {
	return obj(
		"agentScope", "user",
		"maxDepth", 3,
		"maxConcurrentAgents", 4,
		"inheritExtensions", false,
		"openAIIdentity", false,
		"maxOutputBytes", 51200,
	)
}

// resourceFiles returns every generated resource and configuration file.
func resourceFiles() map[string][]byte {
	files := map[string][]byte{
		agentRel + "/settings.json":                                      resourceFile(piSettings()),
		agentRel + "/trust.json":                                         trustFile(),
		agentRel + "/auth.json":                                          resourceFile(piAuth()),
		agentRel + "/subagent.json":                                      resourceFile(subagentConfig()),
		projectForgeRel + "/prompt-stacks/pi-mirror.json":                resourceFile(presetPiMirror()),
		projectForgeRel + "/prompt-stacks/guarded-worker.json":           resourceFile(presetGuardedWorker()),
		projectForgeRel + "/prompt-stacks/broken-on-purpose.json":        resourceFile(presetBrokenOnPurpose()),
		projectForgeRel + "/agent-profiles/tdd-worker.json":              resourceFile(profileTDDWorker()),
		projectForgeRel + "/agent-profiles/deep-review.json":             resourceFile(profileDeepReview()),
		globalForgeRel + "/prompt-stacks/quick-review.json":              resourceFile(presetQuickReview()),
		globalForgeRel + "/capabilities/" + capPlainEnglish.id + ".json": resourceFile(capPlainEnglish.value()),
	}
	for _, c := range []capabilityDef{capWriteAccess, capReviewMode, capTestRunner} {
		files[projectForgeRel+"/capabilities/"+c.id+".json"] = resourceFile(c.value())
	}
	return files
}
