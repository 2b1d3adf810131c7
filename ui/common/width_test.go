package common

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// widthSamples are strings a frame holds and strings that leave Width's
// fast path (wide, combining, emoji, other escapes, controls).
var widthSamples = []string{
	"", "plain", "┏━ Timeline ━┓ 52/52 ━┛", "\x1b[1;38;2;1;2;3mbold\x1b[m │ x", "▌█▀▄░", "日本語", "e\u0301", "🙂", "👍🏽",
	"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "tab\there", "a\x00b", "\x1b[", "\x1b[2", "\x1bx", "é — … · →", "│\u200d│", "\x7f",
}

// Width is ansi.StringWidth on every sample and on their joins.
func TestWidthIsStringWidth(t *testing.T) {
	for _, a := range widthSamples {
		for _, b := range widthSamples {
			s := a + b
			if got, want := Width(s), ansi.StringWidth(s); got != want {
				t.Fatalf("Width(%q) = %d, ansi.StringWidth says %d", s, got, want)
			}
		}
	}
}

// JoinRows is lipgloss.JoinVertical(lipgloss.Left, …), byte for byte.
func TestJoinRowsIsJoinVertical(t *testing.T) {
	parts := []string{"header │ x", "\x1b[7m1 Presets\x1b[m│2 Caps", strings.Join(widthSamples, "\n"), "footer\twith tab\r\nnext", ""}
	for n := 0; n <= len(parts); n++ {
		if got, want := JoinRows(parts[:n]...), lipgloss.JoinVertical(lipgloss.Left, parts[:n]...); got != want {
			t.Fatalf("%d parts: JoinRows %q, JoinVertical %q", n, got, want)
		}
	}
}

// FuzzWidth holds Width to ansi.StringWidth on any string.
func FuzzWidth(f *testing.F) {
	for _, s := range widthSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth says %d", s, got, want)
		}
	})
}
