package forms

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParseProblem: any text gets a verdict without panicking, and a
// located problem names a line that exists.
func FuzzParseProblem(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":`, "[1]", "", "{\n\"x\": }", "\xff{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p := parseProblem(text, NounProfile)
		if strings.HasPrefix(p, "invalid JSON at line ") {
			var line int
			if _, err := fmtSscanf(p, &line); err == nil && line > strings.Count(text, "\n")+1 {
				t.Fatalf("line %d beyond the text: %q", line, p)
			}
		}
		v, _ := lenientValue(text)
		_ = v
	})
}

func fmtSscanf(p string, line *int) (int, error) {
	return fmt.Sscanf(p, "invalid JSON at line %d", line)
}
