package cli

import (
	"strings"
	"testing"
)

// TestAppendIndented: a block's text is shown with its lines indented
// (every line, empty ones too), "(empty)" for none.
func TestAppendIndented(t *testing.T) {
	indentBlock := func(s, prefix string) string {
		if s == "" {
			return prefix + "(empty)"
		}
		return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
	}
	for _, s := range []string{"", "one", "a\nb", "a\n", "\n", "\n\nx\n\n", "日本\nx"} {
		if got, want := string(appendIndented([]byte("<"), s, "  ")), "<"+indentBlock(s, "  "); got != want {
			t.Errorf("appendIndented(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestAppendCountIsCount(t *testing.T) {
	for _, n := range []int{0, 7, 999, 1000, 12345, 999999, 1000000, 1234567890, -5, -12345} {
		if got, want := string(appendCount(nil, n)), count(float64(n)); got != want {
			t.Errorf("appendCount(%d) = %q, want %q", n, got, want)
		}
	}
}
