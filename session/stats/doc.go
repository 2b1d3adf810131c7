// Package stats counts what a Pi session cost and used, over what the
// session package reads: Pi's session statistics for a file or a branch
// (SessionStats, BranchStats, EntriesStats; StatsJSON and StatsValue render
// `session stats --json`), the per-request list the charts draw (Requests),
// the main requests apart from the runs inside tool calls (SplitStreams,
// pi-forge's forgeNestedUsage reports),
// spending by day and session over a project (SpendOf, SpendValue), finished
// cost sums (RoundSum), and the digest: one pass over a file without
// keeping it, with the numbers SessionStats would give (ReadDigest; the
// Agents dashboards and pi-subagent trees read every session that way).
package stats
