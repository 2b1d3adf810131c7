// Package session reads Pi 1.6.0 session files (JSONL) the way Pi does:
// the format, its tree and context at a leaf, discovery, tail and the one
// guarded writer. Requests and payloads rebuilt at an entry live in
// session/replay, capability state in session/capstate, statistics, cost
// and digests in session/stats.
//
// Reading is tolerant exactly like Pi's loadEntriesFromFile: blank and
// malformed lines are skipped (and counted in Diagnostics), the first parsed
// line must be the session header, a missing final newline is accepted and
// never repaired by reading. v1 and v2 files are migrated
// in memory only. Lines longer than Options.MaxLineBytes are skipped without
// being held in memory.
//
// Entries are kept in file order with an index by id. Each entry keeps its
// raw line; type, id, parentId, timestamp and the message role are decoded
// eagerly by a validating scanner, everything else on demand, so opening a
// very large file costs little more than reading it.
//
// Main entry points: Open / Read load a Session; Session.Tree builds the
// entry forest; Session.Context builds Pi's buildSessionProjection at a leaf;
// ConvertToLLM is Pi's convertToLlm; ContextJSON and SummaryJSON render the
// CLI's --json outputs. ListCwd/ListAll discover sessions from bounded
// reads, Tail follows a file Pi is writing, and Append is the only writer:
// guarded, append-only, one complete line per entry (spec §11).
package session
