package cli

import (
	"regexp"
	"strings"
	"testing"
)

// noisySum is a money or token sum printed with the noise of binary
// additions (0.15511500000000003): more than 12 significant digits.
var noisySum = regexp.MustCompile(`"(cost|total|stored|recomputed|tokens|input|output|cacheRead|cacheWrite)": ?-?\d+\.\d*[0-9]{13,}`)

// TestSumsPrintAsPeopleWriteThem: every command that prints a sum of costs
// or tokens prints it rounded to 12 significant digits (issue 23).
func TestSumsPrintAsPeopleWriteThem(t *testing.T) {
	args, _ := demoArgs(t)
	for _, cmd := range [][]string{
		{"session", "stats", "01a2219b", "--json"},
		{"session", "stats", "01a21c48", "--json"},
		{"session", "stats", "01a21c48", "--branch", "--json"},
		{"agents", "list", "01a2219b", "--json"},
		{"agents", "show", "test_run", "--json"},
		{"agents", "show", "invoice_review/edge_cases", "--json"},
	} {
		code, out, errOut := runCLI(t, in(args, cmd...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d %s", strings.Join(cmd, " "), code, errOut)
		}
		if m := noisySum.FindAllString(out, -1); len(m) > 0 {
			t.Errorf("%s prints sums with float noise: %v", strings.Join(cmd, " "), m)
		}
	}
}
