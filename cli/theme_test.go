package cli

import (
	"strings"
	"testing"
)

// --theme lists the themes there are, never the empty string that stands
// for "not given" (issue 23, item 7).
func TestBadThemeFlagListsTheThemes(t *testing.T) {
	code, _, errOut := runCLI(t, "--theme", "purple", "version")
	if code != exitUsage || !strings.Contains(errOut, `--theme: unknown theme "purple" (themes: auto, dark, light)`) || strings.Contains(errOut, `""`) {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "--theme=drak", "version")
	if code != exitUsage || !strings.Contains(errOut, `did you mean "dark"?`) {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	for _, ok := range []string{"auto", "dark", "light"} {
		if code, _, errOut := runCLI(t, "--theme", ok, "version"); code != exitOK {
			t.Fatalf("--theme %s: exit %d, %q", ok, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "--theme=", "version"); code != exitUsage || !strings.Contains(errOut, `unknown theme ""`) {
		t.Fatalf("--theme= is not a theme: exit %d, %q", code, errOut)
	}
}
