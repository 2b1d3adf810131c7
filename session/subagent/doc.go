// Package subagent reads pi-subagent agent trees (spec pi-session-formats
// Part B, §15–§25) from files, with no Pi running: the tree a root session
// selects with its pi-subagent/tree-v2 marker, state.json validated with
// pi-subagent's own messages but read leniently, every agent's own session
// digested for statistics (copied parent history excluded), recent activity,
// model truth, read-only transcripts, and the role catalog and subagent.json
// configuration.
//
// Reading is lenient as §25.1 asks: unknown fields are ignored, newer
// versions and unknown statuses are warnings, a corrupt state.json leaves
// the agent sessions viewable, and fields only the README names (lifecycle,
// model, thinking, last_response, telemetry sidecars) are used when present
// and never required. pi-subagent 0.3.0 trees (sibling child sessions with
// lineage entries) are recognised for listing.
//
// Nothing here writes: forgebench never changes state.json or a session.
//
// Main entry points: Open loads a tree from its root session file;
// Tree.Summaries computes per-agent statistics (cached by file size and
// mtime in a Cache); Activity and NewTranscript read one agent's session;
// LoadConfig and LoadRoles read subagent.json and role Markdown.
package subagent
