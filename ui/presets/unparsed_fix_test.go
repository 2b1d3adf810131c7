package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// A Preset file that does not parse opens in the raw JSON editor on the
// file's own text, where it can be fixed: once the text parses, ctrl+s
// writes it over the file (against the revision read); while it does not,
// the save is refused and the file is left alone.
func TestAnUnparsablePresetOpensInTheRawEditorToBeFixed(t *testing.T) {
	const broken = `{"schemaVersion":1,"id":"half","name":"Half","items":[`
	hs := newHarnessWith(t, 160, 48, func(t testing.TB, cwd string) {
		p := filepath.Join(cwd, ".pi", "forge", "prompt-stacks", "half.json")
		if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	hs.openByID("project:half")
	if hs.m.formKind != formRaw || hs.m.focus != paneEditor || !hs.m.CapturesInput() {
		t.Fatalf("the unparsable Preset did not open in the raw JSON editor: form %q, focus %d", hs.m.formKind, hs.m.focus)
	}
	raw, ok := hs.m.form.(interface{ Text() string })
	if !ok || raw.Text() != broken {
		t.Fatalf("the editor does not hold the file's text")
	}
	if problem := forms.Unparsed(hs.m.form); problem == "" {
		t.Fatal("the editor shows no parse problem")
	}
	hs.Press("ctrl+s")
	if data, _ := os.ReadFile(hs.m.open.Path); string(data) != broken {
		t.Fatalf("a save of unparsed text wrote %s", data)
	}
	hs.Press("ctrl+end")
	hs.Type("]}")
	hs.Press("ctrl+s")
	data, err := os.ReadFile(hs.m.open.Path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatalf("the fixed file does not parse (%v): %s; status %q", err, data, statusText(hs))
	}
	if name, _ := v.(*jsonv.Object).Get("name"); name != "Half" {
		t.Fatalf("the fixed file lost the user's text: %s", data)
	}
	if !strings.Contains(statusText(hs), "saved project:half") {
		t.Fatalf("status %q", statusText(hs))
	}
}
