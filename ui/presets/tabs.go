package presets

import (
	"strings"
)

// The inline block editor (bubbles' textarea) turns every tab it is given
// into four spaces, so pasting a tab, or merely moving the cursor in a
// block that holds one, would rewrite the block. The editor holds tabMark
// in their place instead, which it shows as it is, and the draft gets the
// tabs back: block text keeps its tabs.

// tabMark stands for a tab inside the inline editor.
const tabMark = "⇥"

// toEditor is block text as the inline editor holds it.
func toEditor(s string) string { return strings.ReplaceAll(s, "\t", tabMark) }

// fromEditor is the inline editor's text as block text.
func fromEditor(s string) string { return strings.ReplaceAll(s, tabMark, "\t") }
