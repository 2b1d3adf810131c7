// Package jsregex runs JavaScript regular expressions (flags g, i, m, s, u)
// the way pi-forge's regex rules see them: Compile translates a pattern onto
// regexp2 with JavaScript's meaning of ".", anchors, word boundaries,
// classes, escapes, Unicode properties, case folding and group numbering,
// and Replace, Substitute and ExpandTrimmed give String.prototype.replace's
// results (and pi-forge's trimming expander). Every match is bounded by
// MatchTimeout and, when given, a Limiter. It imports nothing of the
// project: a leaf under engine/preset.
package jsregex
