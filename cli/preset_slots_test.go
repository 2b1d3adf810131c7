package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPresetCompileTakesCustomSlotValues: --slots FILE gives a custom
// slot (an extension module's) its output for the preview, in preset
// compile and preset preview, as --macros does for extension macros;
// without it pi-forge's "Unsupported slot" warning stands and the slot is
// empty. A built-in slot's name or a bad file is a usage error.
func TestPresetCompileTakesCustomSlotValues(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stack := write("status.json", `{"schemaVersion":2,"id":"status","items":[`+
		`{"kind":"block","id":"intro","role":"system","content":"Intro."},`+
		`{"kind":"slot","id":"machine","role":"system","slot":"machine-status"}]}`)
	slots := write("slots.json", `{"machine-status":"load 0.42, disk 12G free"}`)
	base := []string{"--runtime", td("runtime.json"), "--base", td("base.txt")}

	code, out, errOut := runCLI(t, append([]string{"preset", "compile", stack, "--json"}, base...)...)
	if code != exitOK || !strings.Contains(out, `"systemPrompt":"Intro."`) || !strings.Contains(errOut, "system warning [machine]: Unsupported slot: machine-status") {
		t.Fatalf("without --slots: %d %s %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, append([]string{"preset", "compile", stack, "--json", "--slots", slots}, base...)...)
	if code != exitOK || !strings.Contains(out, `"systemPrompt":"Intro.\n\nload 0.42, disk 12G free"`) || strings.Contains(errOut, "Unsupported slot") ||
		!strings.Contains(errOut, "custom slots: "+slots) {
		t.Fatalf("with --slots: %d %s %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, append([]string{"preset", "preview", stack, "--slots", slots}, base...)...)
	if code != exitOK || !strings.Contains(out, "load 0.42, disk 12G free") {
		t.Fatalf("preview with --slots: %d %s %s", code, out, errOut)
	}
	for name, text := range map[string]string{
		"builtin.json": `{"tools":"x"}`,
		"number.json":  `{"machine-status":1}`,
		"broken.json":  `{"machine-status":`,
	} {
		code, _, errOut := runCLI(t, append([]string{"preset", "compile", stack, "--slots", write(name, text)}, base...)...)
		if code != exitUsage || !strings.Contains(errOut, "slots "+filepath.Join(dir, name)) {
			t.Errorf("%s: %d %s", name, code, errOut)
		}
	}
}
