package demo

// The end of the pre-release review (the newest demo session): the user
// switches to the Guarded Worker Preset and works the capability commands,
// then the agent enables write-access itself (spec pi-forge-formats §9.5–§9.12).
// It gives the Capabilities panel and `capability status` a history on the
// session they open by default.

// resetEvent is the payload of /capability reset (§9.6).
func resetEvent(eventID string, createdAt int64) jsObject {
	return obj("schemaVersion", 1, "eventId", eventID, "op", "reset", "actor", "user", "createdAt", createdAt)
}

// reviewBinding is capability review-mode as the Guarded Worker's binding
// "review" delivers it (appendContent override, §9.4).
func reviewBinding() capabilityDef {
	c := capReviewMode
	c.content += "\n\n" + reviewAppendContent
	return c
}

// reviewAppendContent is the override of the Guarded Worker's review binding.
const reviewAppendContent = "Pay special attention to money handling: rounding, currency and tax."

// releaseCapabilities appends the release chores to the root session. The
// agent is idle for every user command, so each event is anchored at once
// (one delivery anchor per event); the agent's own enable is anchored before
// its next request.
func releaseCapabilities(root *sessionBuilder) {
	gw := obj("scope", "project", "id", "guarded-worker")
	commit := func(seed string, event jsObject) {
		root.custom("pi-forge-capability-event", event)
		root.custom("pi-forge-capability-delivery", deliveryAnchor(uuidV4("release/event/"+seed)))
	}
	event := func(seed string) string { return uuidV4("release/event/" + seed) }
	activation := func(seed string) string { return uuidV4("release/activation/" + seed) }

	// /preset guarded-worker: the pi-subagent tools leave the selection.
	root.advance(60000)
	root.custom("pi-forge-prompt-stack-state", obj("activeStackId", "project:guarded-worker"))

	// /capability enable-bound review: the first commit stores the tools
	// baseline the Preset's selection policy replaced.
	root.advance(8000)
	root.custom("pi-forge-capability-tools", obj("schemaVersion", 1,
		"baseline", strs("read", "spawn_agent", "send_message", "wait_agent", "close_agent"),
		"lastApplied", strs("read", "grep", "ls", "forge_capability")))
	commit("review", activateEvent(event("review"), "user", root.nowMs(),
		snapshot(activation("review"), capabilitySource("project", "review-mode", obj("preset", gw, "id", "review")), reviewBinding())))

	// /capability enable global:plain-english (unbound, user-owned).
	root.advance(5000)
	commit("plain", activateEvent(event("plain"), "user", root.nowMs(),
		snapshot(activation("plain"), capabilitySource("global", "plain-english", nil), capPlainEnglish)))

	// /capability disable review, then /capability reset.
	root.advance(20000)
	commit("review-stop", deactivateEvent(event("review-stop"), "user", root.nowMs(), activation("review")))
	root.advance(10000)
	commit("reset", resetEvent(event("reset"), root.nowMs()))

	// /capability enable plain-english again: a new activation.
	root.advance(4000)
	commit("plain-again", activateEvent(event("plain-again"), "user", root.nowMs(),
		snapshot(activation("plain-again"), capabilitySource("global", "plain-english", nil), capPlainEnglish)))

	// The next request carries the Preset's tools; the agent enables its
	// modelCallable binding to run the suite.
	root.advance(3000)
	root.system(nil, []any{declGrep, declLs, declForgeCapability}, []string{"spawn_agent", "send_message", "wait_agent", "close_agent"})
	root.userText("Last step before the tag: run the test suite once more in this session.")
	root.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "toolUse", durationMs: 1300,
		tokens: tokens{input: 2300, output: 70, cacheWrite: 2600},
		content: []any{
			text("Running the suite needs bash; I'll enable the write-access binding."),
			toolCall("toolu_rel_01", "forge_capability", obj("action", "enable", "id", "write-access")),
		}})
	writeActivation := activation("write")
	root.custom("pi-forge-capability-event", activateEvent(event("write"), "agent", root.nowMs(),
		snapshot(writeActivation, capabilitySource("project", "write-access", obj("preset", gw, "id", "write-access")), capWriteAccess)))
	// pi-forge re-syncs the tools right after the commit and stores the
	// new selection (the anchor waits for the next request).
	root.custom("pi-forge-capability-tools", obj("schemaVersion", 1,
		"baseline", strs("read", "spawn_agent", "send_message", "wait_agent", "close_agent"),
		"lastApplied", strs("read", "grep", "ls", "forge_capability", "edit", "write", "bash")))
	root.toolResult("toolu_rel_01", "forge_capability",
		"Selected "+writeActivation+"; tools prepared, instruction pending next model request. Use /capability disable "+writeActivation+" to stop.",
		obj("action", "enable", "activationId", writeActivation, "idempotent", false), 8)
	root.custom("pi-forge-capability-delivery", deliveryAnchor(event("write")))
	root.system(nil, []any{declEdit, declWrite, declBash}, nil)
	root.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "toolUse", durationMs: 900,
		tokens:  tokens{input: 480, output: 30, cacheRead: 2600, cacheWrite: 700},
		content: []any{toolCall("toolu_rel_02", "bash", obj("command", "npm test"))}})
	root.toolResult("toolu_rel_02", "bash", testOutput, nil, 2300)
	root.assistant(assistantTurn{model: modelSonnet, thinking: "medium", stopReason: "stop", durationMs: 1100,
		tokens:  tokens{input: 520, output: 60, cacheRead: 3300},
		content: []any{text("All 2 tests pass, so 0.3.1 is ready to tag. Write access is still enabled; disable it with /capability disable write-access once you have tagged.")}})
}
