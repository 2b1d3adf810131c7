// Package replay rebuilds, at one entry of a session, what Pi and pi-forge
// had in force and what they sent: the system prompt replayed from the
// branch's system messages (SystemPromptAt, ToolsAt), the pi-forge runtime,
// Preset and Profile state (ForgeRuntimeAt, RunContextAt, ActivePresetAt,
// ProfileStateAt, ProfileStatusAt), the request sent to the model
// (RequestAt, PresetRequestAt), request references resolved to sessions or
// saved payload files (Resolver), and the cache and cause reports that
// explain how two requests differ (CacheReportAt, Predict, ExplainDiff).
//
// It reads sessions through package session only and writes nothing.
package replay
