package cli

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Tables of human output are aligned by display width, not by runes as
// fmt's %-8s counts: a Chinese header or label is two columns per
// character, and a table with one stays aligned. Unlike pad, which keeps
// a space after a cell that fills its column, these are fmt's %-Ns and %Ns
// in display columns.

// padRight is fmt's %-*s in display columns.
func padRight(s string, width int) string {
	if n := ansi.StringWidth(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// padLeft is fmt's %*s in display columns.
func padLeft(s string, width int) string {
	if n := ansi.StringWidth(s); n < width {
		return strings.Repeat(" ", width-n) + s
	}
	return s
}
