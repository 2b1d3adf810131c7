package diffview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
)

// Test data: a system prompt before and after a preset edit, with a
// changed line, a removed rule, two added lines (one long enough to wrap,
// one with wide characters), a second hunk further down, and a final
// newline only on the after side.
const (
	promptBefore = `You are a meticulous coding assistant.
Follow the user's instructions precisely.

## Rules
- Inspect the relevant code before proposing changes.
- Prefer minimal diffs.
- Never run destructive commands.
- Ask before installing dependencies.

## Tools
read, edit, bash

## Style
Answer in short paragraphs.
Use code blocks for code.
Cite file paths as path:line.

## Project
The project is forgebench, a Go TUI.
Tests use golden files.`

	promptAfter = `You are a meticulous coding assistant.
Follow the user's instructions precisely and explain trade-offs briefly.

## Rules
- Inspect the relevant code before proposing changes.
- Prefer minimal diffs.
- Ask before installing dependencies.
- When a change touches more than three files, list them first and wait for the user to confirm before editing anything at all.
- 日本語のコメントはそのまま残す 🙂

## Tools
read, edit, bash

## Style
Answer in short paragraphs.
Use code blocks for code.
Cite file paths as path:line.

## Project
The project is forgebench, a Go TUI written with Charm v2.
Tests use golden files.
`
)

// sampleBlocks is a 12-block request diff: same prefix, a modified block,
// a removed and an added one, and same blocks after the cache boundary.
func sampleBlocks() Diff {
	blocks := []Block{
		{Key: "system", Label: "system prompt", Role: "system", Status: StatusSame, BeforeTokens: 412, AfterTokens: 412},
		{Key: "message-user-1a2b3c4d", Label: "user #1", Role: "user", Status: StatusSame, BeforeTokens: 32, AfterTokens: 32},
		{Key: "message-assistant-9f00aa01", Label: "assistant #1", Role: "assistant", Status: StatusSame, BeforeTokens: 31, AfterTokens: 31},
		{Key: "message-toolResult-77e1c0de", Label: "read src/parser.ts", Role: "toolResult", Status: StatusModified, Before: promptBefore, After: promptAfter, BeforeTokens: 1480, AfterTokens: 1533, TokenDelta: 53},
		{Key: "message-user-5c5c5c5c", Label: "user #2", Role: "user", Status: StatusSame, BeforeTokens: 20, AfterTokens: 20},
		{Key: "message-assistant-0badf00d", Label: "assistant #2", Role: "assistant", Status: StatusRemoved, Before: "I will read the file first.", BeforeTokens: 7, TokenDelta: -7},
		{Key: "message-user-feedbeef", Label: "user #3", Role: "user", Status: StatusAdded, After: "Please also update the changelog.", AfterTokens: 9, TokenDelta: 9},
		{Key: "request-tools", Role: "request", Status: StatusSame, BeforeTokens: 2210, AfterTokens: 2210},
		{Key: "request-model", Role: "request", Status: StatusSame, BeforeTokens: 6, AfterTokens: 6},
		{Key: "request-temperature", Role: "request", Status: StatusModified, Before: `{"temperature": 0.7}`, After: `{"temperature": 0.2}`, BeforeTokens: 6, AfterTokens: 6},
		{Key: "request-max_tokens", Role: "request", Status: StatusSame, BeforeTokens: 7, AfterTokens: 7},
		{Key: "request-stream", Role: "request", Status: StatusSame, BeforeTokens: 5, AfterTokens: 5},
	}
	d := Diff{Blocks: blocks, Boundary: FirstChange(blocks), Totals: Summarize(blocks)}
	d.Totals.PrefixTokens, d.Totals.PrefixRatio = 488, 488.0/4293
	return d
}

// manyBlocks is an n-block diff for scrolling tests and benchmarks.
func manyBlocks(n int) Diff {
	blocks := make([]Block, n)
	for i := range blocks {
		st := StatusSame
		switch {
		case i == n/3:
			st = StatusModified
		case i%17 == 5 && i > n/3:
			st = StatusAdded
		}
		blocks[i] = Block{Key: fmt.Sprintf("message-%d", i), Role: []string{"user", "assistant", "toolResult"}[i%3],
			Status: st, BeforeTokens: 10 + i, AfterTokens: 10 + i}
	}
	return Diff{Blocks: blocks, Boundary: FirstChange(blocks), Totals: Summarize(blocks)}
}

// bigTexts is a 5,000-line block with a change every 50 lines.
func bigTexts() (string, string) {
	var b, a strings.Builder
	for i := 1; i <= 5000; i++ {
		line := fmt.Sprintf("line %d of a long tool result: the quick brown fox jumps over the lazy dog", i)
		b.WriteString(line + "\n")
		if i%50 == 0 {
			a.WriteString(line + " (edited)\n")
		} else {
			a.WriteString(line + "\n")
		}
	}
	return b.String(), a.String()
}

// styles for the three palettes tests use.
func darkStyles() *themes.Styles  { s := themes.For(themes.Dark, true, false); return &s }
func lightStyles() *themes.Styles { s := themes.For(themes.Light, false, false); return &s }
func monoStyles() *themes.Styles  { s := themes.For(themes.Dark, true, true); return &s }

// plainLines strips styling from rendered lines.
func plainLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return out
}

// assertFrame fails unless lines are exactly height lines of exactly
// width cells (zero-width views are empty lines).
func assertFrame(t testing.TB, lines []string, width, height int) {
	t.Helper()
	if len(lines) != height {
		t.Fatalf("%d lines, want %d", len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != width {
			t.Fatalf("line %d is %d cells, want %d: %q", i, w, width, ansi.Strip(l))
		}
	}
}

// lineView builds a view of two texts with the given settings.
func lineView(before, after string, layout Layout, ctx ContextMode, width, height int) LineView {
	v := NewLineView()
	v.SetTexts(before, after)
	v.SetSize(width, height)
	v.SetLayout(layout)
	v.SetContext(ctx)
	return v
}
