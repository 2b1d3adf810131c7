package cli

import (
	"strings"
	"testing"
)

// TestPresetValidateDefaultsToTheActivePreset: pi-forge 0.5.6's /preset
// validate checks the active Preset only; --all checks every one (exit 1
// when any has an error).
func TestPresetValidateDefaultsToTheActivePreset(t *testing.T) {
	args, layout := demoArgs(t)
	code, out, errOut := runCLI(t, in(args, "preset", "validate", "--session", mainSession(t, layout))...)
	if code != exitOK || !strings.Contains(out, "project:guarded-worker") || strings.Contains(out, "broken-on-purpose") || strings.Contains(out, "pi-mirror") {
		t.Fatalf("active Preset: exit %d\n%s%s", code, out, errOut)
	}
	// Without --session: the project's newest session, named on stderr.
	code, out, errOut = runCLI(t, in(args, "preset", "validate")...)
	if code != exitOK || !strings.Contains(out, "project:guarded-worker") || strings.Contains(out, "broken-on-purpose") || errOut == "" {
		t.Fatalf("newest session: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, in(args, "preset", "validate", "--session", currencySession(t, layout))...)
	if code != exitUsage || !strings.Contains(errOut, "No active preset.") {
		t.Fatalf("Preset switched off: exit %d %s", code, errOut)
	}
	code, out, _ = runCLI(t, in(args, "preset", "validate", "--all")...)
	if code != exitFailed || !strings.Contains(out, "broken-on-purpose") || !strings.Contains(out, "pi-mirror") {
		t.Fatalf("--all: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, in(args, "preset", "validate", "--all", "pi-mirror")...); code != exitUsage {
		t.Fatalf("--all with selectors: exit %d", code)
	}
}

// TestPresetUseOfAPresetWithErrors says so and lists the errors (exit 1),
// never "Unknown prompt stack", and writes nothing.
func TestPresetUseOfAPresetWithErrors(t *testing.T) {
	args, layout := demoArgs(t)
	file := currencySession(t, layout)
	size := fileSize(t, file)
	code, out, errOut := runCLI(t, in(args, "preset", "use", "broken-on-purpose", "--session", file)...)
	if code != exitFailed || !strings.Contains(errOut, "Preset project:broken-on-purpose has errors") ||
		!strings.Contains(errOut, "Duplicate item id: intro") || strings.Contains(errOut, "Unknown prompt stack") || fileSize(t, file) != size {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}
