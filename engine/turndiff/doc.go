// Package turndiff compares provider requests the way pi-forge's run diff
// does (spec pi-forge-formats §12–13), without IO.
//
// A request becomes a Turn: an ordered list of Blocks (the system prompt,
// one block per message, one block per other request field), each with a
// key, role, text, UTF-16 length, chars/4 token estimate and an FNV-1a hash
// (ExtractTurnSnapshot, pi-forge's extractTurnSnapshot). DiffTurns aligns
// two turns, classifies every block (same / modified / added / removed),
// walks the cache prefix and spreads the token delta (pi-forge's diffTurns);
// DiffJSON renders the result byte-compatible with pi-forge's JSON.
//
// The package also holds pi-forge's display rendering of a captured payload
// (FormatPayload: redaction and the 200,000-character cut), the recovery
// report of a truncated saved payload (Recover), the draft diff of two
// compiled previews (PreviewTurn), prompt-cache figures from recorded usage
// (CacheSeries) and the vocabulary of cache-break causes (Cause).
package turndiff
