// Package diffview draws request diffs: a block list (one row per request
// block with its status, token figures and the cache boundary drawn as a
// rule) and a line diff of one block (unified or side by side, with
// changes-only, three-line or full context). It is a pure view component:
// no IO, no bubbletea program, no key bindings. BlockList and LineView hold
// scroll and selection state and change it through methods; their View is
// a pure function of that state, the themes.Styles passed in and the size,
// and draws only the visible rows, exactly width×height cells, with status
// readable without colour (glyphs = ~ + -, signs + -).
//
// # Feeding it
//
// The Payloads panel (and `payload diff` adapters) turn a diffTurns result
// (pi-forge-formats §13.3) into a Diff: one Block per result block, with
// Status from ParseStatus(block.status), Key and Role from the after side
// (the before side for a removed block), Before/After from the two sides'
// text, BeforeTokens/AfterTokens from their approxTokens and TokenDelta as
// given; Totals from prefixTokens, prefixRatio, deltaTokens and the
// summary; Boundary = FirstChange(blocks), the block where the prefix walk
// stopped. Label is the panel's human name for a key (e.g. "user message
// 3" for message-user-1a2b3c4d).
//
// The Presets draft diff does the same with the diffTurns of the saved
// preset's preview against the draft's (§13.4): blocks keyed by diffKey or
// item id, labelled with the item's title.
//
// For the selected block, build the line diff with NewLineDiff(Before,
// After) inside a tea.Cmd (it runs the diff; a 5,000-line block takes a
// few milliseconds) and hand it to LineView.SetDiff from Update. Keep the
// *LineDiff per block if the user moves back and forth.
//
// Panels map their keymap bindings to the methods: BlockList.MoveBy,
// PageDown, NextChange, …; LineView.ScrollBy, NextHunk, ToggleLayout,
// CycleContext, SetWrap. A theme switch needs nothing: styles are an
// argument of View, never stored.
//
// Text from files is made screen-safe line by line with the product's
// sanitiser; lines longer than 64 KiB are cut with a note. Long lines wrap
// (keeping every character) or truncate with "…". Split needs
// MinSplitWidth columns and draws unified below that (Caption says so).
package diffview
