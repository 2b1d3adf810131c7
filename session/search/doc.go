// Package search finds text in Pi session files and pi-subagent agent
// transcripts straight from the files, with no index.
//
// What matches is the text a person reads: message text, tool calls (name
// and argument values) and tool results, bash commands and their output,
// thinking, compaction and branch summaries, custom messages and an
// assistant's error message. JSON key names and syntax never match, and the
// escapes in the file (\n, \", \\, \/, \uXXXX including surrogate pairs)
// match the characters they stand for. System prompts are not searched:
// they repeat in every session and would bury the hits.
//
// Speed comes from reading raw bytes: each file is read in large reused
// buffers on all cores and scanned for a candidate — the query's literal
// text as JSON writes it (each character in every case form it folds to),
// or an escape that stands for one of its characters — and only the lines
// that hold one are decoded and matched exactly. Files that had no hit for
// a query and have the same size and modification time are not read again
// in the same process for that query or a narrower one (Searcher's cache).
//
// A file is read up to the size it had when the search listed it, so a
// session that grows while being searched gives a consistent snapshot; a
// line longer than MaxLineBytes is skipped as the display reader skips it.
//
// Hits carry the entry's place in the session tree: whether it lies on the
// active branch (root to the last entry in file order, spec §6) or on an
// abandoned one, and for agent transcripts the agent's path (spec §16).
package search
