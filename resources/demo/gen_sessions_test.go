package demo

// The two ordinary demo sessions of the project (Pi 1.6.0 v3 format).

import (
	"fmt"
	"strings"
)

// sources holds the workspace text files that sessions quote.
type sources struct {
	agentsMD, systemMD, roleReviewer            string
	invoiceTS, moneyTS, invoiceTestTS, readmeMD string
}

// invoiceBefore is src/invoice.ts before the rounding fix of the main session.
const invoiceBefore = `export interface LineItem {
  description: string;
  unitPrice: number;
  quantity: number;
}

export function invoiceTotal(items: LineItem[], taxRate: number): number {
  const subtotal = items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  return Number((subtotal * (1 + taxRate)).toFixed(2));
}
`

// Tool declarations (descriptions are the demo's own wording).

func declaration(name, description string, properties jsObject, required ...string) jsObject {
	return obj("name", name, "description", description, "parameters",
		obj("type", "object", "required", strs(required...), "properties", properties))
}

func prop(typ, description string) jsObject { return obj("type", typ, "description", description) }

var (
	declRead = declaration("read", "Read a text file or image. Long files are cut at 2000 lines or 50KB; continue with offset/limit.",
		obj("path", prop("string", "File to read, relative or absolute"),
			"offset", prop("number", "First line to return (1-indexed)"),
			"limit", prop("number", "Maximum number of lines")), "path")
	declGrep = declaration("grep", "Search file contents with a pattern; .gitignore is respected.",
		obj("pattern", prop("string", "Regular expression or literal text"),
			"path", prop("string", "Directory or file to search"),
			"glob", prop("string", "Only search files matching this glob"),
			"ignoreCase", prop("boolean", "Case-insensitive search"),
			"limit", prop("number", "Maximum number of matches (default 100)")), "pattern")
	declFind = declaration("find", "Find files by glob pattern; .gitignore is respected.",
		obj("pattern", prop("string", "Glob such as src/**/*.ts"),
			"path", prop("string", "Directory to search")), "pattern")
	declLs = declaration("ls", "List a directory.",
		obj("path", prop("string", "Directory to list (default: cwd)"),
			"limit", prop("number", "Maximum number of entries (default 500)")))
	declEdit = declaration("edit", "Replace exact, unique text regions of one file; several disjoint edits may be sent in one call.",
		obj("path", prop("string", "File to edit"),
			"edits", obj("type", "array", "description", "Replacements, each matched against the original file",
				"items", obj("type", "object", "required", strs("oldText", "newText"), "properties",
					obj("oldText", prop("string", "Exact text to replace"), "newText", prop("string", "Replacement text"))))),
		"path", "edits")
	declWrite = declaration("write", "Create a file or replace its whole content; parent directories are created.",
		obj("path", prop("string", "File to write"), "content", prop("string", "Complete new content")), "path", "content")
	declBash = declaration("bash", "Run a shell command in the working directory; long output keeps the last 2000 lines or 50KB.",
		obj("command", prop("string", "Command line to run"),
			"timeout", prop("number", "Timeout in seconds (optional)")), "command")
	declForgeCapability = obj("name", "forge_capability",
		"description", "List, inspect, enable or disable capabilities that the active Preset authorizes for the agent.",
		"parameters", obj("type", "object", "additionalProperties", false, "required", strs("action"), "properties", obj(
			"action", obj("type", "string", "enum", strs("list", "status", "enable", "disable")),
			"id", obj("type", "string", "maxLength", 128))))
)

// promptSections builds Pi's sections for a session that uses the agent-dir
// SYSTEM.md (so `tools`, `rules` and `docs` are omitted, §12.2).
func promptSections(src sources, addendum string) jsObject {
	return obj(
		"preamble", strings.TrimSpace(src.systemMD),
		"addendum", opt(addendum != "", "<addendum>\n"+addendum+"\n</addendum>"),
		"project_context", "<project_context>\nProject-specific instructions and guidelines:\n\n<project_instructions path=\""+
			TokenProjectDir+"/AGENTS.md\">\n"+strings.TrimSpace(src.agentsMD)+"\n</project_instructions>\n</project_context>",
		"cwd", "<cwd>\n"+TokenProjectDirSlash+"\n</cwd>",
	)
}

// Capability events (spec pi-forge-formats §9.6, §9.7) ---------------------

func toolPatch(add, remove []string) jsObject {
	return obj("add", strs(add...), "remove", strs(remove...))
}

// snapshot builds an activation snapshot with its sha256:v1 fingerprint.
func snapshot(activationID string, source jsObject, c capabilityDef) jsObject {
	fp, err := fingerprintJSON(obj(
		"type", "pi-forge.capability-snapshot", "schemaVersion", 1, "source", source,
		"name", c.name, "content", c.content, "tools", toolPatch(c.add, c.remove)))
	if err != nil {
		panic(err)
	}
	return obj("activationId", activationID, "source", source, "name", c.name, "content", c.content,
		"tools", toolPatch(c.add, c.remove), "fingerprint", fp)
}

func capabilitySource(scope, id string, binding jsObject) jsObject {
	return obj("kind", "capability", "key", obj("scope", scope, "id", id), "binding", opt(binding != nil, binding))
}

func activateEvent(eventID, actor string, createdAt int64, snap jsObject) jsObject {
	return obj("schemaVersion", 1, "eventId", eventID, "op", "activate", "actor", actor, "createdAt", createdAt, "snapshot", snap)
}

func deactivateEvent(eventID, actor string, createdAt int64, activationID string) jsObject {
	return obj("schemaVersion", 1, "eventId", eventID, "op", "deactivate", "actor", actor, "createdAt", createdAt, "activationId", activationID)
}

func deliveryAnchor(eventID string) jsObject {
	return obj("schemaVersion", 1, "throughEventId", eventID)
}

// applyEdits applies exact-text edits like Pi's edit tool, failing loudly when
// the generator's own edits do not match.
func applyEdits(content string, edits ...[2]string) string {
	for _, e := range edits {
		if strings.Count(content, e[0]) != 1 {
			panic(fmt.Sprintf("edit text not unique: %q", e[0]))
		}
		content = strings.Replace(content, e[0], e[1], 1)
	}
	return content
}

const testRunBefore = "✔ an empty invoice costs nothing (0.2ms)\nℹ tests 1\nℹ pass 1\nℹ fail 0\n"
const testRunAfter = "✔ two widgets at 5.00 with 8.25% tax cost 10.83 (0.9ms)\n✔ an empty invoice costs nothing (0.1ms)\nℹ tests 2\nℹ pass 2\nℹ fail 0\n"

// guardedSession is the main demo session: profile auto-activation, a bound
// capability enabled and disabled by the agent, two branches with a branch
// summary, labels, a name, a compaction and a model switch.
func guardedSession(src sources) *sessionBuilder {
	s := newSession("guarded", mustTime("2026-11-27T09:14:05.112Z"), "")
	gw := obj("scope", "project", "id", "guarded-worker")

	// Profile auto-activation sets model, thinking level and Preset.
	s.entry("model_change", "provider", modelSonnet.provider, "modelId", modelSonnet.id)
	s.entry("thinking_level_change", "thinkingLevel", "medium")
	s.custom("pi-forge-prompt-stack-state", obj("activeStackId", "project:guarded-worker"))
	s.custom("pi-forge-agent-profile-state", obj("provenance", obj(
		"profileId", "tdd-worker",
		"scope", "project",
		"sourcePath", TokenProjectDir+"/.pi/forge/agent-profiles/tdd-worker.json",
		"sourceFingerprint", jsStringify(profileTDDWorker()),
		"appliedAt", isoTime(s.clock),
		"snapshot", obj("model", obj("provider", modelSonnet.provider, "id", modelSonnet.id),
			"thinkingLevel", "medium", "promptStack", "guarded-worker"),
	)))

	// The user enables the global plain-english capability (unbound, idle: anchored at once).
	s.advance(9000)
	s.custom("pi-forge-capability-tools", obj("schemaVersion", 1,
		"baseline", strs("read", "bash", "edit", "write"),
		"lastApplied", strs("read", "grep", "ls", "forge_capability")))
	plainEvent, plainActivation := uuidV4("guarded/event/plain"), uuidV4("guarded/activation/plain")
	s.custom("pi-forge-capability-event", activateEvent(plainEvent, "user", s.nowMs(),
		snapshot(plainActivation, capabilitySource("global", "plain-english", nil), capPlainEnglish)))
	s.custom("pi-forge-capability-delivery", deliveryAnchor(plainEvent))

	baseSections := promptSections(src, "")
	baseTools := []any{declRead, declGrep, declLs, declForgeCapability}
	s.advance(6000)
	s.system(baseSections, baseTools, nil)
	question := s.userText("Two widgets at $5.00 with 8.25% tax should cost $10.83, but invoiceTotal returns 10.82. Can you find out why?")
	s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "toolUse", durationMs: 2400,
		tokens: tokens{input: 2140, output: 96, cacheWrite: 3120},
		content: []any{
			thinking("A one-cent difference on a tax calculation usually means float rounding. Read invoiceTotal first.", "sig-demo-01"),
			text("Let me look at the invoice code."),
			toolCall("toolu_demo_01", "read", obj("path", "src/invoice.ts")),
		}})
	s.toolResult("toolu_demo_01", "read", invoiceBefore, nil, 14)
	s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "toolUse", durationMs: 1300,
		tokens:  tokens{input: 310, output: 48, cacheRead: 5260},
		content: []any{toolCall("toolu_demo_02", "grep", obj("pattern", "toFixed", "path", "src"))}})
	s.toolResult("toolu_demo_02", "grep", "src/invoice.ts:9:  return Number((subtotal * (1 + taxRate)).toFixed(2));", nil, 22)
	s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "stop", durationMs: 5200,
		tokens: tokens{input: 420, output: 310, cacheRead: 5570},
		content: []any{
			thinking("10 * 1.0825 is 10.825 on paper, but the nearest double is slightly below, so toFixed(2) rounds down.", "sig-demo-02"),
			text("Found it. `invoiceTotal` multiplies floats and rounds once with `toFixed(2)`. For 2 × 5.00 at 8.25% the exact total is 10.825, but the nearest double is 10.824999…, so `toFixed` rounds down to 10.82.\n\nThe robust fix is to compute in integer cents: 1000 cents subtotal + round(82.5) = 83 cents tax = 1083 cents."),
		}})
	s.entry("label", "targetId", question, "label", "bug-report")
	named := s.entry("session_info", "name", "Invoice rounding fix")

	// First branch: a shortcut that the user abandons.
	s.userText("Could we just add 0.005 before calling toFixed?")
	abandoned := s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "stop", durationMs: 3100,
		tokens:  tokens{input: 180, output: 140, cacheRead: 6100},
		content: []any{text("That would fix this case but round up amounts that should round down (10.8249 would become 10.83), and it still depends on float representation. I would not do it.")}})

	// Back to the explanation via /tree, with a summary of the abandoned branch.
	s.advance(20000)
	s.branchFrom(named)
	s.entry("branch_summary", "fromId", abandoned,
		"summary", "Considered adding 0.005 before toFixed(2); rejected because it rounds up amounts that should round down and still relies on float representation.",
		"details", obj("readFiles", strs("src/invoice.ts"), "modifiedFiles", strs()),
		"usage", usage(modelSonnet, tokens{input: 1450, output: 120}),
		"fromHook", false)

	// Second branch: the real fix, with write access enabled by the agent.
	fixRequest := s.userText("Let's do it properly and move to integer cents. You have my OK to edit.")
	s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "toolUse", durationMs: 1500,
		tokens: tokens{input: 260, output: 70, cacheRead: 6300},
		content: []any{
			text("I'll enable write access for this change."),
			toolCall("toolu_demo_03", "forge_capability", obj("action", "enable", "id", "write-access")),
		}})
	writeEvent, writeActivation := uuidV4("guarded/event/write"), uuidV4("guarded/activation/write")
	writeBinding := obj("preset", gw, "id", "write-access")
	s.custom("pi-forge-capability-event", activateEvent(writeEvent, "agent", s.nowMs(),
		snapshot(writeActivation, capabilitySource("project", "write-access", writeBinding), capWriteAccess)))
	// pi-forge re-syncs the tools after each commit and stores the new
	// selection (sideCustom: added later, the other ids stay).
	storeTools := func(lastApplied ...string) {
		s.sideCustom("pi-forge-capability-tools", obj("schemaVersion", 1,
			"baseline", strs("read", "bash", "edit", "write"), "lastApplied", strs(lastApplied...)))
	}
	storeTools("read", "grep", "ls", "forge_capability", "edit", "write", "bash")
	s.toolResult("toolu_demo_03", "forge_capability",
		"Enabled write-access as "+writeActivation+": edit, write and bash are available from the next request.",
		obj("action", "enable", "activationId", writeActivation), 9)
	s.custom("pi-forge-capability-delivery", deliveryAnchor(writeEvent))
	s.system(nil, []any{declEdit, declWrite, declBash}, nil)
	s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "toolUse", durationMs: 4100,
		tokens:  tokens{input: 520, output: 260, cacheRead: 6400, cacheWrite: 900},
		content: []any{toolCall("toolu_demo_04", "write", obj("path", "src/money.ts", "content", src.moneyTS))}})
	s.toolResult("toolu_demo_04", "write", fmt.Sprintf("Wrote src/money.ts (%d bytes).", len(src.moneyTS)), nil, 6)
	edits := [][2]string{
		{"export interface LineItem {", "import { type Cents, toCents } from \"./money.ts\";\n\nexport interface LineItem {"},
		{strings.TrimPrefix(invoiceBefore[strings.Index(invoiceBefore, "export function"):], ""),
			src.invoiceTS[strings.Index(src.invoiceTS, "/** Total of one line"):]},
	}
	if applyEdits(invoiceBefore, edits...) != src.invoiceTS {
		panic("the demo edit does not produce src/invoice.ts")
	}
	var editArgs []any
	for _, e := range edits {
		editArgs = append(editArgs, obj("oldText", e[0], "newText", e[1]))
	}
	s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "toolUse", durationMs: 3900,
		tokens:  tokens{input: 340, output: 290, cacheRead: 7300},
		content: []any{toolCall("toolu_demo_05", "edit", obj("path", "src/invoice.ts", "edits", editArgs))}})
	s.toolResult("toolu_demo_05", "edit", "Applied 2 edits to src/invoice.ts.",
		obj("diff", "+import { type Cents, toCents } from \"./money.ts\";\n+\n export interface LineItem {\n…\n-export function invoiceTotal(items: LineItem[], taxRate: number): number {\n-  const subtotal = items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);\n-  return Number((subtotal * (1 + taxRate)).toFixed(2));\n+export function invoiceTotal(items: LineItem[], taxRate: number): Cents {\n+  const subtotal = items.reduce((sum, item) => sum + lineTotal(item), 0);\n+  return subtotal + Math.round(subtotal * taxRate);"), 11)
	s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "toolUse", durationMs: 1100,
		tokens:  tokens{input: 200, output: 40, cacheRead: 7700},
		content: []any{toolCall("toolu_demo_06", "bash", obj("command", "npm test"))}})
	s.toolResult("toolu_demo_06", "bash", testRunBefore, nil, 1840)
	s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "toolUse", durationMs: 1400,
		tokens: tokens{input: 260, output: 60, cacheRead: 7900},
		content: []any{
			text("Tests pass. Disabling write access again."),
			toolCall("toolu_demo_07", "forge_capability", obj("action", "disable", "id", "write-access")),
		}})
	stopEvent := uuidV4("guarded/event/write-stop")
	s.custom("pi-forge-capability-event", deactivateEvent(stopEvent, "agent", s.nowMs(), writeActivation))
	storeTools("read", "grep", "ls", "forge_capability")
	s.toolResult("toolu_demo_07", "forge_capability", "Disabled "+writeActivation+"; tools are back to the Preset defaults.",
		obj("action", "disable", "activationId", writeActivation), 7)
	s.custom("pi-forge-capability-delivery", deliveryAnchor(stopEvent))
	s.system(nil, nil, []string{"edit", "write", "bash"})
	s.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "stop", durationMs: 3600,
		tokens:  tokens{input: 330, output: 210, cacheRead: 8050},
		content: []any{text("Done. `src/money.ts` converts amounts to integer cents, and `invoiceTotal` now sums cents and rounds the tax once, half up. 2 × 5.00 at 8.25% gives 1083 cents ($10.83). Write access is disabled again.")}})
	s.entry("usage", "kind", "cache_warm", "provider", modelSonnet.provider, "model", modelSonnet.id,
		"usage", usage(modelSonnet, tokens{cacheRead: 8400}))

	// Manual compaction, keeping the fix request onwards.
	s.advance(60000)
	s.entry("compaction",
		"summary", "## Goal\nFix a one-cent rounding error in invoiceTotal.\n\n## Progress\n- Cause: toFixed(2) on a float total (10.825 is stored as 10.824999…).\n- Added src/money.ts and switched invoiceTotal to integer cents.\n- npm test passes.\n\n## Next\n- Add a regression test for the 10.83 case.",
		"firstKeptEntryId", fixRequest,
		"tokensBefore", 48210,
		"details", obj("readFiles", strs("src/invoice.ts"), "modifiedFiles", strs("src/money.ts", "src/invoice.ts")),
		"usage", usage(modelSonnet, tokens{input: 9100, output: 380}),
		"fromHook", false,
		"systemMessage", obj("role", "system", "content", "", "sections", baseSections, "toolsAdded", baseTools,
			"timestamp", s.clock.Add(1e6).UnixMilli()))

	// Model switch, and the user enables the same binding by hand.
	s.advance(45000)
	s.entry("model_change", "provider", modelGPT54.provider, "modelId", modelGPT54.id)
	s.entry("thinking_level_change", "thinkingLevel", "high")
	userEvent, userActivation := uuidV4("guarded/event/write-user"), uuidV4("guarded/activation/write-user")
	s.custom("pi-forge-capability-event", activateEvent(userEvent, "user", s.nowMs(),
		snapshot(userActivation, capabilitySource("project", "write-access", writeBinding), capWriteAccess)))
	s.custom("pi-forge-capability-delivery", deliveryAnchor(userEvent))
	storeTools("read", "grep", "ls", "forge_capability", "edit", "write", "bash")
	s.advance(3000)
	s.system(nil, []any{declEdit, declWrite, declBash}, nil)
	s.userText("Add a regression test for the 10.83 case.")
	s.assistant(assistantTurn{model: modelGPT54, thinking: "high", openAI: true, stopReason: "toolUse", durationMs: 6800,
		tokens: tokens{input: 3900, output: 520, cacheRead: 1200, reasoning: 310},
		content: []any{
			obj("type", "thinking", "thinking", "", "thinkingSignature", `{"id":"rs_demo_1","encrypted_content":"gAAAAB-demo"}`, "redacted", false),
			toolCall("call_demo_08", "write", obj("path", "test/invoice.test.ts", "content", src.invoiceTestTS)),
		}})
	s.toolResult("call_demo_08", "write", fmt.Sprintf("Wrote test/invoice.test.ts (%d bytes).", len(src.invoiceTestTS)), nil, 5)
	s.assistant(assistantTurn{model: modelGPT54, thinking: "high", openAI: true, stopReason: "toolUse", durationMs: 1900,
		tokens:  tokens{input: 4600, output: 35, cacheRead: 4400},
		content: []any{toolCall("call_demo_09", "bash", obj("command", "npm test"))}})
	s.toolResult("call_demo_09", "bash", testRunAfter, nil, 1910)
	final := s.assistant(assistantTurn{model: modelGPT54, thinking: "high", openAI: true, stopReason: "stop", durationMs: 2700,
		tokens: tokens{input: 4800, output: 120, cacheRead: 4600, reasoning: 40},
		content: []any{obj("type", "text", "text", "Added `test/invoice.test.ts` with the 2 × 5.00 at 8.25% case (expects 1083 cents); both tests pass.",
			"textSignature", `{"v":1,"id":"msg_demo_1","phase":"final_answer"}`)}})
	s.entry("label", "targetId", final, "label", "regression-test")
	return s
}

// mirrorSession is a short question answered under the Pi Prompt Mirror
// Preset, then the Preset is switched off and a request fails once.
func mirrorSession(src sources) *sessionBuilder {
	s := newSession("mirror", mustTime("2026-11-27T16:02:41.907Z"), "")
	s.entry("model_change", "provider", modelHaiku.provider, "modelId", modelHaiku.id)
	s.entry("thinking_level_change", "thinkingLevel", "low")
	s.custom("pi-forge-prompt-stack-state", obj("activeStackId", "project:pi-mirror"))
	s.advance(5000)
	s.system(promptSections(src, ""), []any{declRead, declBash, declEdit, declWrite}, nil)
	s.userText("How does formatCents handle other currencies?")
	s.assistant(assistantTurn{model: modelHaiku, thinking: "low", stopReason: "toolUse", durationMs: 900,
		tokens: tokens{input: 1500, output: 60, cacheWrite: 1800},
		content: []any{
			thinking("Check money.ts.", "sig-demo-11"),
			toolCall("toolu_demo_11", "read", obj("path", "src/money.ts")),
		}})
	s.toolResult("toolu_demo_11", "read", src.moneyTS, nil, 9)
	s.assistant(assistantTurn{model: modelHaiku, thinking: "low", stopReason: "stop", durationMs: 1700,
		tokens:  tokens{input: 380, output: 150, cacheRead: 3300},
		content: []any{text("`formatCents(cents, currency)` passes the currency code to `Intl.NumberFormat` with the `en-US` locale, so `formatCents(1083, \"EUR\")` prints `€10.83`. It always divides by 100, which is wrong for currencies without minor units such as JPY.")}})
	s.advance(15000)
	s.message(obj("role", "bashExecution", "command", `node -e "console.log(new Intl.NumberFormat('en-US',{style:'currency',currency:'JPY'}).format(10.83))"`,
		"output", "¥11\n", "exitCode", 0, "cancelled", false, "truncated", false, "timestamp", s.nowMs()))
	s.entry("session_info", "name", "Currency formatting")
	s.advance(30000)
	s.custom("pi-forge-prompt-stack-state", obj("activeStackId", "none"))
	s.userText("Without the Preset now: what does toCents(0.1 + 0.2) return?")
	s.assistant(assistantTurn{model: modelHaiku, thinking: "low", stopReason: "error", durationMs: 400,
		errorMessage: "overloaded_error: Overloaded", content: []any{}})
	s.assistant(assistantTurn{model: modelHaiku, thinking: "low", stopReason: "stop", durationMs: 1200,
		tokens:  tokens{input: 420, output: 70, cacheRead: 3700},
		content: []any{text("30. `0.1 + 0.2` is 0.30000000000000004, times 100 is 30.000000000000004, and `Math.round` gives 30.")}})
	return s
}
